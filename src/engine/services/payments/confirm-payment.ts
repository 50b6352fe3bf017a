import { DateTime } from 'luxon';
import { invalidRequest } from '../../domain/errors.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import {
  ONLINE_PAYMENT_METHODS,
  PAYMENT_RESULTS,
  type OnlinePaymentMethod,
  type PaymentConfirmation,
} from '../../payments/payment-provider.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { PaymentClosedReason, PaymentResult, PaymentSessionRow } from '../../store/payment-sessions-store.ts';
import type { OrderItemView } from '../orders/order-view.ts';
import { applyTransition } from '../orders/transition-order.ts';

/** Where a session stands, as its payment page and the redirect to `return_url` tell it. */
export type PaymentSessionState =
  | { kind: 'open'; lastResult: Exclude<PaymentResult, 'success'> | null }
  | { kind: 'paid'; method: string | null }
  | { kind: 'closed'; reason: PaymentClosedReason };

export interface PaymentOutcome {
  session: PaymentSessionRow;
  order: OrderRow;
  state: PaymentSessionState;
  /** False when the confirmation changed nothing (a replay, a double submit, a closed session). */
  changed: boolean;
}

function stateOf(session: PaymentSessionRow, order: OrderRow): PaymentSessionState {
  if (session.status === 'paid') return { kind: 'paid', method: session.paid_method };
  if (session.status === 'closed') return { kind: 'closed', reason: session.closed_reason ?? 'cancelled' };
  // An open session of an order that is no longer waiting for it can never be paid.
  if (order.status !== 'pendiente_pago') return { kind: 'closed', reason: 'cancelled' };
  return { kind: 'open', lastResult: session.last_result === 'success' ? null : session.last_result };
}

function checkConfirmation(confirmation: PaymentConfirmation): void {
  if (!PAYMENT_RESULTS.includes(confirmation.result)) {
    throw invalidRequest(`result must be one of: ${PAYMENT_RESULTS.join(', ')}`);
  }
  if (confirmation.result === 'success' && !ONLINE_PAYMENT_METHODS.includes(confirmation.method as OnlinePaymentMethod)) {
    throw invalidRequest(`method must be one of: ${ONLINE_PAYMENT_METHODS.join(', ')} for a successful payment`);
  }
}

/**
 * Applies a provider's confirmation of a payment session, in one transaction. A success on an
 * open session pays the order: `recibido` (or `programado` when scheduled), `payment.paid = true`,
 * the method paid with, an `order.updated` event. A failure or an abandonment is recorded and
 * leaves the order `pendiente_pago` with its session open. A replay, or anything arriving after
 * the session was paid or closed (expired, cancelled), changes nothing: an order is never revived.
 * Returns null for an unknown session.
 */
export async function confirmPayment(engine: Engine, confirmation: PaymentConfirmation, tx?: WriteTransaction): Promise<PaymentOutcome | null> {
  checkConfirmation(confirmation);
  return await engine.within(tx, async (tx) => {
    const now = engine.clock.now();
    const session = await tx.stores.paymentSessions.get(confirmation.session_id);
    if (!session) return null;
    const order = await tx.stores.orders.getById(session.order_id);
    if (!order) return null;
    const state = stateOf(session, order);
    if (state.kind !== 'open') return { session, order, state, changed: false };

    if (confirmation.result !== 'success') {
      await tx.stores.paymentSessions.recordResult(session.id, confirmation.result, now);
      const after = (await tx.stores.paymentSessions.get(session.id))!;
      return { session: after, order, state: { kind: 'open', lastResult: confirmation.result }, changed: true };
    }
    const method = confirmation.method!;
    await tx.stores.paymentSessions.markPaid(session.id, method, now);
    const target = order.scheduled_for !== null ? 'programado' : 'recibido';
    const paid = await applyTransition(engine, tx, order, target, { paid: 1, payment_method: method });
    const after = (await tx.stores.paymentSessions.get(session.id))!;
    return { session: after, order: paid, state: { kind: 'paid', method }, changed: true };
  });
}

/** What a payment page shows about its session and order. */
export interface PaymentSessionView {
  session: PaymentSessionRow;
  state: PaymentSessionState;
  test: boolean;
  restaurantName: string;
  locationName: string | null;
  orderId: string;
  orderNumber: string;
  orderType: 'delivery' | 'retiro';
  items: { name: string; quantity: number; unit_price: number; modifiers: string[] }[];
  shippingFee: number;
  total: number;
  /** Local time (HH:mm, the restaurant's zone) at which an unpaid order is cancelled. */
  payBefore: string;
  paymentTimeoutMinutes: number;
}

/** Reads a payment session for its page; null for an unknown one. */
export async function readPaymentSession(engine: Engine, sessionId: string, callerTx?: ReadTransaction): Promise<PaymentSessionView | null> {
  return await engine.readWithin(callerTx, async (tx) => {
    const session = await tx.stores.paymentSessions.get(sessionId);
    if (!session) return null;
    const order = await tx.stores.orders.getById(session.order_id);
    if (!order) return null;
    const restaurant = await tx.stores.restaurants.get(order.restaurant_id);
    if (!restaurant) return null;
    const location = order.location_id === null ? undefined : await tx.stores.locations.get(restaurant.id, order.location_id);
    const payBefore = DateTime.fromMillis(order.created_at, { zone: restaurant.time_zone })
      .plus({ minutes: restaurant.payment_timeout_minutes })
      .toFormat('HH:mm');
    return {
      session,
      state: stateOf(session, order),
      test: order.test === 1,
      restaurantName: restaurant.name,
      locationName: location?.name ?? null,
      orderId: order.id,
      orderNumber: order.number,
      orderType: order.type,
      items: (JSON.parse(order.items) as OrderItemView[]).map((item) => ({
        name: item.name,
        quantity: item.quantity,
        unit_price: item.unit_price,
        modifiers: item.modifiers.map((m) => m.name ?? '').filter((name) => name.length > 0),
      })),
      shippingFee: order.shipping_fee,
      total: order.total,
      payBefore,
      paymentTimeoutMinutes: restaurant.payment_timeout_minutes,
    };
  });
}

/** `return_url` with `order_id` and `payment` (success, failed, pending or cancelled) added to its query. */
export function returnUrlWith(returnUrl: string, orderId: string, payment: 'success' | 'failed' | 'pending' | 'cancelled'): string {
  const url = new URL(returnUrl);
  url.searchParams.set('order_id', orderId);
  url.searchParams.set('payment', payment);
  return url.toString();
}
