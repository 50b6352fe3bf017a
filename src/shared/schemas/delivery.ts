import Type from 'typebox';
import { DateTimeOut, named, Nullable, Text, Uuid } from './common.ts';

/**
 * `delivery.status` (api-v1-decisions.md, Delivery), plus `fallido`: the engine's mark for a
 * courier dispatch that failed and is retried while the order is `listo`.
 */
export const DELIVERY_STATUSES = ['pendiente', 'asignado', 'en_camino', 'entregado', 'cancelado', 'fallido'] as const;

/** Own delivery, and the courier adapter every engine has (src/engine/couriers). */
const KNOWN_DELIVERY_PROVIDERS = ['propio', 'simulado'] as const;

/** A courier's name as locations list it in their preference (restaurant file). */
export const COURIER_NAME_PATTERN = '^[a-z][a-z0-9_]*$';

export const DELIVERY_PROVIDER = named(
  'DeliveryProvider',
  Type.Union(
    [
      Type.Enum([...KNOWN_DELIVERY_PROVIDERS], { description: '`propio` (own delivery) or `simulado` (the built-in simulated courier).' }),
      Type.String({
        pattern: COURIER_NAME_PATTERN,
        maxLength: 50,
        description: 'Another courier, by the lowercase name the location lists in its courier preference (an adapter an embedder registered).',
      }),
    ],
    { description: 'Who delivers: `propio` for own delivery, else a courier\'s lowercase name.' },
  ),
);

export const QuoteBody = named(
  'QuoteRequest',
  Type.Object({
    location_id: Uuid('The location that would deliver.'),
    dropoff: Type.Object({
      address: Type.Optional(Nullable(Text({ maxLength: 500 }))),
      latitude: Type.Optional(Nullable(Type.Number({ minimum: -90, maximum: 90, description: 'Needed to validate own-delivery coverage.' }))),
      longitude: Type.Optional(Nullable(Type.Number({ minimum: -180, maximum: 180, description: 'Needed to validate own-delivery coverage.' }))),
      city: Type.Optional(Nullable(Text({ maxLength: 200 }))),
      street: Type.Optional(Nullable(Text({ maxLength: 300 }))),
      state: Type.Optional(Nullable(Text({ maxLength: 200 }))),
      zip: Type.Optional(Nullable(Text({ maxLength: 20 }))),
    }),
    subtotal: Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'CLP; used for the shipping subsidies.' }),
  }),
);
export type QuoteInput = Type.Static<typeof QuoteBody>;

export const Quote = named(
  'Quote',
  Type.Object({
    available: Type.Boolean({ description: 'False: no delivery to that address (offer pickup); `message` says why.' }),
    provider: Nullable(DELIVERY_PROVIDER),
    fee: Type.Integer({ description: 'CLP the customer pays; send it as `shipping_fee`.' }),
    fee_original: Type.Integer({ description: 'The provider\'s cost before subsidies.' }),
    fee_subsidy: Type.Integer({ description: 'The part the restaurant pays.' }),
    currency: Type.Literal('CLP'),
    duration_minutes: Type.Integer(),
    expires: DateTimeOut('10 minutes after the quote; informational.'),
    message: Type.String(),
  }),
);
