// The API's Order (spec section 2, plus the additive `updated_at`, `test` and
// `managed_by_integrator`), as the engine writes it and the kitchen screen reads it: the static type
// of the schemas that document and check the answers (schemas/orders.ts), so the two cannot drift.
import type { Static } from 'typebox';
import type { CreatedOrder as CreatedOrderSchema, Order as OrderSchema } from './schemas/orders.ts';

export type Order = Static<typeof OrderSchema>;
/** The answer to POST /orders: the Order, with `payment_link` for online payment. */
export type CreatedOrder = Static<typeof CreatedOrderSchema>;
export type OrderItem = Order['items'][number];
export type OrderModifier = OrderItem['modifiers'][number];
/** How an order was paid (`payment.method`). */
export type PaymentMethod = NonNullable<Order['payment']['method']>;
/** Where a courier's delivery stands (`delivery.status`). */
export type DeliveryStatus = NonNullable<NonNullable<Order['delivery']>['status']>;
