import type { Engine } from '../engine/engine.ts';
import type { ItemFeedPage, OrderItemStates } from '../engine/services/kitchen/kitchen-item-sync.ts';
import type { OrderView } from '../engine/services/orders/order-view.ts';
import { healDivergence, readReplicaSide, type DivergenceReport, type UpstreamSide } from '../engine/services/replica/replica-divergence.ts';
import { ACTIVE_STATUSES } from '../shared/order-states.ts';
import { KITCHEN_CURSOR, SYNC_KEYS } from '../engine/services/replica/replica-state.ts';
import { expectOk, fetchOrdersWhere, type ReplicaIdentity } from './first-pull.ts';
import { itemStatesPath } from './kitchen-sync.ts';
import type { UpstreamClient } from './upstream-client.ts';
import type { UpstreamFeedPage, UpstreamStock } from './upstream-types.ts';

/**
 * Compares what matters of the active orders (their status, their items' done marks) and of the stock on both sides, at
 * the upstream's precision: `updated_at`, which the API gives to the second while this side keeps
 * milliseconds, is not compared (it made every order created here a false difference). A real
 * difference the sync has no explanation for (a feed event lost, a database written behind the
 * engine's back) is recorded once as a conflict with both sides kept and healed at once: the
 * upstream's state wins locally, so `/sync/status` never reports all well while the two sides
 * disagree, and the next check finds them equal (a difference is not recorded again at every check).
 *
 * Run under the replica's mutex: nothing is applied or pushed meanwhile, so the local side is the
 * state at the feed cursor. The upstream's snapshot is later than that cursor; every order an event
 * after the cursor touches is left out (the feed will bring it), as is every order with a change
 * of ours still queued (the push will bring it). Stock is compared only when nothing of ours is
 * queued (orders take and give back stock) and no stock event is ahead. Whatever still differs has diverged.
 * This side's reads and the healing are services (engine/services/replica/replica-divergence.ts); here,
 * only what is asked of the upstream.
 */
export async function checkDivergence(engine: Engine, client: UpstreamClient, identity: ReplicaIdentity): Promise<DivergenceReport> {
  const upstreamActive = new Map<string, OrderView>();
  for (const status of ACTIVE_STATUSES) {
    for (const order of await fetchOrdersWhere(client, `status=${status}`)) upstreamActive.set(order.id, order);
  }
  const here = await readReplicaSide(engine, identity.restaurantId, identity.world, upstreamActive.keys(), { feed: SYNC_KEYS.cursor, kitchen: KITCHEN_CURSOR });
  const localActive = new Set(here.activeOrderIds);
  // Orders active here that the upstream no longer lists as active: ask for each.
  const orders = new Map<string, OrderView | null>(upstreamActive);
  for (const id of localActive) {
    if (orders.has(id) || here.queuedOrderIds.has(id)) continue;
    const response = await client.call<OrderView>('GET', `/orders/${id}`);
    if (response.status === 404) orders.set(id, null);
    else orders.set(id, expectOk(response, `GET /orders/${id}`));
  }
  // Stock lives upstream for live keys only (sandbox stock writes are simulated).
  const stock: UpstreamSide['stock'] = new Map();
  if (identity.world === 'live' && here.outboxEmpty) {
    for (const locationId of here.locationIds) {
      const response = await client.call<UpstreamStock>('GET', `/stock?location_id=${locationId}`);
      if (response.status === 404) continue;
      stock.set(locationId, expectOk(response, 'GET /stock').data);
    }
  }
  // The items' done marks of the orders active on both sides with no kitchen change of ours queued.
  const items = new Map<string, OrderItemStates>();
  for (const id of upstreamActive.keys()) {
    if (!localActive.has(id) || here.queuedKitchenOrderIds.has(id) || here.queuedOrderIds.has(id)) continue;
    const response = await client.call<OrderItemStates>('GET', itemStatesPath(id));
    if (response.status === 404) continue;
    items.set(id, expectOk(response, `GET ${itemStatesPath(id)}`));
  }
  // Item changes the replica's kitchen feed has not applied yet: those orders are in flight.
  const kitchenAhead = expectOk(await client.call<ItemFeedPage>('GET', `/sync/kitchen/items?after=${here.kitchenCursor}&limit=500`), 'GET /sync/kitchen/items');
  const itemsCompared = kitchenAhead.data.length < 500;
  // Events the replica has not applied yet: the orders and stock they touch are in flight, not diverged.
  const ahead = expectOk(await client.call<UpstreamFeedPage>('GET', `/events?after=${encodeURIComponent(here.feedCursor)}&limit=500`), 'GET /events');
  if (ahead.has_more) return { compared: 0, diverged: 0, healed: 0, skipped: true };
  const ordersInFlight = new Set<string>();
  const stockInFlight = new Set<string>();
  for (const event of ahead.data) {
    if (event.type.startsWith('order.')) {
      const order = event.data as { id: string; location_id: string | null };
      ordersInFlight.add(order.id);
      // An order takes or gives back stock at its location.
      if (order.location_id) stockInFlight.add(order.location_id);
    }
    if (event.type === 'stock.updated') stockInFlight.add((event.data as { location_id: string }).location_id);
  }
  return await healDivergence(engine, identity.restaurantId, identity.world, {
    orders,
    items: itemsCompared ? items : new Map(),
    stock,
    ordersInFlight,
    itemsInFlight: new Set(kitchenAhead.data.map((entry) => entry.order_id)),
    stockInFlight,
  });
}
