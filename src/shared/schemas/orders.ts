import Type from 'typebox';
import { ORDER_STATUSES, PATCH_TARGETS } from '../order-states.ts';
import { DateTimeIn, DateTimeOut, Nullable, Uuid } from './common.ts';

export const OrderItemInput = Type.Object({
  product_id: Uuid('A product id from GET /menu.'),
  quantity: Type.Integer({ minimum: 1, maximum: 999 }),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  modifier_option_ids: Type.Optional(Type.Array(Uuid(), { maxItems: 50, description: 'Option ids from GET /menu.' })),
});

export const CreateOrderBody = Type.Object({
  location_id: Uuid(),
  type: Type.Enum(['delivery', 'retiro']),
  customer: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
    email: Type.Optional(Nullable(Type.String({ maxLength: 254, format: 'email' }))),
  }),
  items: Type.Array(OrderItemInput, { minItems: 1, maxItems: 100 }),
  address: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  shipping_fee: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 })),
  payment: Type.Optional(Type.Enum(['external', 'online'], { default: 'external' })),
  payment_method: Type.Optional(Type.Enum(['transferencia', 'tarjeta'])),
  return_url: Type.Optional(Type.String({ maxLength: 2000 })),
  scheduled_for: Type.Optional(Nullable(DateTimeIn('Optional: a future date-time (preparation lead .. 7 days ahead).'))),
});
export type CreateOrderInput = Type.Static<typeof CreateOrderBody>;

export const PatchOrderBody = Type.Object({
  status: Type.Enum([...PATCH_TARGETS], { description: 'The target state.' }),
});

export const OrderIdParams = Type.Object({ order_id: Uuid() });

export const ListOrdersQuery = Type.Object({
  status: Type.Optional(Type.Enum([...ORDER_STATUSES])),
  location_id: Type.Optional(Uuid()),
  from: Type.Optional(DateTimeIn('Created at or after (inclusive).')),
  to: Type.Optional(DateTimeIn('Created before (exclusive).')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
});
export type ListOrdersInput = Type.Static<typeof ListOrdersQuery>;

const Modifier = Type.Object({ group: Nullable(Type.String()), name: Nullable(Type.String()), price: Type.Integer() });

export const OrderItem = Type.Object({
  product_id: Nullable(Type.String()),
  name: Type.String(),
  quantity: Type.Integer(),
  unit_price: Type.Integer({ description: 'CLP, modifiers included.' }),
  notes: Nullable(Type.String()),
  modifiers: Type.Array(Modifier),
});

export const Order = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    number: Type.String({ description: 'Short number for the customer; sandbox orders start with T.' }),
    status: Type.Enum([...ORDER_STATUSES]),
    type: Type.Enum(['delivery', 'retiro']),
    location_id: Nullable(Type.String()),
    customer: Type.Object({ name: Nullable(Type.String()), phone: Nullable(Type.String()), email: Nullable(Type.String()) }),
    address: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    items: Type.Array(OrderItem),
    subtotal: Type.Integer(),
    shipping_fee: Type.Integer(),
    discount: Type.Integer(),
    total: Type.Integer(),
    payment: Type.Object({ method: Nullable(Type.String()), paid: Type.Boolean() }),
    delivery: Nullable(
      Type.Object({ provider: Type.String(), status: Nullable(Type.String()), tracking_url: Nullable(Type.String()) }),
    ),
    scheduled_for: Nullable(DateTimeOut()),
    created_at: DateTimeOut(),
    updated_at: DateTimeOut(),
    test: Type.Boolean({ description: 'True for sandbox orders (label PRUEBA).' }),
    managed_by_integrator: Type.Boolean({ description: 'True when a POS integration owns the order (PATCH is 409).' }),
    payment_link: Type.Optional(Type.Object({ payment_url: Type.String(), session_id: Type.String() })),
  },
);

export const OrderList = Type.Object({
  data: Type.Array(Order),
  has_more: Type.Boolean(),
  next_cursor: Nullable(Type.String()),
});
