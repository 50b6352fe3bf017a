import { DateTime } from 'luxon';
import { courierFor, type CourierRegistry } from '../../couriers/courier-registry.ts';
import type { CourierProvider } from '../../couriers/courier-provider.ts';
import type { Engine, WriteTransaction } from '../../engine.ts';
import type { CourierDeliveryRow } from '../../store/courier-deliveries-store.ts';
import type { OrderChanges, OrderRow } from '../../store/orders-store.ts';

/** Own riders: no courier is dispatched, the kitchen moves the order itself. */
export const OWN_DELIVERY_PROVIDER = 'propio';

/**
 * `delivery.status` of an order whose courier could not be dispatched (additive to the decisions'
 * values): the order stays `listo`, and the dispatch is retried with backoff while it does.
 */
export const DISPATCH_FAILED = 'fallido';

/** Dispatch retries: 30 s after the first failure, doubling, at most every 10 minutes. */
const RETRY_FIRST_SECONDS = 30;
const RETRY_MAX_SECONDS = 10 * 60;
/** How long a courier call may take before it counts as failed (real time: it waits on the network). */
export const DEFAULT_COURIER_TIMEOUT_MS = 10_000;
/** How often a dispatched delivery's status is asked for, unless the courier says when it changes. */
const STATUS_CHECK_SECONDS = 30;

export function isCourierDelivery(order: OrderRow): boolean {
  return order.type === 'delivery' && order.delivery_provider !== null && order.delivery_provider !== OWN_DELIVERY_PROVIDER;
}

/** When a failed dispatch is tried again after `attempts` failed attempts. */
export function dispatchRetryAt(now: number, attempts: number): number {
  const seconds = Math.min(RETRY_FIRST_SECONDS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_SECONDS);
  return DateTime.fromMillis(now).plus({ seconds }).toMillis();
}

export function statusCheckAt(now: number): number {
  return DateTime.fromMillis(now).plus({ seconds: STATUS_CHECK_SECONDS }).toMillis();
}

/** The adapter among this engine's couriers (Providers.couriers) that carries `order`, if any. */
export function courierOf(couriers: CourierRegistry, order: OrderRow): CourierProvider | undefined {
  return order.delivery_provider === null ? undefined : courierFor(couriers, order.delivery_provider, order.test === 1);
}

/** What the courier API gets as its idempotency key: one per order, the same for every attempt. */
export function dispatchIdempotencyKey(orderId: string): string {
  return `comanda-dispatch-${orderId}`;
}

export const noAdapterMessage = (provider: string) => `no courier adapter named "${provider}" is configured in this engine`;

/**
 * The dispatch intent, written in the transaction of the `listo` transition: a `courier_deliveries`
 * row due now, which the jobs runner performs outside any transaction (follow-courier-deliveries.ts).
 * The order's delivery is `pendiente` (dispatch requested) meanwhile. A provider this engine has
 * no adapter for fails at once (`fallido`, retried with backoff): nothing outside is asked for that.
 */
export async function requestCourierDispatch(engine: Engine, tx: WriteTransaction, couriers: CourierRegistry, order: OrderRow, now: number): Promise<OrderChanges> {
  const existing = await tx.stores.courierDeliveries.get(order.id);
  // Already requested or on its way (a repeated call): nothing to do. A claim under way (issue 34)
  // keeps its token: its outcome is recorded against the row as re-requested here.
  if (existing && existing.status !== DISPATCH_FAILED && existing.status !== 'cancelado') return {};
  const provider = order.delivery_provider!;
  const attempts = existing?.attempts ?? 0;
  const fields: Omit<CourierDeliveryRow, 'order_id' | 'provider' | 'claimed_until' | 'created_at' | 'updated_at'> = courierOf(couriers, order)
    ? { status: 'pendiente', delivery_id: null, tracking_url: null, attempts, next_check_at: now, last_error: null, dispatched_at: null }
    : {
        status: DISPATCH_FAILED,
        delivery_id: null,
        tracking_url: null,
        attempts: attempts + 1,
        next_check_at: dispatchRetryAt(now, attempts + 1),
        last_error: noAdapterMessage(provider),
        dispatched_at: null,
      };
  if (existing) await tx.stores.courierDeliveries.update(order.id, fields, now);
  else await tx.stores.courierDeliveries.insert({ order_id: order.id, provider, ...fields, claimed_until: null, created_at: now, updated_at: now });
  return { delivery_status: fields.status, delivery_tracking_url: null };
}

/**
 * The cancellation intent, in the transaction that cancels the order: a dispatched delivery is
 * marked `cancelado` and left due, so the jobs runner tells the courier. One not dispatched yet
 * (requested, failed, or with its dispatch under way) needs nobody told now; a dispatch that
 * answers after this is called off by the runner when it records it.
 */
export async function requestCourierCancellation(engine: Engine, tx: WriteTransaction, order: OrderRow, now: number): Promise<void> {
  const row = await tx.stores.courierDeliveries.get(order.id);
  if (!row || row.status === 'entregado' || row.status === 'cancelado') return;
  await tx.stores.courierDeliveries.update(order.id, { status: 'cancelado', next_check_at: row.delivery_id === null ? null : now }, now);
}
