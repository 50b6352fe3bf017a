import type { Engine } from '../engine/engine.ts';
import type { LocationStatusView } from '../engine/services/location-status.ts';
import { mirrorLocation, mirrorOrder, mirrorStock } from '../engine/services/mirror-upstream.ts';
import type { OrderView } from '../engine/services/order-view.ts';
import { applyTransition } from '../engine/services/transition-order.ts';
import type { OutboxRow } from '../engine/store/sync-store.ts';
import type { ReplicaIdentity } from './first-pull.ts';
import type { UpstreamClient, UpstreamResponse } from './upstream-client.ts';
import type { UpstreamError, UpstreamStock } from './upstream-types.ts';
import { itemStatesPath, mirrorItemStates, type UpstreamItemStates } from './kitchen-sync.ts';

export type PushOutcome =
  | { kind: 'sent' }
  | { kind: 'conflict' }
  /** Not delivered; try the same change again (same Idempotency-Key) after `delayMs` or a backoff. */
  | { kind: 'retry'; delayMs: number | null; reason: string; unreachable: boolean };

const retryable = (status: number) => status >= 500 || status === 429 || status === 401 || status === 408;

/**
 * Sends one outbox change upstream with its own Idempotency-Key (so a resend after a lost answer
 * is answered with the first result, never applied twice) and records the outcome locally. A
 * refusal is a conflict: the upstream's state wins locally and both sides are kept for the kitchen
 * to see; it is never retried forever nor dropped silently.
 */
export async function pushChange(engine: Engine, client: UpstreamClient, identity: ReplicaIdentity, row: OutboxRow): Promise<PushOutcome> {
  const payload = JSON.parse(row.payload) as Record<string, unknown>;
  const request = requestFor(row, payload);
  const response = await client.call(request.method, request.path, {
    idempotencyKey: row.idempotency_key,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  if (retryable(response.status)) {
    return {
      kind: 'retry',
      delayMs: response.retryAfterMs,
      reason: `${request.method} ${request.path} answered ${response.status}`,
      unreachable: false,
    };
  }
  if (response.status >= 200 && response.status < 300) {
    engine.transaction(() => {
      engine.sync.sent(row.seq, engine.clock.now());
      acknowledge(engine, identity, row, response);
    });
    return { kind: 'sent' };
  }
  const upstreamState = await currentUpstreamState(client, row);
  engine.transaction(() => {
    const error = (response.body as UpstreamError | null)?.error ?? { code: 'unknown', message: `status ${response.status}` };
    engine.sync.conflict(row, { status: response.status, ...error }, upstreamState, engine.clock.now());
    resolveInFavourOfUpstream(engine, identity, row, upstreamState);
  });
  return { kind: 'conflict' };
}

function requestFor(row: OutboxRow, payload: Record<string, unknown>) {
  switch (row.kind) {
    case 'create_order':
      return { method: 'POST' as const, path: '/orders', body: payload };
    case 'transition_order':
      return { method: 'PATCH' as const, path: `/orders/${row.order_id}`, body: payload };
    case 'set_stock':
      return { method: 'PUT' as const, path: '/stock', body: payload };
    case 'set_location_open':
      return { method: 'POST' as const, path: `/locations/${row.location_id}/${payload.open ? 'open' : 'close'}`, body: undefined };
    case 'set_item_done':
      return { method: 'PUT' as const, path: `${itemStatesPath(row.order_id!)}/${Number(payload.item_index)}`, body: { done: payload.done } };
  }
}

function acknowledge(engine: Engine, identity: ReplicaIdentity, row: OutboxRow, response: UpstreamResponse): void {
  const test = identity.mode === 'test';
  if (row.kind === 'create_order') {
    const upstream = response.body as OrderView;
    const localId = row.order_id!;
    if (localId !== upstream.id) {
      engine.orders.rename(localId, upstream.id, upstream.number);
      engine.sync.alias(localId, upstream.id);
    }
    mirrorOrder(engine, identity.restaurantId, test, upstream, 'order.updated');
  } else if (row.kind === 'transition_order') {
    mirrorOrder(engine, identity.restaurantId, test, response.body as OrderView, 'order.updated');
  } else if (row.kind === 'set_location_open') {
    const status = response.body as LocationStatusView;
    mirrorLocation(engine, identity.restaurantId, status, 0, 'America/Santiago');
  }
}

/** What the upstream holds now for the refused change, to put in its place locally. */
async function currentUpstreamState(client: UpstreamClient, row: OutboxRow): Promise<unknown> {
  try {
    if (row.kind === 'transition_order') {
      const res = await client.call('GET', `/orders/${row.order_id}`);
      return res.status === 200 ? res.body : null;
    }
    if (row.kind === 'set_stock' && row.location_id) {
      const res = await client.call<UpstreamStock>('GET', `/stock?location_id=${row.location_id}`);
      return res.status === 200 ? res.body : null;
    }
    if (row.kind === 'set_location_open') {
      const res = await client.call('GET', '/locations');
      return res.status === 200 ? res.body : null;
    }
    if (row.kind === 'set_item_done' && row.order_id) {
      const res = await client.call('GET', itemStatesPath(row.order_id));
      return res.status === 200 ? res.body : null;
    }
  } catch {
    // The conflict is recorded all the same; the feed will bring the upstream's state.
  }
  return null;
}

function resolveInFavourOfUpstream(engine: Engine, identity: ReplicaIdentity, row: OutboxRow, upstreamState: unknown): void {
  const test = identity.mode === 'test';
  if (row.kind === 'create_order') {
    // The order does not exist upstream: it cannot stand here either. Cancelling gives back its stock.
    const order = row.order_id ? engine.orders.getById(row.order_id) : undefined;
    if (order && order.status !== 'cancelado' && order.status !== 'entregado') applyTransition(engine, order, 'cancelado');
    return;
  }
  if (row.kind === 'transition_order' && upstreamState) {
    mirrorOrder(engine, identity.restaurantId, test, upstreamState as OrderView, 'order.updated', { force: true });
    return;
  }
  if (row.kind === 'set_stock' && upstreamState && row.location_id) {
    mirrorStock(engine, identity.restaurantId, row.location_id, (upstreamState as UpstreamStock).data);
    return;
  }
  if (row.kind === 'set_item_done' && upstreamState && row.order_id) {
    mirrorItemStates(engine, row.order_id, upstreamState as UpstreamItemStates);
    return;
  }
  if (row.kind === 'set_location_open' && upstreamState) {
    const list = upstreamState as { data: LocationStatusView[] };
    for (const status of list.data) mirrorLocation(engine, identity.restaurantId, status, 0, 'America/Santiago');
  }
}
