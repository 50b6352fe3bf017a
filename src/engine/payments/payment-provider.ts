import type { Engine } from '../engine.ts';
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
  order: OrderRow;
  returnUrl: string;
  preselectedMethod: 'transferencia' | 'tarjeta' | null;
  /** Scheme, host and port the client reached us at, for links that point back to this engine. */
  origin: string;
}

/**
 * A payment provider opens a hosted payment session for an online order. It runs inside the
 * order's transaction: throwing aborts the order (nothing created, stock untouched). The session
 * is recorded in `payment_sessions` (engine.paymentSessions) under the provider's name; the
 * provider's confirmations come back as PaymentConfirmation.
 */
export interface PaymentProvider {
  readonly name: string;
  openSession(engine: Engine, request: OpenSessionRequest): PaymentLink;
}

/** Payment providers by world. Production has none until one is configured. */
export interface PaymentProviders {
  live: PaymentProvider | null;
  test: PaymentProvider;
}
