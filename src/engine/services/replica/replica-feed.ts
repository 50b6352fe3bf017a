// A replica's use cases for what its upstream's feeds bring: each page applied in one transaction
// together with the cursor that follows it, so a crash never skips or repeats a change. The sync
// door (src/sync) fetches the pages; these put them in place.
import { parseInstant } from '../../domain/time.ts';
import type { Engine, WriteTransaction } from '../../engine.ts';
import type { FeedPage } from '../feed/change-feed.ts';
import { mirrorItemState, type ItemFeedPage } from '../kitchen/kitchen-item-sync.ts';
import { writeKitchenSettings } from '../kitchen/kitchen-settings.ts';
import type { LocationStatusView } from '../locations/location-status.ts';
import { mirrorLocation, mirrorOrder, mirrorStock } from './mirror-upstream.ts';
import type { OrderView } from '../orders/order-view.ts';
import { KITCHEN_CURSOR, SYNC_KEYS } from './replica-state.ts';
import type { World } from '../../../shared/world.ts';

export interface AppliedPage {
  applied: number;
  /** Stopped at an order it cannot place yet (see below): retry once the pusher has caught up. */
  held: boolean;
  /** engine-clock ms between the last applied event's creation upstream and now. */
  lagMs: number | null;
}

/**
 * Applies a page of the upstream's feed in one transaction together with the new cursor, so a
 * crash never skips or repeats an event. An order the replica has never seen while one of its
 * own orders is still on its way up may be that very order under its upstream id: the page stops
 * there until the pusher has renamed it, so no order is ever duplicated.
 */
export async function applyFeedPage(engine: Engine, restaurantId: string, world: World, page: FeedPage): Promise<AppliedPage> {
  return await engine.transaction(async (tx) => {
    let applied = 0;
    let cursor = await tx.stores.sync.state(SYNC_KEYS.cursor);
    let lastCreatedAt: string | null = null;
    for (const event of page.data) {
      if (event.type === 'order.created' || event.type === 'order.updated') {
        const order = event.data as OrderView;
        if (!await tx.stores.orders.getById(order.id) && await tx.stores.sync.hasPendingCreates()) {
          await saveCursor(engine, tx, cursor);
          return { applied, held: true, lagMs: lag(engine, lastCreatedAt) };
        }
        await mirrorOrder(engine, restaurantId, world, order, event.type, undefined, tx);
      } else if (event.type === 'stock.updated') {
        const data = event.data as { location_id: string; items: { product_id: string; quantity: number }[] };
        await mirrorStock(engine, tx, restaurantId, data.location_id, data.items);
      } else if (event.type === 'location.updated') {
        const status = event.data as LocationStatusView;
        if (!await tx.stores.sync.hasPendingOpenClose(status.location_id)) {
          const position = (await tx.stores.locations.list(restaurantId)).length;
          await mirrorLocation(engine, tx, restaurantId, status, position);
        }
      }
      applied++;
      cursor = event.id;
      lastCreatedAt = event.created_at;
    }
    await saveCursor(engine, tx, page.data.length === applied ? page.next_cursor : cursor);
    await tx.stores.sync.setState(SYNC_KEYS.lastPullAt, String(engine.clock.now()));
    return { applied, held: false, lagMs: lag(engine, lastCreatedAt) };
  });
}

async function saveCursor(engine: Engine, tx: WriteTransaction, cursor: string | undefined): Promise<void> {
  if (cursor !== undefined) await tx.stores.sync.setState(SYNC_KEYS.cursor, cursor);
}

function lag(engine: Engine, createdAt: string | null): number | null {
  if (createdAt === null) return null;
  const at = parseInstant(createdAt);
  return at === null ? null : Math.max(0, engine.clock.now() - at);
}

export interface KitchenPullResult {
  applied: number;
  /** Stopped at a change of an order the replica's main feed has not brought yet. */
  held: boolean;
}

/** The upstream's change-feed position the replica has applied (its `ev_` cursor). */
async function mainFeedSeq(engine: Engine, tx: WriteTransaction): Promise<number> {
  const cursor = await tx.stores.sync.state(SYNC_KEYS.cursor);
  const match = cursor === undefined ? null : /^ev_(\d+)$/.exec(cursor);
  return match ? Number(match[1]) : 0;
}

/**
 * Applies one page of the upstream's item feed with its cursor in one transaction. A line with a
 * local bump still queued keeps the local state (the push will bring the upstream along). A change
 * of an order not here yet waits for the main feed when that feed is behind it, and is skipped when
 * the order will never come (finished before this replica's first pull).
 */
export async function applyItemFeedPage(engine: Engine, restaurantId: string, page: ItemFeedPage): Promise<KitchenPullResult> {
  return await engine.transaction(async (tx) => {
    const stored = (await tx.stores.kitchenData.settings(restaurantId))?.settings;
    if (stored !== JSON.stringify(page.settings)) await writeKitchenSettings(engine, tx, restaurantId, page.settings);
    let cursor = Number(await tx.stores.sync.state(KITCHEN_CURSOR) ?? 0);
    let applied = 0;
    const caughtUpTo = await mainFeedSeq(engine, tx);
    for (const entry of page.data) {
      const orderId = await tx.stores.orders.getById(entry.order_id) ? entry.order_id : (await tx.stores.sync.upstreamIdOf(entry.order_id) ?? entry.order_id);
      if (!await tx.stores.orders.getById(orderId) && entry.seq > caughtUpTo) {
        await tx.stores.sync.setState(KITCHEN_CURSOR, String(cursor));
        return { applied, held: true };
      }
      if (!await tx.stores.kitchenData.hasPendingItemPush(orderId, entry.item_index)) {
        if (await mirrorItemState(engine, tx, orderId, entry.item_index, entry.done)) applied++;
      }
      cursor = entry.seq;
    }
    await tx.stores.sync.setState(KITCHEN_CURSOR, String(Math.max(cursor, page.next_cursor)));
    return { applied, held: false };
  });
}
