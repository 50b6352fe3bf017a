import { flatMapInOrder } from '../../../shared/in-order.ts';
import { DateTime } from 'luxon';
import { callWithTimeout } from '../../adapters/call-with-timeout.ts';
import { paymentMatchesOrder, type ProviderPayment, type ProviderRefund } from '../../domain/payments.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import { paymentProviderFor, type PaymentProvider, type PaymentProviders } from '../../payments/payment-provider.ts';
import type { PaymentActionRow } from '../../store/payment-actions-store.ts';
import { PAYMENT_PROVIDER_NAMES } from '../../payments/payment-providers.ts';
import { confirmPayment } from './confirm-payment.ts';
import { errorText } from '../error-text.ts';
import { applyOrderChanges } from '../orders/transition-order.ts';

/**
 * Payment intents, like courier deliveries (docs/architecture.md, Intents): a webhook only writes
 * "read payment X" (a `check`); the jobs runner claims it in a transaction, asks the provider with
 * no transaction open, and records what the provider says in another transaction. Only an approved
 * payment of the order's exact amount and currency pays an open session; an approved payment that
 * cannot pay its order (cancelled, expired, paid by another payment, a wrong amount) gets a
 * `refund` intent, made once (one row per payment, the same idempotency key on every attempt).
 */

/** Retries: 30 s after the first failure, doubling, at most every 10 minutes. */
const RETRY_FIRST_SECONDS = 30;
const RETRY_MAX_SECONDS = 10 * 60;
/** Given up after this many failed calls (about an hour and a half of retries); `failed` says why. */
const MAX_PAYMENT_ACTION_ATTEMPTS = 12;
/** While a call is under way the action is not due before this (engine clock); a dead process leaves it to be done again. */
const CALL_LEASE_MINUTES = 5;
/** How long one provider call may take (real time: it waits on the network). */
export const DEFAULT_PAYMENT_ACTION_TIMEOUT_MS = 10_000;

function paymentActionRetryAt(now: number, attempts: number): number {
  const seconds = Math.min(RETRY_FIRST_SECONDS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_SECONDS);
  return DateTime.fromMillis(now).plus({ seconds }).toMillis();
}

/** The provider's idempotency key for refunding a payment: one per payment, whatever the attempt or process. */
function refundIdempotencyKey(provider: string, paymentId: string): string {
  return `comanda-refund-${provider}-${paymentId}`;
}

/**
 * A notification named one of a restaurant's payments (its signature already checked): writes the
 * intent to read it, in one transaction. A check already waiting is left as it is; one under way
 * is done again once it ends; one done is done again (the payment may have changed since).
 */
export async function requestPaymentCheck(engine: Engine, restaurantId: string, provider: string, paymentId: string, tx?: WriteTransaction): Promise<void> {
  await engine.within(tx, async (tx) => {
    const now = engine.clock.now();
    const existing = await tx.stores.paymentActions.find(restaurantId, provider, 'check', paymentId);
    if (!existing) {
      await tx.stores.paymentActions.insert({
        restaurant_id: restaurantId,
        provider,
        kind: 'check',
        payment_id: paymentId,
        order_id: null,
        amount: null,
        idempotency_key: null,
        next_at: now,
        created_at: now,
      });
      return;
    }
    if (existing.status === 'pending') {
      await tx.stores.paymentActions.update(existing.id, { requested: existing.requested + 1 }, now);
      return;
    }
    await tx.stores.paymentActions.update(
      existing.id,
      { status: 'pending', requested: existing.requested + 1, attempts: 0, next_at: now, last_error: null },
      now,
    );
  });
}

/** A session with no notification this long after it opened (engine clock) is looked for at the provider. */
const RECONCILE_AFTER_MINUTES = 10;
/** Sessions older than this are not looked for any more (an engine that was off for days does not search them all). */
const RECONCILE_WITHIN_HOURS = 24;

function quietWindow(now: number): [openedBy: number, openedAfter: number] {
  const at = DateTime.fromMillis(now);
  return [at.minus({ minutes: RECONCILE_AFTER_MINUTES }).toMillis(), at.minus({ hours: RECONCILE_WITHIN_HOURS }).toMillis()];
}

/**
 * Live orders whose session with a provider of the registry opened RECONCILE_AFTER_MINUTES ago or more (within a day)
 * and of which no payment was ever read: their notification may have been lost. Each is searched
 * once, whatever became of the order (a payment found for an expired one is refunded).
 */
export async function quietPaymentSessions(engine: Engine, limit = 100, callerTx?: ReadTransaction): Promise<string[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    const window = quietWindow(engine.clock.now());
    return (await flatMapInOrder(PAYMENT_PROVIDER_NAMES, async (provider) => await tx.stores.paymentActions.quietSessions(provider, ...window, limit)))
      .slice(0, limit)
      .map((r) => r.order_id);
  });
}

/**
 * Writes the intent to search an order's payments at its provider (reconciliation of a missed
 * notification), once per order, in one transaction. Returns false when not (or no longer) due.
 */
export async function requestPaymentSearch(engine: Engine, orderId: string): Promise<boolean> {
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const window = quietWindow(now);
    let quiet: { restaurant_id: string; provider: string } | undefined;
    for (const provider of PAYMENT_PROVIDER_NAMES) {
      const row = (await tx.stores.paymentActions.quietSessions(provider, ...window, 1_000)).find((r) => r.order_id === orderId);
      if (row) quiet = { restaurant_id: row.restaurant_id, provider };
    }
    if (!quiet) return false;
    await tx.stores.paymentActions.insert({
      restaurant_id: quiet.restaurant_id,
      provider: quiet.provider,
      kind: 'search',
      payment_id: orderId,
      order_id: orderId,
      amount: null,
      idempotency_key: null,
      next_at: now,
      created_at: now,
    });
    return true;
  });
}

/** Payment actions due now: reads to make, refunds to make or retry. */
export async function duePaymentActions(engine: Engine, limit = 100, callerTx?: ReadTransaction): Promise<number[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await tx.stores.paymentActions.due(engine.clock.now(), limit);
  });
}

/** A claimed action: the row as claimed, its provider, and its lease's end (the claim's fencing token). */
type Claimed = { row: PaymentActionRow; provider: PaymentProvider; leaseUntil: number };

/**
 * Records a claimed action's outcome in one transaction, only while the action still holds this
 * claim (issue 34): its restaurant's clock row first, as the claims take it, then the row checked
 * (and on PostgreSQL locked) by its lease. A node that stalled past its lease finds another claim
 * there (or its outcome recorded) and records nothing: false. Nothing of `work` runs then.
 */
async function recordClaimed(engine: Engine, claimed: Claimed, work: (tx: WriteTransaction, now: number) => Promise<void>): Promise<boolean> {
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    await tx.takeRestaurant(claimed.row.restaurant_id);
    if (!await tx.stores.paymentActions.updateClaimed(claimed.row.id, claimed.leaseUntil, {}, now)) return false;
    await work(tx, now);
    return true;
  });
}

async function failOrRetry(engine: Engine, tx: WriteTransaction, row: PaymentActionRow, attempts: number, error: string): Promise<void> {
  const now = engine.clock.now();
  if (attempts >= MAX_PAYMENT_ACTION_ATTEMPTS) {
    await tx.stores.paymentActions.update(row.id, { status: 'failed', attempts, next_at: null, last_error: error }, now);
  } else {
    await tx.stores.paymentActions.update(row.id, { attempts, next_at: paymentActionRetryAt(now, attempts), last_error: error }, now);
  }
}

/** Takes one due action for one call, in its own transaction, leasing it; null when there is nothing to call. */
async function claimPaymentAction(engine: Engine, payments: PaymentProviders, id: number): Promise<Claimed | null> {
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const seen = await tx.stores.paymentActions.get(id);
    if (!seen) return null;
    // Issue 34: on PostgreSQL two nodes may claim the action at once. Its restaurant's clock row,
    // held to the commit, puts their claims one after the other, and the row read after it is the
    // one the other claim committed (its lease ahead): never two calls. Nothing on SQLite.
    await tx.takeRestaurant(seen.restaurant_id);
    const row = await tx.stores.paymentActions.get(id);
    if (!row || row.status !== 'pending' || row.next_at === null || row.next_at > now) return null;
    const provider = paymentProviderFor(payments, row.restaurant_id, 'live');
    const able = row.kind === 'check' ? provider?.getPayment : row.kind === 'refund' ? provider?.refund : provider?.searchPayments;
    if (!provider || provider.name !== row.provider || !able) {
      await failOrRetry(engine, tx, row, row.attempts + 1, `payment provider "${row.provider}" is not configured for restaurant ${row.restaurant_id}`);
      return null;
    }
    const lease = DateTime.fromMillis(now).plus({ minutes: CALL_LEASE_MINUTES }).toMillis();
    await tx.stores.paymentActions.update(id, { attempts: row.attempts + 1, next_at: lease }, now);
    return { row: { ...row, attempts: row.attempts + 1, next_at: lease }, provider, leaseUntil: lease };
  });
}

/**
 * Performs one due payment action: claim (a transaction), the provider's call (none open, with a
 * timeout), record (another transaction, only while the claim still holds: see recordClaimed).
 * Returns the action as it stands after, or null when nothing was due.
 */
export async function performPaymentAction(
  engine: Engine,
  payments: PaymentProviders,
  id: number,
  timeoutMs = DEFAULT_PAYMENT_ACTION_TIMEOUT_MS,
): Promise<PaymentActionRow | null> {
  const claimed = await claimPaymentAction(engine, payments, id);
  if (!claimed) return null;
  const { row, provider } = claimed;
  const what = `payment provider "${provider.name}"`;
  if (row.kind === 'search') {
    let answer: ProviderPayment[] | { error: string };
    try {
      answer = await callWithTimeout(`${what} (payments of order ${row.payment_id})`, timeoutMs, (signal) =>
        provider.searchPayments!(row.payment_id, signal),
      );
    } catch (error) {
      answer = { error: errorText(error) };
    }
    await recordClaimed(engine, claimed, async (tx, now) => {
      if ('error' in answer) {
        await failOrRetry(engine, tx, row, row.attempts, answer.error);
        return;
      }
      // Each payment found is read and applied like a notified one (the search's own answer decides nothing).
      const found = answer.filter((payment) => payment.external_reference === row.payment_id);
      for (const payment of found) await requestPaymentCheck(engine, row.restaurant_id, row.provider, payment.id, tx);
      await tx.stores.paymentActions.update(row.id, { status: 'done', outcome: `found ${found.length} payment(s)`, next_at: null, last_error: null }, now);
    });
  } else if (row.kind === 'check') {
    let answer: ProviderPayment | { error: string };
    try {
      answer = await callWithTimeout(`${what} (payment ${row.payment_id})`, timeoutMs, (signal) => provider.getPayment!(row.payment_id, signal));
    } catch (error) {
      answer = { error: errorText(error) };
    }
    await recordCheck(engine, claimed, answer);
  } else {
    let answer: ProviderRefund | { error: string };
    try {
      answer = await callWithTimeout(`${what} (refund of ${row.payment_id})`, timeoutMs, (signal) =>
        provider.refund!({ payment_id: row.payment_id, idempotency_key: row.idempotency_key!, signal }),
      );
    } catch (error) {
      answer = { error: errorText(error) };
    }
    await recordClaimed(engine, claimed, async (tx, now) => {
      if ('error' in answer) {
        await failOrRetry(engine, tx, row, row.attempts, answer.error);
        return;
      }
      await tx.stores.paymentActions.update(row.id, { status: 'done', outcome: 'refunded', provider_ref: answer.id, next_at: null, last_error: null }, now);
      await recordRefundOnOrder(engine, tx, row);
    });
  }
  return await engine.read(async (tx) => await tx.stores.paymentActions.get(row.id)) ?? null;
}

async function recordCheck(engine: Engine, claim: Claimed, answer: ProviderPayment | { error: string }): Promise<void> {
  const claimed = claim.row;
  await recordClaimed(engine, claim, async (tx, now) => {
    const row = (await tx.stores.paymentActions.get(claimed.id))!;
    if ('error' in answer) {
      await failOrRetry(engine, tx, row, claimed.attempts, answer.error);
      return;
    }
    const applied = await applyProviderPayment(engine, row, answer, now, tx);
    if (applied.retry) {
      await tx.stores.paymentActions.update(row.id, { next_at: paymentActionRetryAt(now, 1), outcome: applied.outcome, order_id: applied.orderId }, now);
      return;
    }
    // Asked for again while the provider was being read: read it again, it may have changed.
    const again = row.requested !== claimed.requested;
    await tx.stores.paymentActions.update(
      row.id,
      {
        status: again ? 'pending' : 'done',
        outcome: applied.outcome,
        order_id: applied.orderId,
        next_at: again ? now : null,
        last_error: null,
        ...(again ? { attempts: 0 } : {}),
      },
      now,
    );
  });
}

interface Applied {
  outcome: string;
  orderId: string | null;
  /** Not decidable yet (the session is still being opened): read it again later. */
  retry?: boolean;
}

/** Inside the record's transaction: what the provider's payment means for its order. */
async function applyProviderPayment(engine: Engine, action: PaymentActionRow, payment: ProviderPayment, now: number, tx: WriteTransaction): Promise<Applied> {
  if (payment.id !== action.payment_id) return { outcome: `ignored: the provider answered payment ${payment.id}`, orderId: null };
  const order = payment.external_reference === null ? undefined : await tx.stores.orders.getById(payment.external_reference);
  if (!order || order.restaurant_id !== action.restaurant_id || order.test === 1) {
    return { outcome: 'ignored: not an online order of this restaurant', orderId: null };
  }
  const session = await tx.stores.paymentSessions.latestOfOrder(order.id);
  if (!session || session.provider !== action.provider) return { outcome: 'ignored: the order is not paid with this provider', orderId: order.id };
  if (session.opening === 1) return { outcome: 'waiting: the payment page is still being opened', orderId: order.id, retry: true };

  switch (payment.status) {
    case 'approved': {
      if (session.provider_payment_id === payment.id) return { outcome: 'confirmed', orderId: order.id };
      if (!paymentMatchesOrder(payment, order.total)) {
        await requestRefund(engine, tx, action, payment, order.id, now);
        if (session.status === 'open') await tx.stores.paymentSessions.recordResult(session.id, 'failed', now);
        return {
          outcome: `refund_requested: ${payment.amount} ${payment.currency} paid for an order of ${order.total} CLP`,
          orderId: order.id,
        };
      }
      const confirmed = await confirmPayment(engine, { session_id: session.id, result: 'success', method: payment.method ?? 'tarjeta' }, tx);
      if (confirmed?.changed && confirmed.state.kind === 'paid') {
        await tx.stores.paymentSessions.setProviderPayment(session.id, payment.id, now);
        return { outcome: 'confirmed', orderId: order.id };
      }
      await requestRefund(engine, tx, action, payment, order.id, now);
      const why = session.status === 'paid' ? 'the order was already paid' : `the order is ${order.status}`;
      return { outcome: `refund_requested: ${why}`, orderId: order.id };
    }
    case 'rejected': {
      const recorded = await confirmPayment(engine, { session_id: session.id, result: 'failed', method: null }, tx);
      return { outcome: recorded?.changed ? 'rejected' : 'rejected: changed nothing', orderId: order.id };
    }
    case 'pending':
      return { outcome: 'pending', orderId: order.id };
    case 'refunded':
      return { outcome: `refunded at the provider (${payment.status_text})`, orderId: order.id };
    default:
      return { outcome: `ignored: payment status ${payment.status_text}`, orderId: order.id };
  }
}

/** The refund intent of an approved payment that cannot pay its order: one per payment, ever. */
async function requestRefund(engine: Engine, tx: WriteTransaction, action: PaymentActionRow, payment: ProviderPayment, orderId: string, now: number): Promise<void> {
  if (await tx.stores.paymentActions.find(action.restaurant_id, action.provider, 'refund', payment.id)) return;
  await tx.stores.paymentActions.insert({
    restaurant_id: action.restaurant_id,
    provider: action.provider,
    kind: 'refund',
    payment_id: payment.id,
    order_id: orderId,
    amount: payment.amount,
    idempotency_key: refundIdempotencyKey(action.provider, payment.id),
    next_at: now,
    created_at: now,
  });
}

/**
 * Inside the refund's record transaction: the order shows what was given back (`payment.refunded`,
 * with its `order.updated` event, which the feed and the kitchen screen carry). Runs once per
 * refund row: the row is `done` from then on.
 */
async function recordRefundOnOrder(engine: Engine, tx: WriteTransaction, refund: PaymentActionRow): Promise<void> {
  if (refund.order_id === null || refund.amount === null) return;
  const order = await tx.stores.orders.getById(refund.order_id);
  if (!order) return;
  await applyOrderChanges(engine, tx, order, { refunded: order.refunded + refund.amount });
}

/** An order's payment actions (reads and refunds), for the records and the tests. */
export async function paymentActionsOfOrder(engine: Engine, orderId: string, callerTx?: ReadTransaction): Promise<PaymentActionRow[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await tx.stores.paymentActions.listOfOrder(orderId);
  });
}
