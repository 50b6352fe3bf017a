import { canTransition } from '../../shared/order-states.ts';
import type { CourierStatus, CourierTracking } from '../couriers/courier-provider.ts';
import type { Engine } from '../engine.ts';
import type { CourierDeliveryRow } from '../store/courier-deliveries-store.ts';
import type { OrderChanges, OrderRow } from '../store/orders-store.ts';
import { courierOf, DISPATCH_FAILED, dispatchCourier, statusCheckAt } from './courier-dispatch.ts';
import { errorText } from './error-text.ts';
import { applyOrderChanges, applyTransition } from './transition-order.ts';

const COURIER_STATUSES: readonly CourierStatus[] = ['pendiente', 'asignado', 'en_camino', 'entregado', 'cancelado'];
const FINAL: readonly CourierStatus[] = ['entregado', 'cancelado'];

/** Orders whose courier delivery is due for a dispatch retry or a status check now. */
export function dueCourierDeliveries(engine: Engine, limit = 100): string[] {
  return engine.courierDeliveries.due(engine.clock.now(), limit);
}

/**
 * One due courier delivery, in its own transaction: retries a failed dispatch while the order is
 * `listo`, or asks the courier for its status and moves the order with it (`en_camino` →
 * `en_reparto`, `entregado` → `entregado`). Running it again when nothing is due does nothing.
 */
export function followCourierDelivery(engine: Engine, orderId: string): void {
  engine.transaction(() => {
    const now = engine.clock.now();
    const row = engine.courierDeliveries.get(orderId);
    if (!row || row.next_check_at === null || row.next_check_at > now) return;
    const order = engine.orders.getById(orderId);
    if (!order || order.status === 'cancelado') {
      engine.courierDeliveries.update(orderId, { next_check_at: null }, now);
      return;
    }
    if (row.status === DISPATCH_FAILED) retryDispatch(engine, order, now);
    else trackDelivery(engine, order, row, now);
  });
}

function retryDispatch(engine: Engine, order: OrderRow, now: number): void {
  if (order.status !== 'listo') {
    // The kitchen moved on (its own rider took it): no courier is wanted any more.
    engine.courierDeliveries.update(
      order.id,
      { next_check_at: null, last_error: `dispatch abandoned: the order went to ${order.status} first` },
      now,
    );
    return;
  }
  applyOrderChanges(engine, order, dispatchCourier(engine, order, now));
}

function trackDelivery(engine: Engine, order: OrderRow, row: CourierDeliveryRow, now: number): void {
  let tracking: CourierTracking;
  try {
    const courier = courierOf(engine, order);
    if (!courier) throw new Error(`no courier adapter named "${row.provider}" is configured in this engine`);
    if (row.delivery_id === null || row.dispatched_at === null) throw new Error('the delivery was never dispatched');
    tracking = courier.track({ delivery_id: row.delivery_id, order_id: order.id, dispatched_at: row.dispatched_at, at: now });
    if (!COURIER_STATUSES.includes(tracking?.status)) {
      throw new Error(`courier "${row.provider}" reported an unknown status ${JSON.stringify(tracking?.status)}`);
    }
  } catch (error) {
    engine.courierDeliveries.update(order.id, { next_check_at: statusCheckAt(now), last_error: errorText(error) }, now);
    return;
  }

  const status = tracking.status;
  const trackingUrl = tracking.tracking_url === undefined ? row.tracking_url : tracking.tracking_url;
  const pollAt = statusCheckAt(now);
  const nextUpdate = tracking.next_update_at;
  const nextCheck = FINAL.includes(status)
    ? null
    : typeof nextUpdate === 'number' && nextUpdate > now
      ? Math.min(nextUpdate, pollAt)
      : pollAt;
  engine.courierDeliveries.update(order.id, { status, tracking_url: trackingUrl, next_check_at: nextCheck, last_error: null }, now);

  const delivery: OrderChanges = { delivery_status: status, delivery_tracking_url: trackingUrl };
  let current = order;
  // A pickup puts the order on its way; a delivery seen without the pickup first makes both steps.
  if ((status === 'en_camino' || status === 'entregado') && current.status === 'listo' && canTransition('listo', current.type, 'en_reparto')) {
    current = applyTransition(engine, current, 'en_reparto', { ...delivery, delivery_status: 'en_camino' });
  }
  if (status === 'entregado' && current.status === 'en_reparto') {
    current = applyTransition(engine, current, 'entregado', delivery);
    return;
  }
  applyOrderChanges(engine, current, delivery);
}
