import type { Engine } from '../engine.ts';
import type { OrderRow } from '../store/orders-store.ts';

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
 * order's transaction: throwing aborts the order (nothing created, stock untouched).
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
