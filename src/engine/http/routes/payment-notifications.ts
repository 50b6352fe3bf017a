import { randomBytes } from 'node:crypto';
import { ApiError, invalidRequest, notFound } from '../../domain/errors.ts';
import { paymentProviderEntry } from '../../payments/payment-providers.ts';
import { returnUrlWith } from '../../services/payments/confirm-payment.ts';
import { requestPaymentCheck } from '../../services/payments/payment-actions.ts';
import { storedPaymentCredentials } from '../../services/payments/payment-credentials.ts';
import { paymentReturn, type ProviderReturn } from '../../services/payments/payment-return.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';

const RETURN_OUTCOMES: readonly ProviderReturn[] = ['success', 'failure', 'pending'];

function queryText(query: unknown, name: string): string | null {
  if (query === null || typeof query !== 'object') return null;
  const value = (query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : null;
}

/**
 * A provider's pages and notifications (docs/payments.md), public and outside the documented API:
 * - `GET /v1/payments/return/{session_id}?to=success|failure|pending`: where the provider sends the
 *   customer back (its `back_urls`). It decides nothing: it redirects (303) to the order's
 *   `return_url` with `payment` told from what the engine itself knows (paid: success; closed:
 *   cancelled; else pending, or failed when the provider said failure).
 * - `POST /v1/payments/notifications/{provider}/{restaurant_id}`: a provider's webhook (Mercado
 *   Pago's: `mercadopago/{restaurant_id}?data.id=…&type=payment`). The provider's entry in the
 *   registry (payments/payment-providers.ts) checks its signature with the restaurant's secret (and
 *   its age); then the route only writes the intent to read that payment from the provider
 *   (services/payments/payment-actions.ts). A restaurant without an account, or unknown, answers as a
 *   configured one does to a forged notification (401): the webhook never tells which restaurants
 *   have an account. A provider the engine does not know is 404.
 */
export function registerPaymentNotificationRoutes(app: ApiServer, context: HttpContext): void {
  const { engine } = context;
  const credentialsOf = context.providers.payments.credentials ?? storedPaymentCredentials(engine);
  /**
   * Checked against where a restaurant has no account with the provider (or does not exist): no one
   * holds it, so every notification fails its check exactly as a forged one to a configured
   * restaurant does, and the answer never tells which restaurants have an account.
   */
  const noAccountSecret = randomBytes(32).toString('hex');

  app.get<{ Params: { session_id: string } }>(
    '/payments/return/:session_id',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const to = queryText(request.query, 'to');
      if (to === null || !RETURN_OUTCOMES.includes(to as ProviderReturn)) {
        throw invalidRequest(`to must be one of: ${RETURN_OUTCOMES.join(', ')}`);
      }
      const back = await paymentReturn(engine, request.params.session_id, to as ProviderReturn);
      if (!back) throw notFound('unknown payment session');
      return reply.code(303).header('Cache-Control', 'no-store').redirect(returnUrlWith(back.returnUrl, back.orderId, back.payment), 303);
    },
  );

  app.post<{ Params: { provider: string; restaurant_id: string } }>(
    '/payments/notifications/:provider/:restaurant_id',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const entry = paymentProviderEntry(request.params.provider);
      if (!entry) throw notFound('unknown payment provider');
      const restaurantId = request.params.restaurant_id;
      const secret = credentialsOf(restaurantId, entry.name)?.webhookSecret ?? noAccountSecret;
      const verdict = entry.verifyWebhook({ headers: request.headers, query: request.query }, secret, engine.clock.now());
      if (verdict.kind === 'refused' || secret === noAccountSecret) {
        const reason = verdict.kind === 'refused' ? verdict.reason : 'no account';
        request.log.warn({ restaurant_id: restaurantId, provider: entry.name, reason }, `${entry.label} notification refused`);
        throw new ApiError('unauthorized', `notification refused: ${verdict.kind === 'refused' ? verdict.reason : 'x-signature does not match'}`);
      }
      if (verdict.kind === 'ignored') return reply.code(200).send({ received: true });
      if (verdict.kind === 'invalid') throw invalidRequest(verdict.message);
      await requestPaymentCheck(engine, restaurantId, entry.name, verdict.payment_id);
      return reply.code(200).send({ received: true });
    },
  );
}
