// Online payment facts the whole engine shares, with no I/O: what a customer reported, how they
// paid, and what a provider says of one of its payments.

/** What the customer (or the provider) last reported for a session. */
export type PaymentResult = 'success' | 'failed' | 'cancelled';

export const PAYMENT_RESULTS: readonly PaymentResult[] = ['success', 'failed', 'cancelled'];

/** How a customer can pay online (api-v1-spec.md, Payment). */
export const ONLINE_PAYMENT_METHODS = ['tarjeta', 'transferencia', 'apple_pay'] as const;
export type OnlinePaymentMethod = (typeof ONLINE_PAYMENT_METHODS)[number];

/** What `return_url` gets as `payment` (api-v1-spec.md): the spec's four results. */
export const RETURN_RESULTS = ['success', 'failed', 'pending', 'cancelled'] as const;
export type ReturnResult = (typeof RETURN_RESULTS)[number];

/** A provider's payment status, reduced to what the engine acts on. */
export type ProviderPaymentStatus = 'approved' | 'pending' | 'rejected' | 'refunded' | 'other';

/** One payment as the provider reports it when asked (never as a webhook or a redirect says). */
export interface ProviderPayment {
  id: string;
  status: ProviderPaymentStatus;
  /** The provider's own status text, for the records. */
  status_text: string;
  /** What the engine gave as the payment's reference: the order id. */
  external_reference: string | null;
  /** In the currency's unit (CLP has no decimals). */
  amount: number;
  currency: string;
  method: OnlinePaymentMethod | null;
}

/** A refund the provider accepted. */
export interface ProviderRefund {
  id: string;
  status: string;
}

/** True when an approved payment is exactly what the order asks for. */
export function paymentMatchesOrder(payment: ProviderPayment, total: number, currency = 'CLP'): boolean {
  return payment.currency === currency && payment.amount === total;
}
