import type { Engine } from '../engine/engine.ts';
import { recordRefusal, recordStockClash } from '../engine/services/replica/replica-outbox.ts';
import type { OutboxRow } from '../engine/store/sync-store.ts';
import type { ReplicaIdentity } from './first-pull.ts';
import type { UpstreamClient, UpstreamResponse } from './upstream-client.ts';
import type { UpstreamError, UpstreamStock } from './upstream-types.ts';
import { itemStatesPath, recallPath } from './kitchen-sync.ts';

export type PushOutcome =
  /** The upstream took it: `recordAnswers` (services/replica/replica-outbox.ts) marks it sent and mirrors the answer. */
  | { kind: 'answered'; row: OutboxRow; response: UpstreamResponse }
  | { kind: 'conflict' }
  /** Not delivered; try the same change again (same Idempotency-Key) after `delayMs` or a backoff. */
  | { kind: 'retry'; delayMs: number | null; reason: string; unreachable: boolean };

const retryable = (status: number) => status >= 500 || status === 429 || status === 401 || status === 408;

/**
 * Sends one outbox change upstream with its own Idempotency-Key (so a resend after a lost answer
 * is answered with the first result, never applied twice). An answer taken is recorded by the
 * caller with `recordAnswers` (several in one transaction); until then the change is still pending,
 * and a crash resends it with the same key. A refusal is a conflict, recorded here: the upstream's
 * state wins locally and both sides are kept for the kitchen to see; it is never retried forever
 * nor dropped silently.
 */
export async function sendChange(engine: Engine, client: UpstreamClient, identity: ReplicaIdentity, row: OutboxRow): Promise<PushOutcome> {
  const payload = JSON.parse(row.payload) as Record<string, unknown>;
  if (row.kind === 'set_stock') {
    const checked = await checkStockBase(engine, client, identity, row, payload as unknown as StockPayload);
    if (checked.kind !== 'go') return checked.outcome;
    row = checked.row;
  }
  const request = requestFor(row, JSON.parse(row.payload) as Record<string, unknown>);
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
  if (response.status >= 200 && response.status < 300) return { kind: 'answered', row, response };
  // Refused: the conflict is recorded now; the upstream's state, which wins here, is read after it
  // with retries (resolve-conflicts.ts), never only once: a failed read must not leave this side
  // holding the refused change while the feed has already delivered the upstream's state.
  const error = (response.body as UpstreamError | null)?.error ?? { code: 'unknown', message: `status ${response.status}` };
  await recordRefusal(engine, identity, row, { status: response.status, code: error.code, message: error.message });
  return { kind: 'conflict' };
}

/** A stock write as queued: the quantities set, and what they replaced (absent in rows queued before it was kept). */
interface StockPayload {
  location_id: string;
  items: { product_id: string; quantity: number }[];
  replaced?: { product_id: string; quantity: number }[];
}

/**
 * A stock write carries the quantities it replaced. Before it is sent, the upstream's are read: a
 * product the upstream changed meanwhile (neither the replaced quantity nor ours) is a concurrent
 * change, recorded as a conflict, and the upstream's quantity stands here; only the other products
 * are sent. Without this, the later upstream write would be overwritten with no trace.
 */
async function checkStockBase(
  engine: Engine,
  client: UpstreamClient,
  identity: ReplicaIdentity,
  row: OutboxRow,
  payload: StockPayload,
): Promise<{ kind: 'go'; row: OutboxRow } | { kind: 'done'; outcome: PushOutcome }> {
  if (!payload.replaced || !row.location_id) return { kind: 'go', row };
  const path = `/stock?location_id=${row.location_id}`;
  const response = await client.call<UpstreamStock>('GET', path);
  if (response.status !== 200) {
    return { kind: 'done', outcome: { kind: 'retry', delayMs: response.retryAfterMs, reason: `GET ${path} answered ${response.status}`, unreachable: false } };
  }
  const upstream = new Map(response.body.data.map((entry) => [entry.product_id, entry.quantity]));
  const replaced = new Map(payload.replaced.map((entry) => [entry.product_id, entry.quantity]));
  const clashing = payload.items.filter((item) => {
    const there = upstream.get(item.product_id);
    const before = replaced.get(item.product_id);
    // Equal to ours: this very write got through before (its answer was lost), or both agree.
    return there !== undefined && before !== undefined && there !== before && there !== item.quantity;
  });
  if (clashing.length === 0) return { kind: 'go', row };
  const keep = payload.items.filter((item) => !clashing.includes(item));
  const locationId = row.location_id;
  const rest: StockPayload = { location_id: payload.location_id, items: keep, replaced: payload.replaced.filter((r) => keep.some((k) => k.product_id === r.product_id)) };
  const error = {
    status: 409,
    code: 'stock_changed_upstream',
    message: 'the platform changed this stock after the kitchen last read it; the platform quantity stands',
  };
  await recordStockClash(engine, identity, { ...row, location_id: locationId }, {
    localChange: JSON.stringify({ location_id: payload.location_id, items: clashing, replaced: clashing.map((c) => ({ product_id: c.product_id, quantity: replaced.get(c.product_id) })) }),
    refusal: error,
    upstreamState: response.body,
    upstream: clashing.map((c) => ({ product_id: c.product_id, quantity: upstream.get(c.product_id)! })),
    rest: keep.length === 0 ? null : JSON.stringify(rest),
  });
  if (keep.length === 0) return { kind: 'done', outcome: { kind: 'conflict' } };
  return { kind: 'go', row: { ...row, payload: JSON.stringify(rest) } };
}

function requestFor(row: OutboxRow, payload: Record<string, unknown>) {
  switch (row.kind) {
    case 'create_order':
      return { method: 'POST' as const, path: '/orders', body: payload };
    case 'transition_order':
      return { method: 'PATCH' as const, path: `/orders/${row.order_id}`, body: payload };
    case 'set_stock':
      // What it replaced stays here: the API takes the quantities only.
      return { method: 'PUT' as const, path: '/stock', body: { location_id: payload.location_id, items: payload.items } };
    case 'set_sold_out':
      return { method: 'PUT' as const, path: '/sold-out', body: { location_id: payload.location_id, items: payload.items } };
    case 'set_location_open':
      return { method: 'POST' as const, path: `/locations/${row.location_id}/${payload.open ? 'open' : 'close'}`, body: undefined };
    case 'set_item_done':
      return { method: 'PUT' as const, path: `${itemStatesPath(row.order_id!)}/${Number(payload.item_index)}`, body: { done: payload.done } };
    case 'recall_order':
      return { method: 'POST' as const, path: recallPath(row.order_id!), body: { recalled_until: payload.recalled_until } };
  }
}

/**
 * What the upstream holds now for the refused change, to put in its place locally; null when there
 * is nothing to read (the order is gone upstream). Throws when it cannot be read now (the caller retries).
 */
export async function readUpstreamState(client: UpstreamClient, row: Pick<OutboxRow, 'kind' | 'order_id' | 'location_id'>): Promise<unknown> {
  const path =
    row.kind === 'transition_order' && row.order_id
      ? `/orders/${row.order_id}`
      : row.kind === 'set_stock' && row.location_id
        ? `/stock?location_id=${row.location_id}`
        : row.kind === 'set_location_open'
          ? '/locations'
          : row.kind === 'set_item_done' && row.order_id
            ? itemStatesPath(row.order_id)
            : null;
  if (path === null) return null;
  const response = await client.call('GET', path);
  if (response.status === 404 && row.kind !== 'set_location_open') return null;
  if (response.status !== 200) throw new UpstreamStateUnread(`GET ${path} answered ${response.status}`);
  return response.body;
}

/** The upstream answered, but not with the state (a 5xx, a 429): read it again later. */
class UpstreamStateUnread extends Error {
  override readonly name = 'UpstreamStateUnread';
}
