import Type from 'typebox';
import { ORDER_STATUSES, ORDER_TYPES, PATCH_TARGETS } from '../order-states.ts';
import { DateTimeIn, DateTimeOut, named, NotBlankText, Nullable, Text, Uuid, UuidOut } from './common.ts';
import { DELIVERY_PROVIDER, DELIVERY_STATUSES } from './delivery.ts';

/** How an order is paid: `efectivo` in person, the others online (api-v1-spec.md, Payment). */
const PAYMENT_METHODS = ['efectivo', 'transferencia', 'tarjeta', 'apple_pay'] as const;

/** The methods a customer can be offered first on the payment page. */
const PRESELECTABLE_PAYMENT_METHODS = ['transferencia', 'tarjeta'] as const;

const OrderItemInput = named(
  'OrderItemInput',
  Type.Object({
    product_id: Uuid('A product id from GET /menu.'),
    quantity: Type.Integer({ minimum: 1, maximum: 999 }),
    notes: Type.Optional(Nullable(Text({ maxLength: 500 }))),
    modifier_option_ids: Type.Optional(
      Type.Array(Uuid(), {
        maxItems: 50,
        description: 'Option ids from GET /menu; they must satisfy every modifier group of the product (400 names the group).',
      }),
    ),
  }),
);

/**
 * Rules that tie fields together. They are validated here, with the rest of the body, so the
 * OpenAPI document states exactly what the engine accepts; `x-message` is the 400's message.
 * Each rule is also written as a union of named branches, so that a client generated from the
 * document (openapi-typescript with its default options) refuses at compile time what the engine
 * refuses with a 400. The branches leave other fields to the whole body (`unevaluatedProperties:
 * true`, which example checkers that close every schema read, while generators add no index
 * signature for it). The body itself says nothing of other fields: the engine ignores them (a
 * store front may send its cart as it has it, `subtotal` and all; api-v1-decisions.md, Formats),
 * while a generated client, which adds no index signature either, still refuses a misspelt one.
 */
/** By `type`: a delivery needs a non-blank `address` (a `oneOf` with a discriminator). */
const byOrderType = {
  oneOf: [
    named('DeliveryOrderRule', {
      type: 'object',
      description: 'A delivery order needs an address.',
      properties: {
        type: { const: 'delivery' },
        address: { type: 'string', pattern: '\\S', 'x-message': 'address is required when type is delivery' },
      },
      required: ['type', 'address'],
      unevaluatedProperties: true,
      'x-message': 'address is required when type is delivery',
    }),
    named('PickupOrderRule', { type: 'object', description: 'A pickup order.', properties: { type: { const: 'retiro' } }, required: ['type'], unevaluatedProperties: true }),
  ],
  discriminator: { propertyName: 'type' },
};

/**
 * By `payment`: online needs an https `return_url`, and only online takes `payment_method`. The
 * if/then/else gives the 400's words; the `oneOf` after it says the same for generated clients
 * (a body that fails it has already failed the if/then/else, so its message is never seen).
 */
const onlineNeedsHttpsReturnUrl = {
  if: { properties: { payment: { const: 'online' } }, required: ['payment'] },
  then: {
    required: ['return_url'],
    properties: {
      return_url: {
        type: 'string',
        pattern: '^[Hh][Tt][Tt][Pp][Ss]://[^/?#@\\s]+',
        'x-message': 'return_url must be an https URL',
      },
    },
    additionalProperties: true,
    'x-message': 'return_url is required when payment is online',
  },
  else: {
    properties: { payment_method: { not: {}, 'x-message': 'payment_method is accepted only with payment = online' } },
    additionalProperties: true,
  },
};
/** How the order is paid; the union below would otherwise answer a bad value with a branch's complaint. */
const PaymentKind = Type.Enum(['external', 'online'], { description: 'Absent: `external`.' });
const knownPaymentKind = { properties: { payment: PaymentKind } };
const byPayment = {
  // anyOf: the two exclude each other, but a linter cannot tell from an optional `payment`.
  anyOf: [
    named('OnlinePaymentRule', {
      type: 'object',
      description: 'Paid online: `return_url` (https) is required, `payment_method` may preselect a method.',
      properties: { payment: { const: 'online' }, return_url: { type: 'string' } },
      required: ['payment', 'return_url'],
      unevaluatedProperties: true,
    }),
    named('ExternalPaymentRule', {
      type: 'object',
      description: 'Paid outside the platform (`payment` absent or `external`): no `payment_method`.',
      properties: { payment: { const: 'external' }, payment_method: false },
      unevaluatedProperties: true,
    }),
  ],
};

export const CreateOrderBody = named(
  'CreateOrderRequest',
  Type.Object(
    {
      location_id: Uuid('The location, from GET /locations.'),
      type: Type.Enum([...ORDER_TYPES]),
      customer: Type.Object({
        name: NotBlankText({ minLength: 1, maxLength: 200 }),
        phone: Type.Optional(Nullable(Text({ maxLength: 50 }))),
        email: Type.Optional(Nullable(Text({ maxLength: 254, format: 'email' }))),
      }),
      items: Type.Array(OrderItemInput, { minItems: 1, maxItems: 100 }),
      address: Type.Optional(Nullable(Text({ maxLength: 500, description: 'Required (not blank) when `type` is `delivery`; ignored for `retiro`.' }))),
      notes: Type.Optional(Nullable(Text({ maxLength: 1000 }))),
      // No `default` keywords: a generator reads a default as "always present" and would make these required.
      shipping_fee: Type.Optional(
        Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'CLP; the `fee` of POST /delivery/quote. Forced to 0 for `retiro`. Absent: 0.' }),
      ),
      payment: Type.Optional(PaymentKind),
      payment_method: Type.Optional(
        Type.Enum([...PRESELECTABLE_PAYMENT_METHODS], { description: 'Only with `payment: online`: the method preselected on the payment page.' }),
      ),
      return_url: Type.Optional(
        Text({
          maxLength: 2000,
          description:
            'Required with `payment: online`, an https URL. The customer comes back to it with the query parameters `order_id` and `payment` (`success`, `failed`, `pending` or `cancelled`; see the `paymentReturn` callback).',
        }),
      ),
      scheduled_for: Type.Optional(
        Nullable(DateTimeIn('scheduled_for', 'Optional: commits the order to a future date-time, from the location\'s preparation lead to 7 days ahead.')),
      ),
    },
    {
      ...byOrderType,
      allOf: [knownPaymentKind, onlineNeedsHttpsReturnUrl, byPayment],
    },
  ),
);
export type CreateOrderInput = Type.Static<typeof CreateOrderBody>;

export const PatchOrderBody = named(
  'PatchOrderRequest',
  Type.Object({
    status: Type.Enum([...PATCH_TARGETS], { description: 'The target state; it must be reachable from the current one (else 409 illegal_transition).' }),
  }),
);

export const OrderIdParams = Type.Object({ order_id: Uuid('The order\'s id.') });

export const ListOrdersQuery = Type.Object({
  status: Type.Optional(Type.Enum([...ORDER_STATUSES])),
  location_id: Type.Optional(Uuid()),
  from: Type.Optional(DateTimeIn('from', 'Created at or after (inclusive).')),
  to: Type.Optional(DateTimeIn('to', 'Created before (exclusive).')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Text({ minLength: 1, maxLength: 512, description: 'The `next_cursor` of the previous page, as it came.' })),
});
export type ListOrdersInput = Type.Static<typeof ListOrdersQuery>;

const Modifier = named(
  'OrderModifier',
  Type.Object({
    group: Nullable(Type.String({ description: 'The modifier group\'s name.' })),
    name: Nullable(Type.String({ description: 'The chosen option.' })),
    price: Type.Integer(),
  }),
);

const OrderItem = named(
  'OrderItem',
  Type.Object({
    product_id: Nullable(UuidOut()),
    name: Type.String(),
    quantity: Type.Integer(),
    unit_price: Type.Integer({ description: 'CLP, modifiers included.' }),
    notes: Nullable(Type.String()),
    modifiers: Type.Array(Modifier),
  }),
);

const PaymentLink = named(
  'PaymentLink',
  Type.Object(
    {
      payment_url: Type.String({ format: 'uri', description: 'The hosted payment page (the engine\'s simulator for sandbox keys).' }),
      session_id: Type.String(),
    },
    { description: 'Where to send the customer to pay. Only in the 201 answer to POST /orders with `payment: online` (and its replay).' },
  ),
);

/** The kitchen's promise for an order (issue 32); also the answer of POST /ready-time-quotes. */
export const ReadyTimePromise = named(
  'ReadyTimePromise',
  Type.Object(
    {
      expected_ready_at: DateTimeOut('When the kitchen expects the order ready: its lines scheduled behind every channel\'s open lines at their stations, with the cooks on shift.'),
      promised_ready_at: DateTimeOut('The time to tell the customer: the expected time plus the margin by which `quantile` of recent orders were ready.'),
      wait_minutes: Type.Integer({ minimum: 0, description: 'Minutes from now to `promised_ready_at`, rounded up.' }),
      quantile: Type.Number({ minimum: 0.5, maximum: 0.99, description: 'The share of orders meant to be ready by their promise (the restaurant\'s `promise_quantile`, 0.9 by default).' }),
      margin_basis: Type.Enum(['calibrated', 'prior'], {
        description: '`calibrated`: the margin comes from the location\'s last ready orders; `prior`: too few yet, it comes from the prep times\' spread.',
      }),

      previous_promised_ready_at: Type.Optional(
        DateTimeOut('Only in the `order.updated` event that moves the promise later (the kitchen\'s live load made the order slip past it by more than 3 minutes): the promise it replaces.'),
      ),
    },
    { description: 'When the order will be ready, from the kitchen\'s live load. Times are the engine\'s clock.' },
  ),
);

export const ReadyTimeQuoteBody = named(
  'ReadyTimeQuoteRequest',
  Type.Object(
    {
      location_id: Uuid('The location, from GET /locations.'),
      items: Type.Array(OrderItemInput, { minItems: 1, maxItems: 100, description: 'The cart, as POST /orders would send it.' }),
    },
    { additionalProperties: false },
  ),
);
export type ReadyTimeQuoteInput = Type.Static<typeof ReadyTimeQuoteBody>;

export const ReadyTimeQuote = named(
  'ReadyTimeQuote',
  Type.Intersect([Type.Object({ location_id: UuidOut() }), ReadyTimePromise], {
    description: 'When a cart ordered now would be ready. Nothing is created or reserved: the next order may change it.',
  }),
);

export const Order = named(
  'Order',
  Type.Object({
    id: UuidOut(),
    number: Type.String({ description: 'Short number for the customer; sandbox orders start with T.' }),
    status: Type.Enum([...ORDER_STATUSES]),
    type: Type.Enum([...ORDER_TYPES]),
    location_id: Nullable(UuidOut()),
    customer: Type.Object({ name: Nullable(Type.String()), phone: Nullable(Type.String()), email: Nullable(Type.String()) }),
    address: Nullable(Type.String({ description: 'Delivery orders only.' })),
    notes: Nullable(Type.String()),
    items: Type.Array(OrderItem),
    subtotal: Type.Integer(),
    shipping_fee: Type.Integer(),
    discount: Type.Integer(),
    total: Type.Integer(),
    payment: Type.Object({
      method: Type.Union([Type.Enum([...PAYMENT_METHODS]), Type.Null()], {
        description: '`efectivo` for external payment; for online payment null until paid, then the method paid with.',
      }),
      paid: Type.Boolean({ description: 'True once an online payment is confirmed; external orders always report false.' }),
      refunded: Type.Boolean({
        description:
          'True once some of what the customer paid was given back (`amount_refunded` says how much), false otherwise. An online payment that cannot pay the order is refunded in full by the engine: one approved after the order was cancelled or expired, one of another amount or currency (the order keeps waiting for a correct one), or a second one for an order already paid. It turns true once the provider accepted the refund (with an `order.updated` event); `paid` is about the payment that paid the order and is not changed by it.',
      }),
      amount_refunded: Type.Integer({ minimum: 0, description: 'CLP given back to the customer in all, 0 when nothing was (engine addition).' }),
    }),
    delivery: Nullable(
      Type.Object(
        {
          provider: DELIVERY_PROVIDER,
          status: Type.Union([Type.Enum([...DELIVERY_STATUSES]), Type.Null()], {
            description:
              'Null until something happens. `pendiente` (requested), `asignado`, `en_camino` (picked up), `entregado`, `cancelado`; `fallido` (engine addition) when the courier dispatch failed and is being retried.',
          }),
          tracking_url: Nullable(Type.String({ format: 'uri', description: 'The courier\'s tracking page; null for own delivery.' })),
        },
        { description: 'Null for pickup orders and for delivery orders of a location with neither own delivery nor couriers.' },
      ),
    ),
    scheduled_for: Nullable(DateTimeOut()),
    created_at: DateTimeOut(),
    updated_at: DateTimeOut(),
    test: Type.Boolean({ description: 'True for sandbox orders (label PRUEBA).' }),
    managed_by_integrator: Type.Boolean({ description: 'True when a POS integration owns the order (PATCH is 409).' }),
    // In the answer to POST /orders (and its replay) of an order that is not scheduled, and in the
    // order.updated event that moves it later when it slipped (issue 32); never in reads.
    promise: Type.Optional(ReadyTimePromise),
  }),
);

/**
 * The answer to POST /orders: the Order, and `payment_link` exactly when it is paid online. An
 * online order is created `pendiente_pago` and an external one never is (`recibido`, or
 * `programado` when scheduled), so `status` tells the two apart and a generated client sees
 * `payment_link` once it checked `status === 'pendiente_pago'`. The branches leave the Order's
 * fields to it (`unevaluatedProperties: true`, for example checkers that close every schema).
 */
export const CreatedOrder = named(
  'CreatedOrder',
  Type.Intersect([
    Order,
    Type.Union([
      named(
        'CreatedOnlineOrder',
        Type.Object(
          { status: Type.Literal('pendiente_pago'), payment_link: PaymentLink },
          { description: 'An online order: waiting for its payment at `payment_link.payment_url`.', unevaluatedProperties: true },
        ),
      ),
      named(
        'CreatedExternalOrder',
        Type.Object(
          { status: Type.Enum(['recibido', 'programado']) },
          { description: 'An order paid outside the platform: in the kitchen already (or scheduled); no `payment_link`.', unevaluatedProperties: true },
        ),
      ),
    ]),
  ]),
);

export const OrderList = named(
  'OrderPage',
  Type.Object({
    data: Type.Array(Order),
    has_more: Type.Boolean(),
    next_cursor: Nullable(Type.String({ description: 'Opaque; null on the last page.' })),
  }),
);
