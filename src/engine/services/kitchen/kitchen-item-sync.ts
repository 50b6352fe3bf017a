import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import { notFound } from '../../domain/errors.ts';
import type { Actor } from '../../domain/actor.ts';
import { KITCHEN_EVENTS } from '../../../shared/screen-contract/kitchen.ts';
import type { KitchenSettings } from '../../domain/kitchen-settings.ts';
import { readKitchenSettings } from './kitchen-settings.ts';
import { restaurantOf } from '../keys/restaurant-context.ts';
import { worldOf } from '../../../shared/world.ts';

// What a replica needs of the kitchen's data, over the sync door (not the public API): an order's
// item states, and a feed of item changes in the order they happened, with the kitchen settings.

export interface ItemStateEntry {
  item_index: number;
  done: boolean;
}

export interface OrderItemStates {
  order_id: string;
  data: ItemStateEntry[];
}

export interface ItemFeedEntry extends ItemStateEntry {
  /** The position in the upstream's change feed (the same numbers as the API's `ev_` cursors). */
  seq: number;
  order_id: string;
}

export interface ItemFeedPage {
  data: ItemFeedEntry[];
  /** Give it back as `after` for what follows. */
  next_cursor: number;
  settings: KitchenSettings;
}

export async function readOrderItemStates(engine: Engine, actor: Actor, orderId: string, callerTx?: ReadTransaction): Promise<OrderItemStates> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const order = await tx.stores.orders.get(restaurant.id, actor.world, orderId.toLowerCase());
    if (!order) throw notFound(`order ${orderId} not found`);
    return {
      order_id: order.id,
      data: (await tx.stores.kitchenData.itemStates(order.id)).map((s) => ({ item_index: s.item_index, done: s.done === 1 })),
    };
  });
}

/**
 * The item changes after `afterSeq`, and the cursor to continue from. Item changes are a few among
 * the restaurant's events: the cursor moves past every event already read, not only to the last item
 * change, or each read (one per commit while a long-poll waits) would scan the same events again.
 */
async function readItemChanges(engine: Engine, tx: ReadTransaction, restaurantId: string, actor: Actor, afterSeq: number, limit: number): Promise<{ data: ItemFeedEntry[]; nextCursor: number }> {
  // Read first: every event up to it is committed (writers take their seq in turn), so none below
  // it can appear after the query below.
  const head = await tx.stores.events.lastSeq(restaurantId);
  const rows = await tx.stores.kitchenData.itemEvents(restaurantId, actor.world, KITCHEN_EVENTS.item, afterSeq, limit);
  const data = rows.map((row) => ({ seq: row.seq, ...(JSON.parse(row.data) as { order_id: string; item_index: number; done: boolean }) }));
  const lastRead = data.length > 0 ? data[data.length - 1]!.seq : afterSeq;
  // A full page may stop before the head: continue from its last entry.
  return { data, nextCursor: data.length === limit ? lastRead : Math.max(lastRead, head) };
}

/**
 * While a long-poll waits, its reads are this far apart at least: item changes are a few among the
 * restaurant's commits (orders, stock, a replica's outbox replaying hundreds a second), and one read
 * per commit cost the upstream more than the commits' own answers. A bump waits this much more, at most.
 */
const ITEM_FEED_READ_GAP_MS = 25;

/** The feed with long-poll: when nothing follows, waits up to `waitMs` for a commit of the restaurant. */
export async function pollItemFeed(engine: Engine, actor: Actor, afterSeq: number, limit: number, waitMs: number, signal?: AbortSignal): Promise<ItemFeedPage> {
  // Each read in a read transaction of its own: the waits between them hold none.
  const restaurant = await restaurantOf(engine, actor);
  const deadline = Date.now() + waitMs;
  let from = afterSeq;
  for (;;) {
    const changes = await engine.read(async (tx) => await readItemChanges(engine, tx, restaurant.id, actor, from, limit));
    const readAt = Date.now();
    if (changes.data.length > 0 || deadline - readAt <= 0 || signal?.aborted) {
      return { data: changes.data, next_cursor: changes.nextCursor, settings: await readKitchenSettings(engine, restaurant.id) };
    }
    from = changes.nextCursor;
    await engine.notifier.waitForChange(actor.restaurantId, deadline - readAt, signal);
    const gap = Math.min(readAt + ITEM_FEED_READ_GAP_MS, deadline) - Date.now();
    if (gap > 0 && !signal?.aborted) await pause(gap, signal);
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * A replica takes its upstream's item state: written with its kitchen event (so local screens see
 * it) and never queued back. Unchanged, nothing written. Call inside a transaction.
 */
export async function mirrorItemState(engine: Engine, tx: WriteTransaction, orderId: string, itemIndex: number, done: boolean): Promise<boolean> {
  const order = await tx.stores.orders.getById(orderId);
  if (!order) return false;
  if (((await tx.stores.kitchenData.itemState(order.id, itemIndex))?.done === 1) === done) return false;
  const now = engine.clock.now();
  await tx.stores.kitchenData.setItemState(order.id, itemIndex, done, now);
  await tx.stores.events.append(order.restaurant_id, worldOf(order.test), KITCHEN_EVENTS.item, now, { order_id: order.id, item_index: itemIndex, done });
  return true;
}

/**
 * A replica's lines of an order take the upstream's done marks (a line the upstream does not list
 * is not done there). After a refused push, or a divergence found. Inside a transaction.
 */
export async function mirrorItemStates(engine: Engine, tx: WriteTransaction, orderId: string, states: OrderItemStates): Promise<void> {
  const upstream = new Map(states.data.map((s) => [s.item_index, s.done]));
  for (const local of await tx.stores.kitchenData.itemStates(orderId)) {
    if (!upstream.has(local.item_index)) upstream.set(local.item_index, false);
  }
  for (const [index, done] of upstream) await mirrorItemState(engine, tx, orderId, index, done);
}
