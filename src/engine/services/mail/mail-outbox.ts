import { DateTime } from 'luxon';
import { DEFAULT_TIME_ZONE, formatInstant, formatNullableInstant } from '../../domain/time.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import { composeReadyMail } from '../../mail/compose-ready-mail.ts';
import type { MailRow, MailStatus } from '../../store/mail-outbox-store.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { OrderItemView } from '../orders/order-view.ts';
import { errorText } from '../error-text.ts';

/** Retries: 1 minute after the first failure, doubling, at most hourly; given up after 12 attempts (about 7 h). */
const RETRY_FIRST_MINUTES = 1;
const RETRY_MAX_MINUTES = 60;
const MAX_MAIL_ATTEMPTS = 12;
/** How long one attempt holds a mail: a sender that dies mid-attempt leaves it to be retried after this. */
const ATTEMPT_LEASE_MINUTES = 5;

async function readyMailOf(engine: Engine, tx: WriteTransaction, order: OrderRow) {
  const restaurant = await tx.stores.restaurants.get(order.restaurant_id);
  if (!restaurant) return null;
  const location = order.location_id === null ? undefined : await tx.stores.locations.get(order.restaurant_id, order.location_id);
  const items = (JSON.parse(order.items) as OrderItemView[]).map((i) => ({ name: i.name, quantity: i.quantity }));
  const mail = composeReadyMail({
    restaurantName: restaurant.name,
    orderNumber: order.number,
    customerName: order.customer_name,
    type: order.type,
    locationName: location?.name ?? null,
    locationAddress: location?.address ?? null,
    address: order.address,
    deliveryProvider: order.delivery_provider,
    trackingUrl: order.delivery_tracking_url,
    items,
    total: order.total,
    test: order.test === 1,
  });
  return { restaurant, mail };
}

/**
 * Queues the "your order is ready" mail when the customer left an email, inside the transaction of
 * the `listo` transition. Sandbox orders' mails are recorded and never sent.
 */
export async function queueReadyMail(engine: Engine, tx: WriteTransaction, order: OrderRow, now: number): Promise<void> {
  const to = order.customer_email?.trim();
  if (!to) return;
  const composed = await readyMailOf(engine, tx, order);
  if (!composed) return;
  await tx.stores.mailOutbox.enqueue({
    restaurant_id: order.restaurant_id,
    order_id: order.id,
    kind: 'order_ready',
    test: order.test,
    to_address: to,
    from_name: composed.restaurant.name,
    subject: composed.mail.subject,
    body_text: composed.mail.text,
    status: order.test === 1 ? 'sandbox' : 'pending',
    created_at: now,
  });
}

/**
 * The courier's tracking page became known after the `listo` mail was queued (the courier is
 * called after that commit): the mail, if no attempt has taken it yet, now carries the link.
 */
export async function refreshReadyMail(engine: Engine, tx: WriteTransaction, order: OrderRow, now: number): Promise<void> {
  if (!order.customer_email?.trim()) return;
  const composed = await readyMailOf(engine, tx, order);
  if (composed) await tx.stores.mailOutbox.rewriteUnsent(order.id, 'order_ready', composed.mail.subject, composed.mail.text, now);
}

/** Ids of the mails due for an attempt now, oldest first. */
export async function dueMail(engine: Engine, limit: number, callerTx?: ReadTransaction): Promise<number[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await tx.stores.mailOutbox.due(engine.clock.now(), limit);
  });
}

/** Takes a due mail for one attempt (counted and leased in its own transaction); null when no longer due. */
export async function claimMail(engine: Engine, id: number): Promise<MailRow | null> {
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const leaseUntil = DateTime.fromMillis(now).plus({ minutes: ATTEMPT_LEASE_MINUTES }).toMillis();
    if (!await tx.stores.mailOutbox.claim(id, now, leaseUntil)) return null;
    return await tx.stores.mailOutbox.get(id) ?? null;
  });
}

export async function recordMailSent(engine: Engine, id: number): Promise<void> {
  await engine.transaction(async (tx) => await tx.stores.mailOutbox.markSent(id, engine.clock.now()));
}

/** Schedules the next attempt with backoff, or gives up after MAX_MAIL_ATTEMPTS; says which. */
export async function recordMailFailure(engine: Engine, id: number, error: unknown): Promise<'retry' | 'failed'> {
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const mail = await tx.stores.mailOutbox.get(id);
    const attempts = mail?.attempts ?? MAX_MAIL_ATTEMPTS;
    const message = errorText(error);
    if (attempts >= MAX_MAIL_ATTEMPTS) {
      await tx.stores.mailOutbox.markFailed(id, `${message} (gave up after ${attempts} attempts)`, now);
      return 'failed';
    }
    const minutes = Math.min(RETRY_FIRST_MINUTES * 2 ** (attempts - 1), RETRY_MAX_MINUTES);
    await tx.stores.mailOutbox.scheduleRetry(id, DateTime.fromMillis(now).plus({ minutes }).toMillis(), message, now);
    return 'retry';
  });
}

/** A queued or sent mail as the app shows it (settings, status bar). */
export interface OutboxMailView {
  id: number;
  order_id: string;
  kind: string;
  test: boolean;
  to: string;
  subject: string;
  text: string;
  status: MailStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

function toMailView(row: MailRow, timeZone: string): OutboxMailView {
  return {
    id: row.id,
    order_id: row.order_id,
    kind: row.kind,
    test: row.test === 1,
    to: row.to_address,
    subject: row.subject,
    text: row.body_text,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: formatNullableInstant(row.next_attempt_at, timeZone),
    last_error: row.last_error,
    created_at: formatInstant(row.created_at, timeZone),
    sent_at: formatNullableInstant(row.sent_at, timeZone),
  };
}

/** The restaurant's mails, newest first: queued ones stay visible while no SMTP server is configured. */
export async function listOutboxMail(engine: Engine, restaurantId: string, limit = 100, callerTx?: ReadTransaction): Promise<OutboxMailView[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    const timeZone = (await tx.stores.restaurants.get(restaurantId))?.time_zone ?? DEFAULT_TIME_ZONE;
    const rows = await tx.stores.mailOutbox.listByRestaurant(restaurantId, Math.max(1, Math.min(limit, 500)));
    return rows.map((row) => toMailView(row, timeZone));
  });
}

/** The mails of one order, oldest first. */
export async function orderMail(engine: Engine, orderId: string, callerTx?: ReadTransaction): Promise<OutboxMailView[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    const order = await tx.stores.orders.getById(orderId);
    const timeZone = (order && (await tx.stores.restaurants.get(order.restaurant_id))?.time_zone) ?? DEFAULT_TIME_ZONE;
    return (await tx.stores.mailOutbox.listByOrder(orderId)).map((row) => toMailView(row, timeZone));
  });
}
