import { formatInstant, formatNullableInstant } from '../../domain/time.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { Order, OrderItem } from '../../../shared/order.ts';

export type OrderItemView = OrderItem;
export type OrderView = Order;

/** The API's Order from its row. Items are stored already in their API shape. */
export function toOrderView(row: OrderRow, timeZone: string): OrderView {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    type: row.type,
    location_id: row.location_id,
    customer: { name: row.customer_name, phone: row.customer_phone, email: row.customer_email },
    address: row.address,
    notes: row.notes,
    items: JSON.parse(row.items) as OrderItemView[],
    subtotal: row.subtotal,
    shipping_fee: row.shipping_fee,
    discount: row.discount,
    total: row.total,
    // The column holds the CLP given back; the API's `refunded` is whether any was (api-v1-decisions.md).
    payment: { method: row.payment_method, paid: row.paid === 1, refunded: row.refunded > 0, amount_refunded: row.refunded },
    delivery:
      row.delivery_provider === null
        ? null
        : { provider: row.delivery_provider, status: row.delivery_status, tracking_url: row.delivery_tracking_url },
    scheduled_for: formatNullableInstant(row.scheduled_for, timeZone),
    created_at: formatInstant(row.created_at, timeZone),
    updated_at: formatInstant(row.updated_at, timeZone),
    test: row.test === 1,
    managed_by_integrator: row.managed_by !== null,
  };
}
