import { DateTime } from 'luxon';
import { courierFor } from '../couriers/courier-registry.ts';
import type { CourierProvider } from '../couriers/courier-provider.ts';
import type { Engine } from '../engine.ts';
import type { CourierDeliveryRow } from '../store/courier-deliveries-store.ts';
import type { OrderChanges, OrderRow } from '../store/orders-store.ts';
import { errorText } from './error-text.ts';

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
/** How often a dispatched delivery's status is asked for, unless the courier says when it changes. */
export const STATUS_CHECK_SECONDS = 30;

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

export function courierOf(engine: Engine, order: OrderRow): CourierProvider | undefined {
  return order.delivery_provider === null ? undefined : courierFor(engine.couriers, order.delivery_provider, order.test === 1);
}

/**
 * Asks the order's courier to carry it and records the delivery (or the failure) in the
 * `courier_deliveries` row; returns the order's new delivery fields. Runs inside the transaction
 * of the `listo` transition or of a retry: a courier that throws never aborts it.
 */
export function dispatchCourier(engine: Engine, order: OrderRow, now: number): OrderChanges {
  const existing = engine.courierDeliveries.get(order.id);
  // Already on its way (a repeated call): nothing to do.
  if (existing && existing.status !== DISPATCH_FAILED && existing.status !== 'cancelado') return {};
  const attempts = (existing?.attempts ?? 0) + 1;
  const provider = order.delivery_provider!;
  let outcome: { deliveryId: string; trackingUrl: string | null } | { error: string };
  try {
    const courier = courierOf(engine, order);
    if (!courier) throw new Error(`no courier adapter named "${provider}" is configured in this engine`);
    const location = order.location_id === null ? undefined : engine.locations.get(order.restaurant_id, order.location_id);
    const dispatch = courier.dispatch({
      order_id: order.id,
      pickup: { lat: location?.latitude ?? null, lng: location?.longitude ?? null, address: location?.address ?? null },
      dropoff: { lat: null, lng: null, address: order.address },
      at: now,
    });
    if (typeof dispatch?.delivery_id !== 'string' || dispatch.delivery_id.length === 0) {
      throw new Error(`courier "${provider}" answered the dispatch without a delivery id`);
    }
    outcome = { deliveryId: dispatch.delivery_id, trackingUrl: typeof dispatch.tracking_url === 'string' ? dispatch.tracking_url : null };
  } catch (error) {
    outcome = { error: errorText(error) };
  }

  const fields: Omit<CourierDeliveryRow, 'order_id' | 'provider' | 'created_at' | 'updated_at'> =
    'error' in outcome
      ? {
          status: DISPATCH_FAILED,
          delivery_id: null,
          tracking_url: null,
          attempts,
          next_check_at: dispatchRetryAt(now, attempts),
          last_error: outcome.error,
          dispatched_at: null,
        }
      : {
          status: 'pendiente',
          delivery_id: outcome.deliveryId,
          tracking_url: outcome.trackingUrl,
          attempts,
          // Looked at on the next run, which learns from the courier when to look again.
          next_check_at: now,
          last_error: null,
          dispatched_at: now,
        };
  if (existing) engine.courierDeliveries.update(order.id, fields, now);
  else engine.courierDeliveries.insert({ order_id: order.id, provider, ...fields, created_at: now, updated_at: now });
  return { delivery_status: fields.status, delivery_tracking_url: fields.tracking_url };
}

/**
 * Calls off the courier delivery of an order being cancelled, inside that transaction. The order
 * is cancelled whatever the courier answers; a refusal or an error is kept in `last_error`.
 */
export function cancelCourierDelivery(engine: Engine, order: OrderRow, now: number): void {
  const row = engine.courierDeliveries.get(order.id);
  if (!row || row.status === 'entregado' || row.status === 'cancelado') return;
  let lastError: string | null = row.last_error;
  if (row.status !== DISPATCH_FAILED && row.delivery_id !== null) {
    try {
      const courier = courierOf(engine, order);
      if (!courier) throw new Error(`no courier adapter named "${row.provider}" is configured in this engine`);
      const answer = courier.cancel({ delivery_id: row.delivery_id, at: now });
      lastError = answer.cancelled ? null : `courier "${row.provider}" refused to cancel delivery ${row.delivery_id}`;
    } catch (error) {
      lastError = `cancelling with the courier failed: ${errorText(error)}`;
    }
  }
  engine.courierDeliveries.update(order.id, { status: 'cancelado', next_check_at: null, last_error: lastError }, now);
}
