// Payment truth (issue 21): what was given back to the customer of an order, in CLP. A payment
// that could not pay its order (approved after it was cancelled or expired, of another amount, or
// a second one) is refunded by the jobs runner (payment_actions, kind `refund`); once the provider
// accepted the refund its amount is added here, so `payment.refunded` shows it on the order, in
// the feed (order.updated) and on the kitchen ticket.
export default /* sql */ `
ALTER TABLE orders ADD COLUMN refunded INTEGER NOT NULL DEFAULT 0;
`;
