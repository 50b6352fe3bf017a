import { formatInstant, parseInstant } from '../engine/domain/time.ts';
import type { Engine } from '../engine/engine.ts';
import { mirrorOrder } from '../engine/services/mirror-upstream.ts';
import type { OrderView } from '../engine/services/order-view.ts';
import { applyTransition } from '../engine/services/transition-order.ts';
import type { OrderRow } from '../engine/store/orders-store.ts';
import { ACTIVE_STATUSES } from '../shared/order-states.ts';
import { expectOk, fetchOrdersWhere, SYNC_KEYS, type ReplicaIdentity } from './first-pull.ts';
import type { UpstreamClient } from './upstream-client.ts';
import type { UpstreamFeedPage } from './upstream-types.ts';

export interface DivergenceReport {
  /** Orders compared (both sides had settled on them). */
  compared: number;
  /** Differences found, each recorded as a conflict and resolved in the upstream's favour. */
  diverged: number;
  /** The round was skipped: the feed is too far ahead to tell lag from divergence. */
  skipped: boolean;
}

/** How a side holds an order, as the conflict shows it: its state and when it last changed. */
type OrderState = { status: string; updated_at: string } | null;

const LOCAL_ACTIVE_LIMIT = 10_000;

/**
 * Compares the active orders' state and `updated_at` on both sides. Any difference the sync has
 * no explanation for (a feed event lost, a database written behind the engine's back) is recorded
 * as a conflict with both sides kept, and the upstream's state wins locally, so `/sync/status`
 * never reports all well while the two sides disagree.
 *
 * Run under the replica's mutex: nothing is applied or pushed meanwhile, so the local side is the
 * state at the feed cursor. The upstream's snapshot is later than that cursor; every order an event
 * after the cursor touches is left out (the feed will bring it), as is every order with a change
 * of ours still queued (the push will bring it). Whatever still differs has diverged.
 */
export async function checkDivergence(engine: Engine, client: UpstreamClient, identity: ReplicaIdentity): Promise<DivergenceReport> {
  const test = identity.mode === 'test';
  const upstreamActive = new Map<string, OrderView>();
  for (const status of ACTIVE_STATUSES) {
    for (const order of await fetchOrdersWhere(client, `status=${status}`)) upstreamActive.set(order.id, order);
  }
  const localActive = new Map<string, OrderRow>();
  for (const status of ACTIVE_STATUSES) {
    for (const row of engine.orders.list({ restaurantId: identity.restaurantId, test, status, limit: LOCAL_ACTIVE_LIMIT })) {
      localActive.set(row.id, row);
    }
  }
  // Orders active here that the upstream no longer lists as active: ask for each.
  const upstreamOf = new Map<string, OrderView | null>(upstreamActive);
  for (const id of localActive.keys()) {
    if (upstreamOf.has(id) || engine.sync.hasPendingForOrder(id)) continue;
    const response = await client.call<OrderView>('GET', `/orders/${id}`);
    if (response.status === 404) upstreamOf.set(id, null);
    else upstreamOf.set(id, expectOk(response, `GET /orders/${id}`));
  }
  // Events the replica has not applied yet: the orders they touch are in flight, not diverged.
  const cursor = engine.sync.state(SYNC_KEYS.cursor) ?? '';
  const ahead = expectOk(
    await client.call<UpstreamFeedPage>('GET', `/events?after=${encodeURIComponent(cursor)}&limit=500`),
    'GET /events',
  );
  if (ahead.has_more) return { compared: 0, diverged: 0, skipped: true };
  const inFlight = new Set<string>();
  for (const event of ahead.data) {
    if (event.type.startsWith('order.')) inFlight.add((event.data as { id: string }).id);
  }

  const zone = engine.restaurants.get(identity.restaurantId)?.time_zone ?? 'America/Santiago';
  return engine.transaction(() => {
    let compared = 0;
    let diverged = 0;
    // An order of ours may be upstream under its new id while its create's answer is still due.
    const oursInFlight = engine.sync.hasPendingCreates();
    for (const [id, upstream] of upstreamOf) {
      if (inFlight.has(id) || engine.sync.hasPendingForOrder(id)) continue;
      const local = engine.orders.get(identity.restaurantId, test, id) ?? null;
      if (local === null && oursInFlight) continue;
      compared++;
      if (sameState(local, upstream, zone)) continue;
      diverged++;
      engine.sync.divergence(
        id,
        stateOf(local, zone),
        { code: 'diverged', message: 'the platform holds another state for this order (found by the periodic check)' },
        upstream,
        engine.clock.now(),
      );
      if (upstream !== null) {
        mirrorOrder(engine, identity.restaurantId, test, upstream, 'order.created', { force: true });
      } else if (local !== null && local.status !== 'cancelado' && local.status !== 'entregado') {
        // The upstream has no such order: it cannot stand here either. Cancelling gives back its stock.
        applyTransition(engine, local, 'cancelado');
      }
    }
    return { compared, diverged, skipped: false };
  });
}

function stateOf(row: OrderRow | null, zone: string): OrderState {
  return row === null ? null : { status: row.status, updated_at: formatInstant(row.updated_at, zone) };
}

function sameState(local: OrderRow | null, upstream: OrderView | null, zone: string): boolean {
  if (local === null || upstream === null) return local === upstream;
  return local.status === upstream.status && local.updated_at === parseInstant(upstream.updated_at, zone);
}
