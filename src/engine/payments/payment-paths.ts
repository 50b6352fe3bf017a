// Where the engine's payment pages and notifications live, relative to its public origin.

/** The return page a provider sends the customer to; it redirects to the order's `return_url`. */
export function paymentReturnPath(sessionId: string, outcome: 'success' | 'failure' | 'pending'): string {
  return `/v1/payments/return/${encodeURIComponent(sessionId)}?to=${outcome}`;
}

/** Where a provider notifies a restaurant's payments (the restaurant's secret checks the signature). */
export function paymentNotificationPath(provider: string, restaurantId: string): string {
  return `/v1/payments/notifications/${encodeURIComponent(provider)}/${encodeURIComponent(restaurantId)}`;
}
