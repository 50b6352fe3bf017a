// A replica's side of the periodic divergence check (sync/divergence-check.ts asks the upstream):
// what this side holds, and, once the upstream's answers are in, the comparison and its healing in
// one transaction.
import { filterInOrder, flatMapInOrder } from '../../../shared/in-order.ts';
import { formatInstant } from '../../domain/time.ts';
import type { Engine } from '../../engine.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { ConflictRow } from '../../store/sync-store.ts';
import { ACTIVE_STATUSES } from '../../../shared/order-states.ts';
import { mirrorItemStates, type OrderItemStates } from '../kitchen/kitchen-item-sync.ts';
import { mirrorOrder, mirrorStock } from './mirror-upstream.ts';
import { restaurantTimeZone } from '../keys/restaurant-context.ts';
import type { OrderView } from '../orders/order-view.ts';
import { applyTransition } from '../orders/transition-order.ts';
import type { World } from '../../../shared/world.ts';

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

/** What the replica holds before it asks the upstream: what to ask about, and what to leave out. */
export interface ReplicaSide {
  /** Its active orders (every state before the end). */
  activeOrderIds: string[];
  /** Orders with a change of ours still queued: the push will bring the upstream along. */
  queuedOrderIds: Set<string>;
  /** Orders with a kitchen change of ours (a bump, a recall) still queued. */
  queuedKitchenOrderIds: Set<string>;
  /** Nothing of ours is queued: only then can stock be compared (orders take and give it back). */
  outboxEmpty: boolean;
  locationIds: string[];
  /** Where this replica stands in the upstream's change feed and in its item feed. */
  feedCursor: string;
  kitchenCursor: string;
}

/** The upstream's answers, and what its feeds hold beyond this replica's cursors (in flight, not diverged). */
export interface UpstreamSide {
  /** Each order to compare: the upstream's view, or null when the upstream has no such order. */
  orders: Map<string, OrderView | null>;
  /** The done marks of orders active on both sides; empty when too many item changes are ahead. */
  items: Map<string, OrderItemStates>;
  /** Stock per location, when it was compared. */
  stock: Map<string, { product_id: string; quantity: number }[]>;
  ordersInFlight: Set<string>;
  itemsInFlight: Set<string>;
  stockInFlight: Set<string>;
}

/** How a side holds an order, as the conflict shows it: its state and when it last changed. */
type OrderState = { status: string; updated_at: string } | null;

const LOCAL_ACTIVE_LIMIT = 10_000;

/** The replica's state-table keys of its two cursors (the sync door names them). */
export interface ReplicaCursorKeys {
  feed: string;
  kitchen: string;
}

/** In one read: the replica's side, `askAbout` being the upstream's active orders. */
export async function readReplicaSide(engine: Engine, restaurantId: string, world: World, askAbout: Iterable<string>, cursorKeys: ReplicaCursorKeys): Promise<ReplicaSide> {
  return await engine.read(async (tx) => {
    const activeOrderIds = (await flatMapInOrder(ACTIVE_STATUSES, async (status) =>
      (await tx.stores.orders.list({ restaurantId, world, status, limit: LOCAL_ACTIVE_LIMIT })).map((row) => row.id)));
    const queuedOrderIds = new Set(await filterInOrder([...activeOrderIds, ...askAbout], async (id) => await tx.stores.sync.hasPendingForOrder(id)));
    return {
      activeOrderIds,
      queuedOrderIds,
      queuedKitchenOrderIds: await tx.stores.sync.ordersWithPendingKitchenData(),
      outboxEmpty: await tx.stores.sync.pending() === 0,
      locationIds: (await tx.stores.locations.list(restaurantId)).map((location) => location.id),
      feedCursor: await tx.stores.sync.state(cursorKeys.feed) ?? '',
      kitchenCursor: await tx.stores.sync.state(cursorKeys.kitchen) ?? '0',
    };
  });
}

/**
 * Compares what matters (an order's status, its items' done marks, stock) and heals what differs
 * with the upstream's state, in one transaction: a difference is recorded once as a conflict, with
 * both sides kept. Orders in flight (an event after the cursor, a change of ours queued) are left out.
 */
export async function healDivergence(engine: Engine, restaurantId: string, world: World, upstream: UpstreamSide): Promise<DivergenceReport> {
  return await engine.transaction(async (tx) => {
    const zone = await restaurantTimeZone(engine, restaurantId, tx);
    let compared = 0;
    let diverged = 0;
    let healed = 0;
    // An order of ours may be upstream under its new id while its create's answer is still due.
    const oursInFlight = await tx.stores.sync.hasPendingCreates();
    for (const [id, there] of upstream.orders) {
      if (upstream.ordersInFlight.has(id) || await tx.stores.sync.hasPendingForOrder(id)) continue;
      const local = await tx.stores.orders.get(restaurantId, world, id) ?? null;
      if (local === null && oursInFlight) continue;
      compared++;
      if (sameState(local, there)) continue;
      diverged++;
      // The same difference found again (its healing did not take): recorded once.
      const last = await tx.stores.sync.lastDivergenceOf(id);
      if (!last || !sameDifference(last, local, there)) {
        await tx.stores.sync.divergence(
          id,
          stateOf(local, zone),
          { code: 'diverged', message: 'the platform holds another state for this order (found by the periodic check); the platform state was put in place here' },
          there,
          engine.clock.now(),
        );
      }
      if (there !== null) {
        await mirrorOrder(engine, restaurantId, world, there, 'order.created', { force: true }, tx);
      } else if (local !== null && local.status !== 'cancelado' && local.status !== 'entregado') {
        // The upstream has no such order: it cannot stand here either. Cancelling gives back its stock.
        await applyTransition(engine, tx, local, 'cancelado');
      }
      if (sameState(await tx.stores.orders.get(restaurantId, world, id) ?? null, there)) healed++;
    }
    for (const [id, there] of upstream.items) {
      if (upstream.ordersInFlight.has(id) || upstream.itemsInFlight.has(id)) continue;
      const local = new Map((await tx.stores.kitchenData.itemStates(id)).map((state) => [state.item_index, state.done === 1]));
      const marks = new Map(there.data.map((state) => [state.item_index, state.done]));
      const indexes = [...new Set([...local.keys(), ...marks.keys()])].sort((a, b) => a - b);
      const differing = indexes.filter((index) => (local.get(index) ?? false) !== (marks.get(index) ?? false));
      compared++;
      if (differing.length === 0) continue;
      diverged++;
      const here = { items: differing.map((index) => ({ item_index: index, done: local.get(index) ?? false })) };
      const last = await tx.stores.sync.lastItemsDivergenceOf(id);
      if (!last || last.local_change !== JSON.stringify(here)) {
        await tx.stores.sync.itemsDivergence(
          id,
          here,
          { code: 'diverged', message: "the platform holds other done marks for this order's items (found by the periodic check); its marks were put in place here" },
          there,
          engine.clock.now(),
        );
      }
      await mirrorItemStates(engine, tx, id, there);
      if ((await tx.stores.kitchenData.itemStates(id)).every((state) => (state.done === 1) === (marks.get(state.item_index) ?? false))) healed++;
    }
    for (const [locationId, entries] of upstream.stock) {
      if (upstream.stockInFlight.has(locationId)) continue;
      const differing: { product_id: string; quantity: number; here: number }[] = [];
      for (const entry of entries) {
        if (!await tx.stores.catalogue.product(restaurantId, entry.product_id)) continue;
        compared++;
        const here = await tx.stores.stock.quantity(locationId, entry.product_id);
        if (here !== entry.quantity) differing.push({ product_id: entry.product_id, quantity: entry.quantity, here });
      }
      if (differing.length === 0) continue;
      diverged += differing.length;
      await tx.stores.sync.stockDivergence(
        { location_id: locationId, items: differing.map((d) => ({ product_id: d.product_id, quantity: d.here })) },
        { code: 'diverged', message: 'the platform holds other stock quantities (found by the periodic check); its quantities were put in place here' },
        { location_id: locationId, items: differing.map((d) => ({ product_id: d.product_id, quantity: d.quantity })) },
        engine.clock.now(),
      );
      await mirrorStock(engine, tx, restaurantId, locationId, differing, { force: true });
      healed += (await filterInOrder(differing, async (d) => await tx.stores.stock.quantity(locationId, d.product_id) === d.quantity)).length;
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
