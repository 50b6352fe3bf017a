import type { PaymentProviderEntry, WebhookRequest, WebhookVerdict } from '../payment-provider-registry.ts';
import { MERCADOPAGO_API_BASE, MERCADOPAGO_PROVIDER_NAME, createMercadoPagoProvider } from './mercadopago-api.ts';
import { checkMercadoPagoConnection } from './mercadopago-connection.ts';
import { checkMercadoPagoSignature } from './mercadopago-signature.ts';

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
 * Mercado Pago's webhook: `POST …/mercadopago/{restaurant_id}?data.id=…&type=payment` with an
 * `x-signature` (mercadopago-signature.ts). Only a `payment` notification names something to read.
 */
function verifyMercadoPagoWebhook(request: WebhookRequest, secret: string, now: number): WebhookVerdict {
  const dataId = queryText(request.query, 'data.id') ?? queryText(request.query, 'id');
  const check = checkMercadoPagoSignature({
    secret,
    header: headerText(request.headers['x-signature']),
    requestId: headerText(request.headers['x-request-id']),
    dataId,
    now,
  });
  if (!check.ok) return { kind: 'refused', reason: check.reason };
  const type = queryText(request.query, 'type') ?? queryText(request.query, 'topic');
  if (type !== 'payment') return { kind: 'ignored' };
  if (dataId === null || !PAYMENT_ID.test(dataId)) return { kind: 'invalid', message: 'data.id must be a payment id' };
  return { kind: 'payment', payment_id: dataId };
}

/** Mercado Pago as the engine's payment registry knows it. */
export const mercadoPagoEntry: PaymentProviderEntry = {
  name: MERCADOPAGO_PROVIDER_NAME,
  label: 'Mercado Pago',
  defaultApiBase: MERCADOPAGO_API_BASE,
  create: (credentials) => createMercadoPagoProvider({ accessToken: credentials.accessToken, apiBase: credentials.apiBase }),
  checkConnection: checkMercadoPagoConnection,
  verifyWebhook: verifyMercadoPagoWebhook,
};
