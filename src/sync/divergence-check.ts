import { formatInstant } from '../engine/domain/time.ts';
import type { Engine } from '../engine/engine.ts';
import { mirrorOrder, mirrorStock, restaurantTimeZone } from '../engine/services/mirror-upstream.ts';
import type { OrderView } from '../engine/services/order-view.ts';
import { applyTransition } from '../engine/services/transition-order.ts';
import type { OrderRow } from '../engine/store/orders-store.ts';
import type { ConflictRow } from '../engine/store/sync-store.ts';
import { ACTIVE_STATUSES } from '../shared/order-states.ts';
import { expectOk, fetchOrdersWhere, SYNC_KEYS, type ReplicaIdentity } from './first-pull.ts';
import type { UpstreamClient } from './upstream-client.ts';
import type { UpstreamFeedPage, UpstreamStock } from './upstream-types.ts';
import { itemStatesPath, KITCHEN_CURSOR, mirrorItemStates, type UpstreamItemStates } from './kitchen-sync.ts';
import type { ItemFeedPage } from '../engine/services/kitchen-item-sync.ts';

export interface DivergenceReport {
  /** Orders and stock entries compared (both sides had settled on them). */
  compared: number;
  /** Real differences found (status, stock), each recorded once as a conflict. */
  diverged: number;
  /** Differences healed here with the upstream's state. */
  healed: number;
  /** The round was skipped: the feed is too far ahead to tell lag from divergence. */
  skipped: boolean;
}

/** How a side holds an order, as the conflict shows it: its state and when it last changed. */
type OrderState = { status: string; updated_at: string } | null;

const LOCAL_ACTIVE_LIMIT = 10_000;

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
 */
export async function checkDivergence(engine: Engine, client: UpstreamClient, identity: ReplicaIdentity): Promise<DivergenceReport> {
  const test = identity.mode === 'test';
  const upstreamActive = new Map<string, OrderView>();
  for (const status of ACTIVE_STATUSES) {
    for (const order of await fetchOrdersWhere(client, `status=${status}`)) upstreamActive.set(order.id, order);
  }
  const localActive = new Map<string, OrderRow>();
  for (const status of ACTIVE_STATUSES) {
    for (const row of engine.stores.orders.list({ restaurantId: identity.restaurantId, test, status, limit: LOCAL_ACTIVE_LIMIT })) {
      localActive.set(row.id, row);
    }
  }
  // Orders active here that the upstream no longer lists as active: ask for each.
  const upstreamOf = new Map<string, OrderView | null>(upstreamActive);
  for (const id of localActive.keys()) {
    if (upstreamOf.has(id) || engine.stores.sync.hasPendingForOrder(id)) continue;
    const response = await client.call<OrderView>('GET', `/orders/${id}`);
    if (response.status === 404) upstreamOf.set(id, null);
    else upstreamOf.set(id, expectOk(response, `GET /orders/${id}`));
  }
  // Stock lives upstream for live keys only (sandbox stock writes are simulated).
  const stockCompared = !test && engine.stores.sync.pending() === 0;
  const upstreamStock = new Map<string, UpstreamStock['data']>();
  if (stockCompared) {
    for (const location of engine.stores.locations.list(identity.restaurantId)) {
      const response = await client.call<UpstreamStock>('GET', `/stock?location_id=${location.id}`);
      if (response.status === 404) continue;
      upstreamStock.set(location.id, expectOk(response, 'GET /stock').data);
    }
  }
  // The items' done marks of the orders active on both sides with no kitchen change of ours queued.
  const kitchenQueued = engine.stores.sync.ordersWithPendingKitchenData();
  const upstreamItems = new Map<string, UpstreamItemStates>();
  for (const id of upstreamActive.keys()) {
    if (!localActive.has(id) || kitchenQueued.has(id) || engine.stores.sync.hasPendingForOrder(id)) continue;
    const response = await client.call<UpstreamItemStates>('GET', itemStatesPath(id));
    if (response.status === 404) continue;
    upstreamItems.set(id, expectOk(response, `GET ${itemStatesPath(id)}`));
  }
  // Item changes the replica's kitchen feed has not applied yet: those orders are in flight.
  const kitchenAhead = expectOk(
    await client.call<ItemFeedPage>('GET', `/sync/kitchen/items?after=${engine.stores.sync.state(KITCHEN_CURSOR) ?? '0'}&limit=500`),
    'GET /sync/kitchen/items',
  );
  const itemsCompared = kitchenAhead.data.length < 500;
  const itemsInFlight = new Set(kitchenAhead.data.map((entry) => entry.order_id));
  // Events the replica has not applied yet: the orders and stock they touch are in flight, not diverged.
  const cursor = engine.stores.sync.state(SYNC_KEYS.cursor) ?? '';
  const ahead = expectOk(
    await client.call<UpstreamFeedPage>('GET', `/events?after=${encodeURIComponent(cursor)}&limit=500`),
    'GET /events',
  );
  if (ahead.has_more) return { compared: 0, diverged: 0, healed: 0, skipped: true };
  const inFlight = new Set<string>();
  const stockInFlight = new Set<string>();
  for (const event of ahead.data) {
    if (event.type.startsWith('order.')) {
      const order = event.data as { id: string; location_id: string | null };
      inFlight.add(order.id);
      // An order takes or gives back stock at its location.
      if (order.location_id) stockInFlight.add(order.location_id);
    }
    if (event.type === 'stock.updated') stockInFlight.add((event.data as { location_id: string }).location_id);
  }

  const zone = restaurantTimeZone(engine, identity.restaurantId);
  return engine.transaction(() => {
    let compared = 0;
    let diverged = 0;
    let healed = 0;
    // An order of ours may be upstream under its new id while its create's answer is still due.
    const oursInFlight = engine.stores.sync.hasPendingCreates();
    for (const [id, upstream] of upstreamOf) {
      if (inFlight.has(id) || engine.stores.sync.hasPendingForOrder(id)) continue;
      const local = engine.stores.orders.get(identity.restaurantId, test, id) ?? null;
      if (local === null && oursInFlight) continue;
      compared++;
      if (sameState(local, upstream)) continue;
      diverged++;
      // The same difference found again (its healing did not take): recorded once.
      const last = engine.stores.sync.lastDivergenceOf(id);
      if (!last || !sameDifference(last, local, upstream)) {
        engine.stores.sync.divergence(
          id,
          stateOf(local, zone),
          { code: 'diverged', message: 'the platform holds another state for this order (found by the periodic check); the platform state was put in place here' },
          upstream,
          engine.clock.now(),
        );
      }
      if (upstream !== null) {
        mirrorOrder(engine, identity.restaurantId, test, upstream, 'order.created', { force: true });
      } else if (local !== null && local.status !== 'cancelado' && local.status !== 'entregado') {
        // The upstream has no such order: it cannot stand here either. Cancelling gives back its stock.
        applyTransition(engine, local, 'cancelado');
      }
      if (sameState(engine.stores.orders.get(identity.restaurantId, test, id) ?? null, upstream)) healed++;
    }
    for (const [id, upstream] of itemsCompared ? upstreamItems : new Map<string, UpstreamItemStates>()) {
      if (inFlight.has(id) || itemsInFlight.has(id)) continue;
      const local = new Map(engine.stores.kitchenData.itemStates(id).map((state) => [state.item_index, state.done === 1]));
      const there = new Map(upstream.data.map((state) => [state.item_index, state.done]));
      const indexes = [...new Set([...local.keys(), ...there.keys()])].sort((a, b) => a - b);
      const differing = indexes.filter((index) => (local.get(index) ?? false) !== (there.get(index) ?? false));
      compared++;
      if (differing.length === 0) continue;
      diverged++;
      const here = { items: differing.map((index) => ({ item_index: index, done: local.get(index) ?? false })) };
      const last = engine.stores.sync.lastItemsDivergenceOf(id);
      if (!last || last.local_change !== JSON.stringify(here)) {
        engine.stores.sync.itemsDivergence(
          id,
          here,
          { code: 'diverged', message: "the platform holds other done marks for this order's items (found by the periodic check); its marks were put in place here" },
          upstream,
          engine.clock.now(),
        );
      }
      mirrorItemStates(engine, id, upstream);
      if (engine.stores.kitchenData.itemStates(id).every((state) => (state.done === 1) === (there.get(state.item_index) ?? false))) healed++;
    }
    for (const [locationId, entries] of upstreamStock) {
      if (stockInFlight.has(locationId)) continue;
      const differing: { product_id: string; quantity: number; here: number }[] = [];
      for (const entry of entries) {
        if (!engine.stores.catalogue.product(identity.restaurantId, entry.product_id)) continue;
        compared++;
        const here = engine.stores.stock.quantity(locationId, entry.product_id);
        if (here !== entry.quantity) differing.push({ product_id: entry.product_id, quantity: entry.quantity, here });
      }
      if (differing.length === 0) continue;
      diverged += differing.length;
      engine.stores.sync.stockDivergence(
        { location_id: locationId, items: differing.map((d) => ({ product_id: d.product_id, quantity: d.here })) },
        { code: 'diverged', message: 'the platform holds other stock quantities (found by the periodic check); its quantities were put in place here' },
        { location_id: locationId, items: differing.map((d) => ({ product_id: d.product_id, quantity: d.quantity })) },
        engine.clock.now(),
      );
      mirrorStock(engine, identity.restaurantId, locationId, differing, { force: true });
      healed += differing.filter((d) => engine.stores.stock.quantity(locationId, d.product_id) === d.quantity).length;
    }
    return { compared, diverged, healed, skipped: false };
  });
}

function stateOf(row: OrderRow | null, zone: string): OrderState {
  return row === null ? null : { status: row.status, updated_at: formatInstant(row.updated_at, zone) };
}

/** What matters of an order on both sides: whether it exists, and its status. */
function sameState(local: OrderRow | null, upstream: OrderView | null): boolean {
  if (local === null || upstream === null) return local === upstream;
  return local.status === upstream.status;
}

function sameDifference(last: ConflictRow, local: OrderRow | null, upstream: OrderView | null): boolean {
  const before = JSON.parse(last.local_change) as OrderState;
  const there = last.upstream_state === null ? null : (JSON.parse(last.upstream_state) as OrderView);
  return (before?.status ?? null) === (local?.status ?? null) && (there?.status ?? null) === (upstream?.status ?? null);
}
