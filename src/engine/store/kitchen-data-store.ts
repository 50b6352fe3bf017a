import type { Database, Statement } from 'better-sqlite3';
import type { OrderRow } from './orders-store.ts';
import type { World } from '../../shared/world.ts';

export interface ItemStateRow {
  order_id: string;
  item_index: number;
  done: number;
  updated_at: number;
  /** When a cook marked it started at its station (issue 32, `items:set-started`); null: not marked. */
  started_at: number | null;
}

/** The restaurant file's kitchen settings as stored (services/kitchen/kitchen-settings.ts reads them). */
export interface KitchenSettingsRow {
  settings: string;
  updated_at: number;
}

/**
 * The kitchen's own data about orders (item bumps, recalls, channels) and the restaurant's kitchen
 * settings. None of it is shown by the public API.
 */
export class KitchenDataStore {
  private readonly itemsOf: Statement<[string], ItemStateRow>;
  private readonly itemAt: Statement<[string, number], ItemStateRow>;
  private readonly putItem: Statement<[string, number, number, number]>;
  private readonly putItemStart: Statement<[string, number, number, number | null]>;
  private readonly recallOf: Statement<[string], { recalled_until: number }>;
  private readonly putRecall: Statement<[string, number, number]>;
  private readonly recalledOrders: Statement<[string, number], OrderRow>;
  private readonly channelOf: Statement<[string], { channel: string }>;
  private readonly putChannel: Statement<[string, string]>;
  private readonly settingsOf: Statement<[string], KitchenSettingsRow>;
  private readonly putSettings: Statement<[string, string, number]>;
  private readonly itemsOfMany: Statement<[string], ItemStateRow>;
  private readonly recallsOfMany: Statement<[string], { order_id: string; recalled_until: number }>;
  private readonly channelsOfMany: Statement<[string], { order_id: string; channel: string }>;
  private readonly pendingItemPush: Statement<[string, number], { n: number }>;
  private readonly itemEventsAfter: Statement<[string, string, string, number, number], { seq: number; data: string }>;

  constructor(db: Database) {
    this.itemsOf = db.prepare('SELECT * FROM kitchen_item_states WHERE order_id = ? ORDER BY item_index');
    this.itemAt = db.prepare('SELECT * FROM kitchen_item_states WHERE order_id = ? AND item_index = ?');
    this.putItem = db.prepare(
      `INSERT INTO kitchen_item_states (order_id, item_index, done, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (order_id, item_index) DO UPDATE SET done = excluded.done, updated_at = excluded.updated_at`,
    );
    // A line's start mark (issue 32): its bump, when it has none yet, is not done.
    this.putItemStart = db.prepare(
      `INSERT INTO kitchen_item_states (order_id, item_index, done, updated_at, started_at) VALUES (?, ?, 0, ?, ?)
       ON CONFLICT (order_id, item_index) DO UPDATE SET started_at = excluded.started_at, updated_at = excluded.updated_at`,
    );
    this.recallOf = db.prepare('SELECT recalled_until FROM kitchen_recalls WHERE order_id = ?');
    this.putRecall = db.prepare(
      `INSERT INTO kitchen_recalls (order_id, recalled_at, recalled_until) VALUES (?, ?, ?)
       ON CONFLICT (order_id) DO UPDATE SET recalled_at = excluded.recalled_at, recalled_until = excluded.recalled_until`,
    );
    this.recalledOrders = db.prepare(
      `SELECT o.* FROM kitchen_recalls r JOIN orders o ON o.id = r.order_id
       WHERE o.restaurant_id = ? AND r.recalled_until > ? ORDER BY r.recalled_at`,
    );
    this.channelOf = db.prepare('SELECT channel FROM kitchen_order_channels WHERE order_id = ?');
    this.putChannel = db.prepare(
      'INSERT INTO kitchen_order_channels (order_id, channel) VALUES (?, ?) ON CONFLICT (order_id) DO UPDATE SET channel = excluded.channel',
    );
    // Many orders at once (a board snapshot): their ids as one JSON array.
    this.itemsOfMany = db.prepare('SELECT * FROM kitchen_item_states WHERE order_id IN (SELECT value FROM json_each(?))');
    this.recallsOfMany = db.prepare('SELECT order_id, recalled_until FROM kitchen_recalls WHERE order_id IN (SELECT value FROM json_each(?))');
    this.channelsOfMany = db.prepare('SELECT order_id, channel FROM kitchen_order_channels WHERE order_id IN (SELECT value FROM json_each(?))');
    this.pendingItemPush = db.prepare(
      `SELECT COUNT(*) AS n FROM sync_outbox WHERE status = 'pending' AND kind = 'set_item_done' AND order_id = ?
       AND json_extract(payload, '$.item_index') = ?`,
    );
    this.itemEventsAfter = db.prepare(
      `SELECT seq, data FROM events WHERE restaurant_id = ? AND world = ? AND type = ? AND seq > ? ORDER BY seq LIMIT ?`,
    );
    this.settingsOf = db.prepare('SELECT settings, updated_at FROM kitchen_settings WHERE restaurant_id = ?');
    this.putSettings = db.prepare(
      `INSERT INTO kitchen_settings (restaurant_id, settings, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (restaurant_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at`,
    );
  }

  itemStates(orderId: string): ItemStateRow[] {
    return this.itemsOf.all(orderId);
  }

  itemStatesOf(orderIds: readonly string[]): ItemStateRow[] {
    return this.itemsOfMany.all(JSON.stringify(orderIds));
  }

  recallsOf(orderIds: readonly string[]): { order_id: string; recalled_until: number }[] {
    return this.recallsOfMany.all(JSON.stringify(orderIds));
  }

  channelsOf(orderIds: readonly string[]): { order_id: string; channel: string }[] {
    return this.channelsOfMany.all(JSON.stringify(orderIds));
  }

  itemState(orderId: string, itemIndex: number): ItemStateRow | undefined {
    return this.itemAt.get(orderId, itemIndex);
  }

  setItemState(orderId: string, itemIndex: number, done: boolean, at: number): void {
    this.putItem.run(orderId, itemIndex, done ? 1 : 0, at);
  }

  /** Marks the line started at `startedAt` (null: not started), `at` its change. */
  setItemStarted(orderId: string, itemIndex: number, startedAt: number | null, at: number): void {
    this.putItemStart.run(orderId, itemIndex, at, startedAt);
  }

  recalledUntil(orderId: string): number | null {
    return this.recallOf.get(orderId)?.recalled_until ?? null;
  }

  recall(orderId: string, at: number, until: number): void {
    this.putRecall.run(orderId, at, until);
  }

  /** Orders of the restaurant (both worlds) recalled until after `now`, oldest recall first. */
  recalled(restaurantId: string, now: number): OrderRow[] {
    return this.recalledOrders.all(restaurantId, now);
  }

  channel(orderId: string): string | null {
    return this.channelOf.get(orderId)?.channel ?? null;
  }

  setChannel(orderId: string, channel: string): void {
    this.putChannel.run(orderId, channel);
  }

  /** A replica's item bump of this line not yet pushed upstream (it wins over the upstream's until then). */
  hasPendingItemPush(orderId: string, itemIndex: number): boolean {
    return this.pendingItemPush.get(orderId, itemIndex)!.n > 0;
  }

  /** Events of one kitchen type of one world after `afterSeq`, oldest first. */
  itemEvents(restaurantId: string, world: World, type: string, afterSeq: number, limit: number): { seq: number; data: string }[] {
    return this.itemEventsAfter.all(restaurantId, world, type, afterSeq, limit);
  }

  settings(restaurantId: string): KitchenSettingsRow | undefined {
    return this.settingsOf.get(restaurantId);
  }

  setSettings(restaurantId: string, settings: string, at: number): void {
    this.putSettings.run(restaurantId, settings, at);
  }
}
