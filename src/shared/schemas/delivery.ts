import Type from 'typebox';
import { DateTimeOut, Nullable, Uuid } from './common.ts';

export const QuoteBody = Type.Object({
  location_id: Uuid(),
  dropoff: Type.Object({
    address: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    latitude: Type.Optional(Nullable(Type.Number({ minimum: -90, maximum: 90 }))),
    longitude: Type.Optional(Nullable(Type.Number({ minimum: -180, maximum: 180 }))),
    city: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    street: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
    state: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    zip: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  }),
  subtotal: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
});
export type QuoteInput = Type.Static<typeof QuoteBody>;

export const Quote = Type.Object({
  available: Type.Boolean(),
  provider: Nullable(Type.String()),
  fee: Type.Integer(),
  fee_original: Type.Integer(),
  fee_subsidy: Type.Integer(),
  currency: Type.String(),
  duration_minutes: Type.Integer(),
  expires: DateTimeOut(),
  message: Type.String(),
});
