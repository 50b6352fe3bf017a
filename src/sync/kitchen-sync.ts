import type { Engine } from '../engine/engine.ts';
import { mirrorItemState, type ItemFeedPage, type OrderItemStates } from '../engine/services/kitchen-item-sync.ts';
import { writeKitchenSettings } from '../engine/services/kitchen-settings.ts';
import { SYNC_KEYS } from './first-pull.ts';
import type { UpstreamClient } from './upstream-client.ts';

// The replica's side of the kitchen's own data: item bumps pushed through the outbox (push-change.ts
// names the door) and the upstream's item changes and kitchen settings pulled from its sync door.

export type UpstreamItemStates = OrderItemStates;

export const KITCHEN_CURSOR = 'kitchen_items_cursor';

export const itemStatesPath = (orderId: string) => `/sync/kitchen/orders/${orderId}/items`;

/** Where a recall made on the replica is pushed (the ticket shows upstream too, and takes bumps there). */
export const recallPath = (orderId: string) => `/sync/kitchen/orders/${orderId}/recall`;

export interface KitchenPullResult {
  applied: number;
  /** Stopped at a change of an order the replica's main feed has not brought yet. */
  held: boolean;
}

/** The upstream's change-feed position the replica has applied (its `ev_` cursor). */
function mainFeedSeq(engine: Engine): number {
  const cursor = engine.stores.sync.state(SYNC_KEYS.cursor);
  const match = cursor === undefined ? null : /^ev_(\d+)$/.exec(cursor);
  return match ? Number(match[1]) : 0;
}

/**
 * Applies one page of the upstream's item feed with its cursor in one transaction. A line with a
 * local bump still queued keeps the local state (the push will bring the upstream along). A change
 * of an order not here yet waits for the main feed when that feed is behind it, and is skipped when
 * the order will never come (finished before this replica's first pull).
 */
function applyItemFeedPage(engine: Engine, restaurantId: string, page: ItemFeedPage): KitchenPullResult {
  return engine.transaction(() => {
    const stored = engine.stores.kitchenData.settings(restaurantId)?.settings;
    if (stored !== JSON.stringify(page.settings)) writeKitchenSettings(engine, restaurantId, page.settings);
    let cursor = Number(engine.stores.sync.state(KITCHEN_CURSOR) ?? 0);
    let applied = 0;
    const caughtUpTo = mainFeedSeq(engine);
    for (const entry of page.data) {
      const orderId = engine.stores.orders.getById(entry.order_id) ? entry.order_id : (engine.stores.sync.upstreamIdOf(entry.order_id) ?? entry.order_id);
      if (!engine.stores.orders.getById(orderId) && entry.seq > caughtUpTo) {
        engine.stores.sync.setState(KITCHEN_CURSOR, String(cursor));
        return { applied, held: true };
      }
      if (!engine.stores.kitchenData.hasPendingItemPush(orderId, entry.item_index)) {
        if (mirrorItemState(engine, orderId, entry.item_index, entry.done)) applied++;
      }
      cursor = entry.seq;
    }
    engine.stores.sync.setState(KITCHEN_CURSOR, String(Math.max(cursor, page.next_cursor)));
    return { applied, held: false };
  });
}

/** One long-poll of the upstream's item feed, applied under `exclusive` (the replica's mutex). */
async function pullKitchenItems(
  engine: Engine,
  client: UpstreamClient,
  restaurantId: string,
  options: { waitSeconds: number; signal?: AbortSignal; exclusive?: <T>(work: () => Promise<T>) => Promise<T> },
): Promise<KitchenPullResult | { status: number }> {
  const after = engine.stores.sync.state(KITCHEN_CURSOR) ?? '0';
  const response = await client.call<ItemFeedPage>('GET', `/sync/kitchen/items?after=${after}&limit=200&wait=${options.waitSeconds}`, {
    timeoutMs: (options.waitSeconds + 10) * 1000,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (response.status !== 200) return { status: response.status };
  const apply = async () => applyItemFeedPage(engine, restaurantId, response.body);
  return options.exclusive ? options.exclusive(apply) : apply();
}

export interface KitchenPullLoop {
  engine: Engine;
  client: UpstreamClient;
  restaurantId: string;
  waitSeconds: number;
  exclusive: <T>(work: () => Promise<T>) => Promise<T>;
  /** Sleeps `ms` (ended early by a stop); the replica's backoff decides how long after failures. */
  sleep(ms: number): Promise<void>;
  backoff(failures: number): number;
  running(): boolean;
  signal: AbortSignal;
}

/** The replica's loop over the upstream's item feed, beside its main feed's. */
export async function runKitchenPull(loop: KitchenPullLoop): Promise<void> {
  let failures = 0;
  while (loop.running()) {
    try {
      const result = await pullKitchenItems(loop.engine, loop.client, loop.restaurantId, {
        waitSeconds: loop.waitSeconds,
        signal: loop.signal,
        exclusive: loop.exclusive,
      });
      if ('status' in result) {
        failures++;
        await loop.sleep(loop.backoff(failures));
        continue;
      }
      failures = 0;
      // Held behind the main feed: give it a moment to bring the order.
      if (result.held) await loop.sleep(100);
    } catch {
      if (!loop.running()) return;
      failures++;
      await loop.sleep(loop.backoff(failures));
    }
  }
}
