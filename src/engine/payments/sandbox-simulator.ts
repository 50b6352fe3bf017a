import { randomUUID } from 'node:crypto';
import type { Engine } from '../engine.ts';
import type { OpenSessionRequest, PaymentLink, PaymentProvider } from './payment-provider.ts';

export const SANDBOX_PROVIDER_NAME = 'sandbox';

/** The simulator's session ids, and nothing else, are served by its page. */
export const SANDBOX_SESSION_ID = /^ps_test_[0-9a-f]{32}$/;

/** Where the simulator page of a session is, relative to the engine's origin. */
export function sandboxPaymentPath(sessionId: string): string {
  return `/v1/sandbox/pay/${sessionId}`;
}

/** The sandbox's provider: sessions paid on the engine's own simulator page (http/routes/sandbox-pay.ts). */
export const sandboxSimulator: PaymentProvider = {
  name: SANDBOX_PROVIDER_NAME,
  openSession(engine: Engine, request: OpenSessionRequest): PaymentLink {
    const id = `ps_test_${randomUUID().replaceAll('-', '')}`;
    engine.paymentSessions.insert({
      id,
      order_id: request.order.id,
      provider: SANDBOX_PROVIDER_NAME,
      return_url: request.returnUrl,
      preselected_method: request.preselectedMethod,
      created_at: engine.clock.now(),
    });
    return { session_id: id, payment_url: `${request.origin}${sandboxPaymentPath(id)}` };
  },
};
