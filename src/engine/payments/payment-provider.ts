import type { OrderRow } from '../store/orders-store.ts';
import type { PaymentResult } from '../store/payment-sessions-store.ts';

export type { PaymentResult };

/** How a customer can pay online (api-v1-spec.md, Payment). */
export const ONLINE_PAYMENT_METHODS = ['tarjeta', 'transferencia', 'apple_pay'] as const;
export type OnlinePaymentMethod = (typeof ONLINE_PAYMENT_METHODS)[number];

export const PAYMENT_RESULTS: readonly PaymentResult[] = ['success', 'failed', 'cancelled'];

/**
 * What a provider reports about one of its sessions: paid (with the method), refused, or abandoned
 * by the customer. Every provider's confirmation, and the sandbox simulator's form, is applied
 * through services/confirm-payment.ts, which makes replays harmless.
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

export interface OpenSessionRequest {
  /**
   * The engine's id of the session, already recorded in `payment_sessions`: the provider's
   * confirmations name it, and it is the idempotency key towards the provider (a retried call
   * for the same session must not open a second one).
   */
  session_id: string;
  order: OrderRow;
  returnUrl: string;
  preselectedMethod: 'transferencia' | 'tarjeta' | null;
  /** Scheme, host and port the client reached us at, for links that point back to this engine. */
  origin: string;
  /** Aborts when the engine stops waiting (its timeout): the provider should drop the request. */
  signal?: AbortSignal;
}

/** What a provider answers when it opened a session: the hosted page the customer pays on. */
export interface OpenedSession {
  payment_url: string;
}

/**
 * A payment provider opens a hosted payment session for an online order. It is asynchronous, as
 * a provider's API is, and called after the order's commit, with no transaction open and with a
 * timeout (services/open-online-payment.ts): the order, its stock and its session (`opening`)
 * are written first; failing or timing out withdraws the order and gives its stock back. The
 * provider's confirmations come back as PaymentConfirmation.
 */
export interface PaymentProvider {
  readonly name: string;
  openSession(request: OpenSessionRequest): Promise<OpenedSession>;
}

/** Payment providers by world. Production has none until one is configured. */
export interface PaymentProviders {
  live: PaymentProvider | null;
  test: PaymentProvider;
}
