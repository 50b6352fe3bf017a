// Issue 34: KitchenDataStore (store/kitchen-data-store.ts) on PostgreSQL. Many orders at once are a
// text array (`= ANY ($1::text[])`) where SQLite reads a JSON array with json_each; an outbox row's
// JSON payload is read with `::jsonb`. Every write is one upsert, so two nodes bumping the same line
// never both insert (the second updates).
import type { World } from '../../../shared/world.ts';
import type { AsyncStore } from '../../store/async-store.ts';
import type { ItemStateRow, KitchenDataStore, KitchenSettingsRow } from '../../store/kitchen-data-store.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import { countsRollbacks, firstRow, rowsOf, sendWrite, type PostgresQueryable } from './queryable.ts';

const SQL = {
  itemsOf: 'SELECT * FROM kitchen_item_states WHERE order_id = $1 ORDER BY item_index',
  itemAt: 'SELECT * FROM kitchen_item_states WHERE order_id = $1 AND item_index = $2',
  putItemStart: `INSERT INTO kitchen_item_states (order_id, item_index, done, updated_at, started_at) VALUES ($1, $2, 0, $3, $4)
    ON CONFLICT (order_id, item_index) DO UPDATE SET started_at = excluded.started_at, updated_at = excluded.updated_at`,
  putItem: `INSERT INTO kitchen_item_states (order_id, item_index, done, updated_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (order_id, item_index) DO UPDATE SET done = excluded.done, updated_at = excluded.updated_at`,
  recallOf: 'SELECT recalled_until FROM kitchen_recalls WHERE order_id = $1',
  putRecall: `INSERT INTO kitchen_recalls (order_id, recalled_at, recalled_until) VALUES ($1, $2, $3)
    ON CONFLICT (order_id) DO UPDATE SET recalled_at = excluded.recalled_at, recalled_until = excluded.recalled_until`,
  recalledOrders: `SELECT o.* FROM kitchen_recalls r JOIN orders o ON o.id = r.order_id
    WHERE o.restaurant_id = $1 AND r.recalled_until > $2 ORDER BY r.recalled_at, o.id COLLATE "C"`,
  channelOf: 'SELECT channel FROM kitchen_order_channels WHERE order_id = $1',
  putChannel: 'INSERT INTO kitchen_order_channels (order_id, channel) VALUES ($1, $2) ON CONFLICT (order_id) DO UPDATE SET channel = excluded.channel',
  itemsOfMany: 'SELECT * FROM kitchen_item_states WHERE order_id = ANY ($1::text[])',
  recallsOfMany: 'SELECT order_id, recalled_until FROM kitchen_recalls WHERE order_id = ANY ($1::text[])',
  channelsOfMany: 'SELECT order_id, channel FROM kitchen_order_channels WHERE order_id = ANY ($1::text[])',
  // jsonb compares numbers as numbers (1 = 1.0), as SQLite's json_extract does.
  pendingItemPush: `SELECT COUNT(*) AS n FROM sync_outbox WHERE status = 'pending' AND kind = 'set_item_done' AND order_id = $1
    AND payload::jsonb -> 'item_index' = to_jsonb($2::bigint)`,
  itemEventsAfter: 'SELECT seq, data FROM events WHERE restaurant_id = $1 AND world = $2 AND type = $3 AND seq > $4 ORDER BY seq LIMIT $5',
  settingsOf: 'SELECT settings, updated_at FROM kitchen_settings WHERE restaurant_id = $1',
  putSettings: `INSERT INTO kitchen_settings (restaurant_id, settings, updated_at) VALUES ($1, $2, $3)
    ON CONFLICT (restaurant_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at`,
};

export class PostgresKitchenDataStore implements AsyncStore<KitchenDataStore> {
  /**
   * The channels this transaction set (the store is built per transaction), answered without a
   * statement (issue 34: the new order's channel is read back while its restaurant's clock row is
   * held, a round trip for a value the transaction wrote itself). The row is this transaction's
   * until it commits (the upsert locks it), so no other can change it meanwhile; kept only while no
   * savepoint was rolled back since (`rollbacks`), which may have undone the write.
   */
  private readonly channelsSet = new Map<string, { channel: string; rollbacks: number }>();

  constructor(private readonly db: PostgresQueryable) {}

  itemStates(orderId: string): Promise<ItemStateRow[]> {
    return rowsOf<ItemStateRow>(this.db, SQL.itemsOf, [orderId]);
  }

  itemStatesOf(orderIds: readonly string[]): Promise<ItemStateRow[]> {
    return rowsOf<ItemStateRow>(this.db, SQL.itemsOfMany, [[...orderIds]]);
  }

  recallsOf(orderIds: readonly string[]): Promise<{ order_id: string; recalled_until: number }[]> {
    return rowsOf<{ order_id: string; recalled_until: number }>(this.db, SQL.recallsOfMany, [[...orderIds]]);
  }

  channelsOf(orderIds: readonly string[]): Promise<{ order_id: string; channel: string }[]> {
    return rowsOf<{ order_id: string; channel: string }>(this.db, SQL.channelsOfMany, [[...orderIds]]);
  }

  itemState(orderId: string, itemIndex: number): Promise<ItemStateRow | undefined> {
    return firstRow<ItemStateRow>(this.db, SQL.itemAt, [orderId, itemIndex]);
  }

  async setItemState(orderId: string, itemIndex: number, done: boolean, at: number): Promise<void> {
    await this.db.query(SQL.putItem, [orderId, itemIndex, done ? 1 : 0, at]);
  }

  async setItemStarted(orderId: string, itemIndex: number, startedAt: number | null, at: number): Promise<void> {
    await this.db.query(SQL.putItemStart, [orderId, itemIndex, at, startedAt]);
  }

  async recalledUntil(orderId: string): Promise<number | null> {
    return (await firstRow<{ recalled_until: number }>(this.db, SQL.recallOf, [orderId]))?.recalled_until ?? null;
  }

  async recall(orderId: string, at: number, until: number): Promise<void> {
    await this.db.query(SQL.putRecall, [orderId, at, until]);
  }

  recalled(restaurantId: string, now: number): Promise<OrderRow[]> {
    return rowsOf<OrderRow>(this.db, SQL.recalledOrders, [restaurantId, now]);
  }

  async channel(orderId: string): Promise<string | null> {
    const set = this.channelsSet.get(orderId);
    if (set && countsRollbacks(this.db) && set.rollbacks === this.db.rollbacks) return set.channel;
    return (await firstRow<{ channel: string }>(this.db, SQL.channelOf, [orderId]))?.channel ?? null;
  }

  async setChannel(orderId: string, channel: string): Promise<void> {
    if (countsRollbacks(this.db)) this.channelsSet.set(orderId, { channel, rollbacks: this.db.rollbacks });
    await sendWrite(this.db, SQL.putChannel, [orderId, channel]);
  }

  async hasPendingItemPush(orderId: string, itemIndex: number): Promise<boolean> {
    return ((await firstRow<{ n: number }>(this.db, SQL.pendingItemPush, [orderId, itemIndex]))?.n ?? 0) > 0;
  }

  itemEvents(restaurantId: string, world: World, type: string, afterSeq: number, limit: number): Promise<{ seq: number; data: string }[]> {
    return rowsOf<{ seq: number; data: string }>(this.db, SQL.itemEventsAfter, [restaurantId, world, type, afterSeq, limit]);
  }

  settings(restaurantId: string): Promise<KitchenSettingsRow | undefined> {
    return firstRow<KitchenSettingsRow>(this.db, SQL.settingsOf, [restaurantId]);
  }

  async setSettings(restaurantId: string, settings: string, at: number): Promise<void> {
    await this.db.query(SQL.putSettings, [restaurantId, settings, at]);
  }
}
