import {
  ONLINE_PAYMENT_METHODS,
  PAYMENT_RESULTS,
  type OnlinePaymentMethod,
  type PaymentResult,
  type ProviderPayment,
  type ProviderRefund,
} from '../domain/payments.ts';
import type { World } from '../../shared/world.ts';
import type { PaymentCredentialsSource } from './payment-credentials-source.ts';

export { ONLINE_PAYMENT_METHODS, PAYMENT_RESULTS };
export type { OnlinePaymentMethod, PaymentResult, ProviderPayment, ProviderRefund };

/**
 * What a provider reports about one of its sessions: paid (with the method), refused, or abandoned
 * by the customer. Every provider's confirmation, and the sandbox simulator's form, is applied
 * through services/payments/confirm-payment.ts, which makes replays harmless.
 */
export interface PaymentConfirmation {
  session_id: string;
  result: PaymentResult;
  /** Required when `result` is `success`. */
  method: OnlinePaymentMethod | null;
}

export interface PaymentLink {
  payment_url: string;
  session_id: string;
}

/** One line of what the customer pays, in CLP (whole pesos). */
export interface PaymentLine {
  name: string;
  quantity: number;
  unit_price: number;
}

/**
 * What a provider is asked to open: plain data, no storage rows. Built from the order by
 * services/payments/open-online-payment.ts.
 */
export interface OpenSessionRequest {
  /**
   * The engine's id of the session, already recorded in `payment_sessions`: the provider's
   * confirmations name it, and it is the idempotency key towards the provider (a retried call
   * for the same session must not open a second one).
   */
  session_id: string;
  restaurant_id: string;
  order_id: string;
  order_number: string;
  test: boolean;
  /** The products, then the shipping fee as its own line when there is one. */
  lines: PaymentLine[];
  total: number;
  currency: 'CLP';
  customer_email: string | null;
  /** The integrator's `return_url`; providers send the customer through `back_urls` instead. */
  return_url: string;
  /** This engine's return page for each outcome; it redirects to `return_url` with `payment=…`. */
  back_urls: { success: string; failure: string; pending: string };
  /** Where the provider tells this engine that one of its payments changed (webhook). */
  notification_url: string;
  /** ISO 8601 with offset: when the order was made, and when its payment window closes. */
  created_at: string;
  expires_at: string;
  preselected_method: 'transferencia' | 'tarjeta' | null;
  /** Scheme, host and port the client reached us at, for links that point back to this engine. */
  origin: string;
  /** Aborts when the engine stops waiting (its timeout): the provider should drop the request. */
  signal?: AbortSignal;
}

/** What a provider answers when it opened a session: the hosted page the customer pays on. */
export interface OpenedSession {
  payment_url: string;
}

export interface RefundRequest {
  payment_id: string;
  /** The same on every attempt for one refund, so the provider makes it once. */
  idempotency_key: string;
  signal?: AbortSignal;
}

/**
 * A payment provider opens a hosted payment session for an online order. It is asynchronous, as
 * a provider's API is, and called after the order's commit, with no transaction open and with a
 * timeout (services/payments/open-online-payment.ts): the order, its stock and its session (`opening`)
 * are written first; failing or timing out withdraws the order and gives its stock back.
 *
 * A provider that confirms through webhooks (Mercado Pago) also reads one payment (a webhook
 * only says which payment to read) and refunds one; both are called by the jobs runner, outside
 * any transaction (services/payments/payment-actions.ts). The sandbox simulator confirms on its own page.
 */
export interface PaymentProvider {
  readonly name: string;
  openSession(request: OpenSessionRequest): Promise<OpenedSession>;
  getPayment?(paymentId: string, signal?: AbortSignal): Promise<ProviderPayment>;
  /** The payments whose external reference is an order's id (reconciling a missed notification). */
  searchPayments?(externalReference: string, signal?: AbortSignal): Promise<ProviderPayment[]>;
  refund?(request: RefundRequest): Promise<ProviderRefund>;
}


/**
 * The payment providers of an engine, assembled once where it starts (start-engine-server.ts):
 * a restaurant's own provider (its credentials, read when asked, so a change is seen at once),
 * else the world's default. Production has none until one is configured.
 */
export interface PaymentProviders {
  live: PaymentProvider | null;
  test: PaymentProvider;
  /** The provider a restaurant configured for a world, or null to use the default above. */
  forRestaurant?: (restaurantId: string, world: World) => PaymentProvider | null;
  /** Where restaurants' credentials are read (the webhook secrets too); absent: the database's table. */
  credentials?: PaymentCredentialsSource;
}

/** The provider that serves a restaurant's world: its own, else the world's default. */
export function paymentProviderFor(payments: PaymentProviders, restaurantId: string, world: World): PaymentProvider | null {
  return payments.forRestaurant?.(restaurantId, world) ?? (world === 'test' ? payments.test : payments.live);
}
