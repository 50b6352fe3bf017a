import type { ReturnResult } from '../../domain/payments.ts';
import type { Engine } from '../../engine.ts';

/** Where the provider sent the customer back: `failure` is believed (shown as failed), the others only say "not yet". */
export type ProviderReturn = 'success' | 'failure' | 'pending';

/**
 * What the customer's return page says of a payment, decided from what the engine itself knows,
 * never from the provider's redirect (anyone may forge it): paid is success; closed, or an order no
 * longer waiting for payment, is cancelled; else pending, or failed when the provider said failure.
 * Null for an unknown session, or a sandbox one (it has no return page).
 */
export async function paymentReturn(engine: Engine, sessionId: string, told: ProviderReturn): Promise<{ returnUrl: string; orderId: string; payment: ReturnResult } | null> {
  return await engine.read(async (tx) => {
    const session = await tx.stores.paymentSessions.get(sessionId);
    const order = session ? await tx.stores.orders.getById(session.order_id) : undefined;
    if (!session || !order || session.provider === 'sandbox') return null;
    let payment: ReturnResult;
    if (session.status === 'paid') payment = 'success';
    else if (session.status === 'closed' || order.status !== 'pendiente_pago') payment = 'cancelled';
    else payment = told === 'failure' ? 'failed' : 'pending';
    return { returnUrl: session.return_url, orderId: order.id, payment };
  });
}
