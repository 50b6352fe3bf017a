import { randomBytes } from 'node:crypto';
import { ApiError, invalidRequest, notFound } from '../../domain/errors.ts';
import { checkMercadoPagoSignature } from '../../payments/mercadopago-signature.ts';
import { MERCADOPAGO_PROVIDER_NAME } from '../../payments/mercadopago.ts';
import { returnUrlWith } from '../../services/confirm-payment.ts';
import { requestPaymentCheck } from '../../services/payment-actions.ts';
import { storedPaymentCredentials } from '../../services/payment-credentials.ts';
import { paymentReturn, type ProviderReturn } from '../../services/payment-return.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';

const RETURN_OUTCOMES: readonly ProviderReturn[] = ['success', 'failure', 'pending'];
const PAYMENT_ID = /^[0-9]{1,20}$/;

function queryText(query: unknown, name: string): string | null {
  if (query === null || typeof query !== 'object') return null;
  const value = (query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : null;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * A provider's pages and notifications (docs/payments.md), public and outside the documented API:
 * - `GET /v1/payments/return/{session_id}?to=success|failure|pending`: where the provider sends the
 *   customer back (its `back_urls`). It decides nothing: it redirects (303) to the order's
 *   `return_url` with `payment` told from what the engine itself knows (paid: success; closed:
 *   cancelled; else pending, or failed when the provider said failure).
 * - `POST /v1/payments/notifications/mercadopago/{restaurant_id}?data.id=…&type=payment`: Mercado
 *   Pago's webhook. Its `x-signature` is checked with the restaurant's secret (and its age); then
 *   it only writes the intent to read that payment from Mercado Pago (services/payment-actions.ts).
 *   A restaurant without an account, or unknown, answers as a configured one does to a forged
 *   notification (401): the webhook never tells which restaurants have Mercado Pago.
 */
export function registerPaymentNotificationRoutes(app: ApiServer, context: HttpContext): void {
  const { engine } = context;
  const credentialsOf = context.providers.payments.credentials ?? storedPaymentCredentials(engine);
  /**
   * Checked against where a restaurant has no Mercado Pago account (or does not exist): no one
   * holds it, so every notification fails its check exactly as a forged one to a configured
   * restaurant does, and the answer never tells which restaurants have an account.
   */
  const noAccountSecret = randomBytes(32).toString('hex');

  app.get<{ Params: { session_id: string } }>(
    '/payments/return/:session_id',
    { config: { public: true }, schema: { hide: true } },
    (request, reply) => {
      const to = queryText(request.query, 'to');
      if (to === null || !RETURN_OUTCOMES.includes(to as ProviderReturn)) {
        throw invalidRequest(`to must be one of: ${RETURN_OUTCOMES.join(', ')}`);
      }
      const back = paymentReturn(engine, request.params.session_id, to as ProviderReturn);
      if (!back) throw notFound('unknown payment session');
      return reply.code(303).header('Cache-Control', 'no-store').redirect(returnUrlWith(back.returnUrl, back.orderId, back.payment), 303);
    },
  );

  app.post<{ Params: { restaurant_id: string } }>(
    `/payments/notifications/${MERCADOPAGO_PROVIDER_NAME}/:restaurant_id`,
    { config: { public: true }, schema: { hide: true } },
    (request, reply) => {
      const restaurantId = request.params.restaurant_id;
      const secret = credentialsOf(restaurantId, MERCADOPAGO_PROVIDER_NAME)?.webhookSecret ?? noAccountSecret;
      const dataId = queryText(request.query, 'data.id') ?? queryText(request.query, 'id');
      const check = checkMercadoPagoSignature({
        secret,
        header: headerText(request.headers['x-signature']),
        requestId: headerText(request.headers['x-request-id']),
        dataId,
        now: engine.clock.now(),
      });
      if (!check.ok || secret === noAccountSecret) {
        request.log.warn({ restaurant_id: restaurantId, reason: check.ok ? 'no account' : check.reason }, 'Mercado Pago notification refused');
        throw new ApiError('unauthorized', `notification refused: ${check.ok ? 'x-signature does not match' : check.reason}`);
      }
      const type = queryText(request.query, 'type') ?? queryText(request.query, 'topic');
      if (type !== 'payment') return reply.code(200).send({ received: true });
      if (dataId === null || !PAYMENT_ID.test(dataId)) throw invalidRequest('data.id must be a payment id');
      requestPaymentCheck(engine, restaurantId, MERCADOPAGO_PROVIDER_NAME, dataId);
      return reply.code(200).send({ received: true });
    },
  );
}
