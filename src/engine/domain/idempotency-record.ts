// How an Idempotency-Key's record says "answered later": one rule for the store that keeps it, the
// service that writes it (services/orders/idempotent-answers.ts) and the payment service that clears it.

/**
 * The status of a key's record while its write waits on an outside party after its commit (an
 * online order's payment provider); the body is then pendingMarker(order id).
 */
export const PENDING_STATUS = 0;

export function pendingMarker(orderId: string): string {
  return JSON.stringify({ pending_order_id: orderId });
}
