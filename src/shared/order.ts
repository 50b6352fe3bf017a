// The API's Order (spec section 2, plus the additive `updated_at`, `test` and
// `managed_by_integrator`), as the engine writes it and the kitchen screen reads it.
import type { OrderStatus, OrderType } from './order-states.ts';

export interface OrderModifier {
  group: string | null;
  name: string | null;
  price: number;
}

export interface OrderItem {
  product_id: string | null;
  name: string;
  quantity: number;
  unit_price: number;
  notes: string | null;
  modifiers: OrderModifier[];
}

export interface Order {
  id: string;
  number: string;
  status: OrderStatus;
  type: OrderType;
  location_id: string | null;
  customer: { name: string | null; phone: string | null; email: string | null };
  address: string | null;
  notes: string | null;
  items: OrderItem[];
  subtotal: number;
  shipping_fee: number;
  discount: number;
  total: number;
  /** `refunded`: CLP given back to the customer (payments that could not pay the order); 0 when none. */
  payment: { method: string | null; paid: boolean; refunded: number };
  delivery: { provider: string; status: string | null; tracking_url: string | null } | null;
  scheduled_for: string | null;
  created_at: string;
  updated_at: string;
  test: boolean;
  managed_by_integrator: boolean;
  /** Only in the answer to POST /orders with payment = online. */
  payment_link?: { payment_url: string; session_id: string };
}
