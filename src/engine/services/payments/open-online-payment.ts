import { DateTime } from 'luxon';
import { callWithTimeout } from '../../adapters/call-with-timeout.ts';
import { ApiError } from '../../domain/errors.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import { paymentNotificationPath, paymentReturnPath } from '../../payments/payment-paths.ts';
import { paymentProviderFor, type OpenSessionRequest, type PaymentLink, type PaymentProviders } from '../../payments/payment-provider.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { PaymentSessionRow } from '../../store/payment-sessions-store.ts';
import type { RestaurantRow } from '../../store/restaurants-store.ts';
import { pendingMarker } from '../../domain/idempotency-record.ts';
import { errorText } from '../error-text.ts';
import { toOrderView, type OrderItemView, type OrderView } from '../orders/order-view.ts';
import { keptPromiseView } from '../kitchen/kitchen-promise.ts';
import { restoreStock } from '../orders/transition-order.ts';
import { worldOf } from '../../../shared/world.ts';

/** How long a payment provider may take to open a session (real time: it waits on the network). */
export const DEFAULT_PAYMENT_TIMEOUT_MS = 10_000;
/**
 * A session still `opening` this long after its order (engine clock) will never be answered: the
 * engine stopped while asking. Far beyond any timeout, so no call under way is pre-empted.
 */
const STALE_OPENING_MINUTES = 5;

export type OnlineOrderView = OrderView & { payment_link: PaymentLink };

const unavailable = (why: string) =>
  new ApiError('payment_unavailable', `online payment is not available right now: ${why}; no order was created, try again`);

/**
 * The second half of creating an online order, after the commit that wrote it (create-order.ts):
 * asks the provider to open the payment session, asynchronously, with a timeout, with no
 * transaction open. When it answers, one transaction records the session as opened and writes
 * the order's `order.created` event; the order with its `payment_link` is the 201. When it fails
 * or times out, another transaction withdraws the order (withdrawOnlineOrder) and this throws
 * 503 `payment_unavailable`, as when no provider is configured: no order is created.
 */
export async function openOnlinePayment(
  engine: Engine,
  payments: PaymentProviders,
  orderId: string,
  origin: string,
  timeoutMs = DEFAULT_PAYMENT_TIMEOUT_MS,
): Promise<OnlineOrderView> {
  const { order, session, restaurantRow } = await engine.read(async (tx) => {
    const order = await tx.stores.orders.getById(orderId);
    return { order, session: await tx.stores.paymentSessions.openingOfOrder(orderId), restaurantRow: order && await tx.stores.restaurants.get(order.restaurant_id) };
  });
  if (!order || !session) throw unavailable('the order was withdrawn while its payment was being opened');
  const provider = paymentProviderFor(payments, order.restaurant_id, worldOf(order.test));
  let paymentUrl: string;
  try {
    if (!provider || provider.name !== session.provider) throw new Error(`payment provider "${session.provider}" is not configured`);
    if (!restaurantRow) throw new Error(`restaurant ${order.restaurant_id} is gone`);
    const opened = await callWithTimeout(`payment provider "${provider.name}"`, timeoutMs, (signal) =>
      provider.openSession({ ...sessionRequest(order, session, restaurantRow, origin), signal }),
    );
    if (typeof opened?.payment_url !== 'string' || opened.payment_url.length === 0) {
      throw new Error(`payment provider "${provider.name}" answered without a payment_url`);
    }
    paymentUrl = opened.payment_url;
  } catch (error) {
    await withdrawOnlineOrder(engine, orderId);
    throw unavailable(`the payment provider could not open a session (${errorText(error)})`);
  }
  return await engine.transaction(async (tx) => {
    const current = await tx.stores.orders.getById(orderId);
    if (!current || !await tx.stores.paymentSessions.markOpened(session.id, engine.clock.now())) {
      throw unavailable('the order was withdrawn while its payment was being opened');
    }
    const restaurant = (await tx.stores.restaurants.get(current.restaurant_id))!;
    const promise = await keptPromiseView(engine, tx, current.id, restaurant.time_zone, engine.clock.now());
    const view = toOrderView(current, restaurant.time_zone);
    await tx.stores.events.append(current.restaurant_id, worldOf(current.test), 'order.created', engine.clock.now(), view);
    return { ...view, ...(promise ? { promise } : {}), payment_link: { payment_url: paymentUrl, session_id: session.id } };
  });
}

/** What a provider is asked to open, as plain data (payments/payment-provider.ts): lines, amounts, URLs, window. */
function sessionRequest(order: OrderRow, session: PaymentSessionRow, restaurant: RestaurantRow, origin: string): OpenSessionRequest {
  const items = JSON.parse(order.items) as OrderItemView[];
  const lines = items.map((item) => ({ name: item.name, quantity: item.quantity, unit_price: item.unit_price }));
  if (order.shipping_fee > 0) lines.push({ name: 'Despacho', quantity: 1, unit_price: order.shipping_fee });
  const created = DateTime.fromMillis(order.created_at, { zone: restaurant.time_zone });
  return {
    session_id: session.id,
    restaurant_id: order.restaurant_id,
    order_id: order.id,
    order_number: order.number,
    test: order.test === 1,
    lines,
    total: order.total,
    currency: 'CLP',
    customer_email: order.customer_email,
    return_url: session.return_url,
    back_urls: {
      success: `${origin}${paymentReturnPath(session.id, 'success')}`,
      failure: `${origin}${paymentReturnPath(session.id, 'failure')}`,
      pending: `${origin}${paymentReturnPath(session.id, 'pending')}`,
    },
    notification_url: `${origin}${paymentNotificationPath(session.provider, order.restaurant_id)}`,
    created_at: created.toISO()!,
    expires_at: created.plus({ minutes: restaurant.payment_timeout_minutes }).toISO()!,
    preselected_method: session.preselected_method as 'transferencia' | 'tarjeta' | null,
    origin,
  };
}

/**
 * The compensation of an online order whose provider never opened its session, in its own
 * transaction: its stock comes back (with `stock.updated`), and the order and its session are
 * removed. It was never announced (no `order.created`) and its client got a 503, so to
 * integrators it was never created, as api-v1-decisions.md says of `payment_unavailable`; its
 * number stays used. Also forgets an Idempotency-Key still waiting on it, so the key can be
 * retried. Does nothing to an order whose session was opened.
 */
export async function withdrawOnlineOrder(engine: Engine, orderId: string): Promise<boolean> {
  return await engine.transaction(async (tx) => {
    const order = await tx.stores.orders.getById(orderId);
    if (!order || !await tx.stores.paymentSessions.openingOfOrder(orderId)) return false;
    const now = engine.clock.now();
    if (order.stock_taken === 1) await restoreStock(engine, tx, order, now);
    await tx.stores.paymentSessions.deleteOfOrder(orderId);
    await tx.stores.orders.delete(orderId);
    await tx.stores.idempotency.removePending(pendingMarker(orderId));
    return true;
  });
}

/** Online orders whose provider was asked before the engine stopped, and never answered. */
export async function staleOnlinePaymentOpenings(engine: Engine, limit = 100, callerTx?: ReadTransaction): Promise<string[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    const cutoff = DateTime.fromMillis(engine.clock.now()).minus({ minutes: STALE_OPENING_MINUTES }).toMillis();
    return await tx.stores.paymentSessions.staleOpenings(cutoff, limit);
  });
}
