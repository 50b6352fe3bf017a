import type { OnlinePaymentMethod, ProviderPayment, ProviderPaymentStatus, ProviderRefund } from '../../domain/payments.ts';
import type { OpenedSession, OpenSessionRequest, PaymentProvider, RefundRequest } from '../payment-provider.ts';

export const MERCADOPAGO_PROVIDER_NAME = 'mercadopago';
/** Mercado Pago's public REST API; a stand-in (tests) or a proxy may take its place. */
export const MERCADOPAGO_API_BASE = 'https://api.mercadopago.com';

export interface MercadoPagoOptions {
  accessToken: string;
  apiBase: string;
}

/** Mercado Pago answered with an error status (the access token is never part of the message). */
export class MercadoPagoError extends Error {
  readonly status: number;
  constructor(status: number, what: string, detail: string | null) {
    super(`Mercado Pago answered ${status} to ${what}${detail ? `: ${detail}` : ''}`);
    this.name = 'MercadoPagoError';
    this.status = status;
  }
}

type Json = Record<string, unknown>;

/** What a provider's error body may say, cut short and without control characters. */
function errorDetail(text: string): string | null {
  try {
    const body = JSON.parse(text) as Json;
    const message = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : null;
    return message === null ? null : message.replace(/[\u0000-\u001f]/g, ' ').slice(0, 200);
  } catch {
    return null;
  }
}

async function call(
  options: MercadoPagoOptions,
  method: 'GET' | 'POST',
  path: string,
  what: string,
  body: unknown,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<Json> {
  // undici is loaded on the first call: an engine that never calls Mercado Pago does not carry it
  // (about 3 MB of the serving process's heap; docs/performance.md, "Row 4's memory").
  const { request } = await import('undici');
  const response = await request(`${options.apiBase.replace(/\/+$/, '')}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${options.accessToken}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal ? { signal } : {}),
  });
  const text = await response.body.text();
  if (response.statusCode >= 400) throw new MercadoPagoError(response.statusCode, what, errorDetail(text));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`Mercado Pago answered ${what} with a body that is not JSON`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`Mercado Pago answered ${what} with no object`);
  return parsed as Json;
}

/** Mercado Pago's payment statuses (Payments API, GET /v1/payments/{id}) reduced to what the engine acts on. */
function statusOf(status: unknown): ProviderPaymentStatus {
  switch (status) {
    case 'approved':
      return 'approved';
    case 'pending':
    case 'in_process':
    case 'authorized':
      return 'pending';
    case 'rejected':
    case 'cancelled':
      return 'rejected';
    case 'refunded':
    case 'charged_back':
      return 'refunded';
    default:
      return 'other';
  }
}

/** Cards are `tarjeta`; anything else Mercado Pago takes (account money, bank transfer) is `transferencia`. */
function methodOf(paymentTypeId: unknown): OnlinePaymentMethod | null {
  if (typeof paymentTypeId !== 'string') return null;
  return ['credit_card', 'debit_card', 'prepaid_card'].includes(paymentTypeId) ? 'tarjeta' : 'transferencia';
}

function paymentOf(body: Json, paymentId: string): ProviderPayment {
  if (typeof body.transaction_amount !== 'number' || typeof body.currency_id !== 'string' || body.id === undefined) {
    throw new Error(`Mercado Pago answered payment ${paymentId} without its id, amount or currency`);
  }
  return {
    id: String(body.id),
    status: statusOf(body.status),
    status_text: typeof body.status === 'string' ? body.status : 'unknown',
    external_reference: typeof body.external_reference === 'string' ? body.external_reference : null,
    amount: body.transaction_amount,
    currency: body.currency_id,
    method: methodOf(body.payment_type_id),
  };
}

/** The preference Checkout Pro's hosted page is made from (POST /checkout/preferences). */
function preferenceBody(request: OpenSessionRequest): Json {
  return {
    items: request.lines.map((line, index) => ({
      id: String(index + 1),
      title: line.name,
      quantity: line.quantity,
      unit_price: line.unit_price,
      currency_id: request.currency,
    })),
    ...(request.customer_email ? { payer: { email: request.customer_email } } : {}),
    external_reference: request.order_id,
    back_urls: request.back_urls,
    auto_return: 'approved',
    notification_url: request.notification_url,
    expires: true,
    expiration_date_from: request.created_at,
    expiration_date_to: request.expires_at,
    metadata: { session_id: request.session_id, order_number: request.order_number },
  };
}

/**
 * Mercado Pago Checkout Pro over its REST API (docs/payments.md): a preference per online order
 * (the customer pays on its `init_point`), a payment read by id when a webhook names it, and a
 * refund with an idempotency key.
 */
export function createMercadoPagoProvider(options: MercadoPagoOptions): PaymentProvider & {
  getPayment(paymentId: string, signal?: AbortSignal): Promise<ProviderPayment>;
  refund(request: RefundRequest): Promise<ProviderRefund>;
  whoAmI(signal?: AbortSignal): Promise<{ id: string }>;
} {
  return {
    name: MERCADOPAGO_PROVIDER_NAME,
    async openSession(session: OpenSessionRequest): Promise<OpenedSession> {
      const body = await call(options, 'POST', '/checkout/preferences', 'creating a preference', preferenceBody(session), {
        'x-idempotency-key': session.session_id,
      }, session.signal);
      if (typeof body.init_point !== 'string' || !/^https?:\/\//.test(body.init_point)) {
        throw new Error('Mercado Pago answered the preference without an init_point');
      }
      return { payment_url: body.init_point };
    },
    async getPayment(paymentId: string, signal?: AbortSignal): Promise<ProviderPayment> {
      const body = await call(options, 'GET', `/v1/payments/${encodeURIComponent(paymentId)}`, `reading payment ${paymentId}`, undefined, {}, signal);
      return paymentOf(body, paymentId);
    },
    async searchPayments(externalReference: string, signal?: AbortSignal): Promise<ProviderPayment[]> {
      const query = new URLSearchParams({ external_reference: externalReference, sort: 'date_created', criteria: 'desc', limit: '30' });
      const body = await call(options, 'GET', `/v1/payments/search?${query}`, `searching the payments of ${externalReference}`, undefined, {}, signal);
      if (!Array.isArray(body.results)) throw new Error('Mercado Pago answered the search without results');
      return (body.results as unknown[]).map((result) => paymentOf((result ?? {}) as Json, 'unknown'));
    },
    async refund(refund: RefundRequest): Promise<ProviderRefund> {
      // An empty body refunds the whole payment (Refunds API, POST /v1/payments/{id}/refunds).
      const body = await call(options, 'POST', `/v1/payments/${encodeURIComponent(refund.payment_id)}/refunds`, `refunding payment ${refund.payment_id}`, {}, {
        'x-idempotency-key': refund.idempotency_key,
      }, refund.signal);
      if (body.id === undefined || body.id === null) throw new Error(`Mercado Pago answered the refund of ${refund.payment_id} without an id`);
      return { id: String(body.id), status: typeof body.status === 'string' ? body.status : 'unknown' };
    },
    async whoAmI(signal?: AbortSignal): Promise<{ id: string }> {
      const body = await call(options, 'GET', '/users/me', 'checking the access token', undefined, {}, signal);
      return { id: String(body.id) };
    },
  };
}
