import { randomUUID } from 'node:crypto';
import type { Engine } from '../engine.ts';
import type { OpenSessionRequest, PaymentLink, PaymentProvider } from './payment-provider.ts';

/** The sandbox's provider: sessions paid on the engine's own simulator page. */
export const sandboxSimulator: PaymentProvider = {
  name: 'sandbox',
  openSession(engine: Engine, request: OpenSessionRequest): PaymentLink {
    const id = `ps_test_${randomUUID().replaceAll('-', '')}`;
    const now = engine.clock.now();
    engine.db
      .prepare(
        `INSERT INTO payment_sessions (id, order_id, provider, status, return_url, preselected_method, created_at, updated_at)
         VALUES (?, ?, 'sandbox', 'open', ?, ?, ?, ?)`,
      )
      .run(id, request.order.id, request.returnUrl, request.preselectedMethod, now, now);
    return { session_id: id, payment_url: `${request.origin}/v1/sandbox/pay/${id}` };
  },
};
