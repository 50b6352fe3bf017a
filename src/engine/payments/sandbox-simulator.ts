import type { OpenedSession, OpenSessionRequest, PaymentProvider } from './payment-provider.ts';

export const SANDBOX_PROVIDER_NAME = 'sandbox';

/** The simulator's session ids, and nothing else, are served by its page. */
export const SANDBOX_SESSION_ID = /^ps_test_[0-9a-f]{32}$/;

/** Where the simulator page of a session is, relative to the engine's origin. */
function sandboxPaymentPath(sessionId: string): string {
  return `/v1/sandbox/pay/${sessionId}`;
}

/**
 * The sandbox's provider: sessions paid on the engine's own simulator page (http/routes/sandbox-pay.ts).
 * It calls nothing outside, yet goes through the same path as a real provider: asked after the
 * order's commit, asynchronously, with a timeout.
 */
export const sandboxSimulator: PaymentProvider = {
  name: SANDBOX_PROVIDER_NAME,
  async openSession(request: OpenSessionRequest): Promise<OpenedSession> {
    return { payment_url: `${request.origin}${sandboxPaymentPath(request.session_id)}` };
  },
};
