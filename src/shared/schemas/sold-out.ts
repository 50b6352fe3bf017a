// The per-location "agotado" (86) switch (additive; api-v1-decisions.md, "Sold out").
import Type from 'typebox';
import { DateTimeOut, named, Nullable, Uuid, UuidOut } from './common.ts';

export const SOLD_OUT_KINDS = ['product', 'option'] as const;

export const SoldOutQuery = Type.Object({
  location_id: Uuid('The location whose sold-out dishes are read.'),
});

const SoldOutEntry = named(
  'SoldOutEntry',
  Type.Object({
    kind: Type.Enum([...SOLD_OUT_KINDS]),
    id: UuidOut('The product\'s or the option\'s id, as in GET /menu.'),
    name: Type.String(),
    product_id: UuidOut('The product itself, or the product the option belongs to.'),
    since: DateTimeOut('When it was marked sold out.'),
    until: Nullable(DateTimeOut('When it is available again by itself (the end of the kitchen\'s day, the restaurant\'s `sold_out_resets_at`); null: only when switched back.')),
  }),
);

export const SoldOutList = named(
  'SoldOutList',
  Type.Object(
    { location_id: UuidOut(), data: Type.Array(SoldOutEntry) },
    { description: 'What is sold out at the location now; the menu answers `available: false` for each, and POST /orders refuses them (409 insufficient_stock).' },
  ),
);

export const SetSoldOutBody = named(
  'SetSoldOutRequest',
  Type.Object({
    location_id: Uuid(),
    items: Type.Array(
      Type.Object({
        kind: Type.Enum([...SOLD_OUT_KINDS], { description: '`product`, or `option` (a modifier option).' }),
        id: Uuid('A product or option id from GET /menu; stock-tracked or not.'),
        sold_out: Type.Boolean({ description: 'true: agotado at this location; false: available again.' }),
      }),
      { minItems: 1, maxItems: 500 },
    ),
  }),
);
export type SetSoldOutInput = Type.Static<typeof SetSoldOutBody>;

export const SetSoldOutResult = named(
  'SetSoldOutResult',
  Type.Object({
    location_id: UuidOut(),
    data: Type.Array(SoldOutEntry, { description: 'What is sold out at the location after the write.' }),
    simulated: Type.Boolean({ description: 'True for sandbox keys: nothing was changed.' }),
  }),
);
