import type { Engine } from '../engine.ts';
import type { PaymentProviders } from '../payments/payment-provider.ts';
import { duePaymentActions, performPaymentAction } from '../services/payments/payment-actions.ts';
import type { JobsLogger } from './jobs-logger.ts';

const BATCH = 20;

/**
 * Performs every payment intent due now (a payment to read after a webhook, a refund), each in its
 * own claim → call → record steps (services/payments/payment-actions.ts), a batch at a time. `shouldStop`
 * is checked between batches; a call under way is always recorded. Logs carry ids, never secrets.
 */
export async function followDuePaymentActions(
  engine: Engine,
  payments: PaymentProviders,
  log: JobsLogger,
  timeoutMs: number,
  shouldStop: () => boolean,
): Promise<void> {
  const tried = new Set<number>();
  for (;;) {
    if (shouldStop()) return;
    const ids = (await duePaymentActions(engine, BATCH * 5)).filter((id) => !tried.has(id)).slice(0, BATCH);
    if (ids.length === 0) return;
    for (const id of ids) tried.add(id);
    await Promise.all(
      ids.map(async (id) => {
        try {
          const row = await performPaymentAction(engine, payments, id, timeoutMs);
          if (!row) return;
          const fields = { job: 'follow-payments', action_id: id, kind: row.kind, payment_id: row.payment_id, order_id: row.order_id, outcome: row.outcome };
          if (row.status === 'failed') log.error({ ...fields, error: row.last_error }, 'payment action given up');
          else if (row.status === 'pending' && row.last_error) log.warn({ ...fields, attempt: row.attempts, error: row.last_error }, 'payment action failed; will retry');
          else if (row.kind === 'refund' || row.outcome?.startsWith('refund_requested')) log.warn(fields, 'payment refunded or to be refunded');
        } catch (error) {
          log.error({ err: error, job: 'follow-payments', action_id: id }, 'payment action failed; the others go on');
        }
      }),
    );
  }
}
