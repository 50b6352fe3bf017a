import { DateTime } from 'luxon';
import { canTransition } from '../../../shared/order-states.ts';
import { callWithTimeout } from '../../adapters/call-with-timeout.ts';
import type { CourierProvider, CourierStatus, CourierTracking } from '../../couriers/courier-provider.ts';
import type { Engine, ReadTransaction, WriteTransaction } from '../../engine.ts';
import type { CourierRegistry } from '../../couriers/courier-registry.ts';
import type { CourierDeliveryRow } from '../../store/courier-deliveries-store.ts';
import type { OrderChanges, OrderRow } from '../../store/orders-store.ts';
import {
  courierOf,
  DEFAULT_COURIER_TIMEOUT_MS,
  DISPATCH_FAILED,
  dispatchIdempotencyKey,
  dispatchRetryAt,
  noAdapterMessage,
  statusCheckAt,
} from './courier-dispatch.ts';
import { errorText } from '../error-text.ts';
import { refreshReadyMail } from '../mail/mail-outbox.ts';
import { applyOrderChanges, applyTransition } from '../orders/transition-order.ts';

const COURIER_STATUSES: readonly CourierStatus[] = ['pendiente', 'asignado', 'en_camino', 'entregado', 'cancelado'];
const FINAL: readonly CourierStatus[] = ['entregado', 'cancelado'];

/**
 * While a call is under way its row is not due before this (engine clock): a process that dies
 * mid-call leaves the work to be done again after it, never lost.
 */
const CALL_LEASE_MINUTES = 5;

export { DEFAULT_COURIER_TIMEOUT_MS };

/** Orders whose courier delivery is due now: a dispatch to perform or retry, a status check, a cancellation. */
export async function dueCourierDeliveries(engine: Engine, limit = 100, callerTx?: ReadTransaction): Promise<string[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await tx.stores.courierDeliveries.due(engine.clock.now(), limit);
  });
}

/** `claim`: the lease's end the claim set in `claimed_until`, the token its outcome is recorded under. */
type CourierWork =
  | { kind: 'dispatch'; courier: CourierProvider; order: OrderRow; row: CourierDeliveryRow; claim: number }
  | { kind: 'track'; courier: CourierProvider; order: OrderRow; row: CourierDeliveryRow & { delivery_id: string; dispatched_at: number }; claim: number }
  | { kind: 'cancel'; courier: CourierProvider; order: OrderRow; row: CourierDeliveryRow & { delivery_id: string }; claim: number };

/**
 * Takes one due courier delivery for one call, in its own transaction: decides what the courier
 * must be asked (dispatch, status, cancellation), leases the row for the call, and counts a
 * dispatch attempt. Null when nothing is to be asked (not due, finished, or settled here).
 */
async function claimCourierWork(engine: Engine, couriers: CourierRegistry, orderId: string): Promise<CourierWork | null> {
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const order = await tx.stores.orders.getById(orderId);
    // Issue 34: on PostgreSQL two nodes may claim the delivery at once. The order's restaurant's
    // clock row, held to the commit, puts their claims one after the other, and the row read after
    // it is the one the other claim committed (its lease ahead): never two courier calls.
    if (order) await tx.takeRestaurant(order.restaurant_id);
    const row = await tx.stores.courierDeliveries.get(orderId);
    if (!row || row.next_check_at === null || row.next_check_at > now) return null;
    // Issue 34: a call under way (this node's or another's) until its claim ends; a cancellation
    // moves next_check_at meanwhile, and is taken once that call's outcome is recorded.
    if (row.claimed_until !== null && row.claimed_until > now) return null;
    const done = async (lastError: string | null = row.last_error) => {
      await tx.stores.courierDeliveries.update(orderId, { next_check_at: null, last_error: lastError }, now);
      return null;
    };
    if (!order) return await done();
    const courier = courierOf(couriers, order);
    const lease = DateTime.fromMillis(now).plus({ minutes: CALL_LEASE_MINUTES }).toMillis();
    if (row.status === 'cancelado' || order.status === 'cancelado') {
      if (row.delivery_id === null) return await done();
      if (!courier) return await done(`cancelling with the courier failed: ${noAdapterMessage(row.provider)}`);
      await tx.stores.courierDeliveries.update(orderId, { status: 'cancelado', next_check_at: lease, claimed_until: lease }, now);
      return { kind: 'cancel', courier, order, row: { ...row, delivery_id: row.delivery_id }, claim: lease };
    }
    if (row.delivery_id === null) {
      // The kitchen moved on (its own rider took it): no courier is wanted any more.
      if (order.status !== 'listo') return await done(`dispatch abandoned: the order went to ${order.status} first`);
      if (!courier) {
        const attempts = row.attempts + 1;
        await tx.stores.courierDeliveries.update(
          orderId,
          { status: DISPATCH_FAILED, attempts, next_check_at: dispatchRetryAt(now, attempts), last_error: noAdapterMessage(row.provider) },
          now,
        );
        return null;
      }
      await tx.stores.courierDeliveries.update(orderId, { attempts: row.attempts + 1, next_check_at: lease, claimed_until: lease }, now);
      return { kind: 'dispatch', courier, order, row: { ...row, attempts: row.attempts + 1 }, claim: lease };
    }
    if (!courier) {
      await tx.stores.courierDeliveries.update(orderId, { next_check_at: statusCheckAt(now), last_error: noAdapterMessage(row.provider) }, now);
      return null;
    }
    if (row.dispatched_at === null) return await done('the delivery was never dispatched');
    await tx.stores.courierDeliveries.update(orderId, { next_check_at: lease, claimed_until: lease }, now);
    return { kind: 'track', courier, order, row: { ...row, delivery_id: row.delivery_id, dispatched_at: row.dispatched_at }, claim: lease };
  });
}

/**
 * One due courier delivery: what is to be asked is claimed in a transaction, the courier is
 * called with no transaction open (async, with a timeout), and its answer is recorded in another
 * transaction that looks at the order again (it may have been cancelled meanwhile). Dispatch
 * moves the delivery from requested to dispatched (`fallido` and a retry with backoff when the
 * courier fails); a status check moves the order with it (`en_camino` → `en_reparto`,
 * `entregado` → `entregado`); a cancellation is told to the courier. Running it again when
 * nothing is due does nothing.
 */
export async function followCourierDelivery(
  engine: Engine,
  couriers: CourierRegistry,
  orderId: string,
  timeoutMs = DEFAULT_COURIER_TIMEOUT_MS,
): Promise<void> {
  const work = await claimCourierWork(engine, couriers, orderId);
  if (!work) return;
  const at = engine.clock.now();
  const what = `courier "${work.row.provider}"`;
  switch (work.kind) {
    case 'dispatch': {
      const locationId = work.order.location_id;
      const location = locationId === null ? undefined : await engine.read(async (tx) => await tx.stores.locations.get(work.order.restaurant_id, locationId));
      let outcome: { deliveryId: string; trackingUrl: string | null } | { error: string };
      try {
        const dispatch = await callWithTimeout(`${what} (dispatch)`, timeoutMs, (signal) =>
          work.courier.dispatch({
            order_id: work.order.id,
            idempotency_key: dispatchIdempotencyKey(work.order.id),
            pickup: { lat: location?.latitude ?? null, lng: location?.longitude ?? null, address: location?.address ?? null },
            dropoff: { lat: null, lng: null, address: work.order.address },
            at,
            signal,
          }),
        );
        if (typeof dispatch?.delivery_id !== 'string' || dispatch.delivery_id.length === 0) {
          throw new Error(`${what} answered the dispatch without a delivery id`);
        }
        outcome = { deliveryId: dispatch.delivery_id, trackingUrl: typeof dispatch.tracking_url === 'string' ? dispatch.tracking_url : null };
      } catch (error) {
        outcome = { error: errorText(error) };
      }
      await recordDispatch(engine, orderId, work.claim, work.row.attempts, outcome);
      return;
    }
    case 'track': {
      let tracking: CourierTracking | { error: string };
      try {
        tracking = await callWithTimeout(`${what} (status)`, timeoutMs, (signal) =>
          work.courier.track({ delivery_id: work.row.delivery_id, order_id: work.order.id, dispatched_at: work.row.dispatched_at, at, signal }),
        );
        if (!COURIER_STATUSES.includes(tracking?.status)) {
          throw new Error(`${what} reported an unknown status ${JSON.stringify(tracking?.status)}`);
        }
      } catch (error) {
        tracking = { error: errorText(error) };
      }
      await recordTracking(engine, orderId, work.claim, work.row.delivery_id, tracking);
      return;
    }
    case 'cancel': {
      let lastError: string | null;
      try {
        const answer = await callWithTimeout(`${what} (cancel)`, timeoutMs, (signal) =>
          work.courier.cancel({ delivery_id: work.row.delivery_id, at, signal }),
        );
        lastError = answer?.cancelled ? null : `courier "${work.row.provider}" refused to cancel delivery ${work.row.delivery_id}`;
      } catch (error) {
        lastError = `cancelling with the courier failed: ${errorText(error)}`;
      }
      await engine.transaction(async (tx) => {
        const now = engine.clock.now();
        if (!(await stillClaimed(tx, orderId, work.claim))) return;
        // A refusal is final (the parcel was picked up); a failure to reach the courier is retried.
        const retry = lastError !== null && lastError.startsWith('cancelling with the courier failed');
        await tx.stores.courierDeliveries.update(orderId, { next_check_at: retry ? statusCheckAt(now) : null, last_error: lastError, claimed_until: null }, now);
      });
      return;
    }
  }
}

/**
 * Issue 34: whether the delivery still holds the claim `claim` (its fencing token), read after its
 * restaurant's clock row is taken, so no other claim or record of it is between the read and the
 * commit. A node that stalled past its lease, whose delivery another node has claimed since (and
 * called the courier for), records nothing: its late answer must not undo what the other recorded.
 */
async function stillClaimed(tx: WriteTransaction, orderId: string, claim: number): Promise<{ row: CourierDeliveryRow; order: OrderRow | undefined } | null> {
  const order = await tx.stores.orders.getById(orderId);
  if (order) await tx.takeRestaurant(order.restaurant_id);
  const row = await tx.stores.courierDeliveries.get(orderId);
  return row && row.claimed_until === claim ? { row, order } : null;
}

async function recordDispatch(
  engine: Engine,
  orderId: string,
  claim: number,
  attempts: number,
  outcome: { deliveryId: string; trackingUrl: string | null } | { error: string },
): Promise<void> {
  await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const claimed = await stillClaimed(tx, orderId, claim);
    if (!claimed) return;
    const { row, order } = claimed;
    if (!order) {
      await tx.stores.courierDeliveries.update(orderId, { next_check_at: null, claimed_until: null }, now);
      return;
    }
    const offTheTable = row.status === 'cancelado' || order.status !== 'listo';
    if ('error' in outcome) {
      if (offTheTable) {
        await tx.stores.courierDeliveries.update(orderId, { next_check_at: null, last_error: outcome.error, claimed_until: null }, now);
        return;
      }
      await tx.stores.courierDeliveries.update(
        orderId,
        { status: DISPATCH_FAILED, delivery_id: null, tracking_url: null, next_check_at: dispatchRetryAt(now, attempts), last_error: outcome.error, claimed_until: null },
        now,
      );
      await applyOrderChanges(engine, tx, order, { delivery_status: DISPATCH_FAILED, delivery_tracking_url: null });
      return;
    }
    if (offTheTable) {
      // Cancelled, or taken by the kitchen's own rider, while the courier was booking: call it off.
      await tx.stores.courierDeliveries.update(
        orderId,
        {
          status: 'cancelado',
          delivery_id: outcome.deliveryId,
          tracking_url: outcome.trackingUrl,
          dispatched_at: now,
          next_check_at: now,
          last_error: order.status === 'cancelado' ? null : `dispatch called off: the order went to ${order.status} first`,
          claimed_until: null,
        },
        now,
      );
      return;
    }
    await tx.stores.courierDeliveries.update(
      orderId,
      {
        status: 'pendiente',
        delivery_id: outcome.deliveryId,
        tracking_url: outcome.trackingUrl,
        dispatched_at: now,
        // Looked at on the next run, which learns from the courier when to look again.
        next_check_at: now,
        last_error: null,
        claimed_until: null,
      },
      now,
    );
    const updated = await applyOrderChanges(engine, tx, order, { delivery_status: 'pendiente', delivery_tracking_url: outcome.trackingUrl });
    await refreshReadyMail(engine, tx, updated, now);
  });
}

async function recordTracking(
  engine: Engine,
  orderId: string,
  claim: number,
  deliveryId: string,
  tracking: CourierTracking | { error: string },
): Promise<void> {
  await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const claimed = await stillClaimed(tx, orderId, claim);
    if (!claimed) return;
    const { row, order } = claimed;
    // Cancelled meanwhile: the cancellation's own work takes over, once this claim is let go.
    if (!order || row.delivery_id !== deliveryId || row.status === 'cancelado' || order.status === 'cancelado') {
      await tx.stores.courierDeliveries.update(orderId, { claimed_until: null }, now);
      return;
    }
    if ('error' in tracking) {
      await tx.stores.courierDeliveries.update(orderId, { next_check_at: statusCheckAt(now), last_error: tracking.error, claimed_until: null }, now);
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
    await tx.stores.courierDeliveries.update(orderId, { status, tracking_url: trackingUrl, next_check_at: nextCheck, last_error: null, claimed_until: null }, now);

    const delivery: OrderChanges = { delivery_status: status, delivery_tracking_url: trackingUrl };
    let current = order;
    // A pickup puts the order on its way; a delivery seen without the pickup first makes both steps.
    if ((status === 'en_camino' || status === 'entregado') && current.status === 'listo' && canTransition('listo', current.type, 'en_reparto')) {
      current = await applyTransition(engine, tx, current, 'en_reparto', { ...delivery, delivery_status: 'en_camino' });
    }
    if (status === 'entregado' && current.status === 'en_reparto') {
      await applyTransition(engine, tx, current, 'entregado', delivery);
      return;
    }
    await applyOrderChanges(engine, tx, current, delivery);
  });
}
