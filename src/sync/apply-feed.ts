import { parseInstant } from '../engine/domain/time.ts';
import type { Engine } from '../engine/engine.ts';
import type { LocationStatusView } from '../engine/services/location-status.ts';
import { mirrorLocation, mirrorOrder, mirrorStock } from '../engine/services/mirror-upstream.ts';
import type { OrderView } from '../engine/services/order-view.ts';
import { SYNC_KEYS, type ReplicaIdentity } from './first-pull.ts';
import type { UpstreamFeedPage } from './upstream-types.ts';

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
export function applyFeedPage(engine: Engine, identity: ReplicaIdentity, page: UpstreamFeedPage): AppliedPage {
  return engine.transaction(() => {
    let applied = 0;
    let cursor = engine.stores.sync.state(SYNC_KEYS.cursor);
    let lastCreatedAt: string | null = null;
    for (const event of page.data) {
      if (event.type === 'order.created' || event.type === 'order.updated') {
        const order = event.data as OrderView;
        if (!engine.stores.orders.getById(order.id) && engine.stores.sync.hasPendingCreates()) {
          saveCursor(engine, cursor);
          return { applied, held: true, lagMs: lag(engine, lastCreatedAt) };
        }
        mirrorOrder(engine, identity.restaurantId, identity.mode === 'test', order, event.type);
      } else if (event.type === 'stock.updated') {
        const data = event.data as { location_id: string; items: { product_id: string; quantity: number }[] };
        mirrorStock(engine, identity.restaurantId, data.location_id, data.items);
      } else if (event.type === 'location.updated') {
        const status = event.data as LocationStatusView;
        if (!engine.stores.sync.hasPendingOpenClose(status.location_id)) {
          const position = engine.stores.locations.list(identity.restaurantId).length;
          mirrorLocation(engine, identity.restaurantId, status, position);
        }
      }
      applied++;
      cursor = event.id;
      lastCreatedAt = event.created_at;
    }
    saveCursor(engine, page.data.length === applied ? page.next_cursor : cursor);
    engine.stores.sync.setState(SYNC_KEYS.lastPullAt, String(engine.clock.now()));
    return { applied, held: false, lagMs: lag(engine, lastCreatedAt) };
  });
}

function saveCursor(engine: Engine, cursor: string | undefined): void {
  if (cursor !== undefined) engine.stores.sync.setState(SYNC_KEYS.cursor, cursor);
}

function lag(engine: Engine, createdAt: string | null): number | null {
  if (createdAt === null) return null;
  const at = parseInstant(createdAt);
  return at === null ? null : Math.max(0, engine.clock.now() - at);
}
