import Type from 'typebox';
import { named, Nullable, Uuid, UuidOut } from './common.ts';

export const MenuQuery = Type.Object({
  location_id: Type.Optional(Uuid('Evaluate availability at this location; without it, at any active location.')),
});

const Option = named(
  'MenuOption',
  Type.Object({
    id: UuidOut(),
    name: Type.String(),
    price: Type.Integer({ description: 'CLP added to the product\'s price.' }),
    available: Type.Boolean({ description: 'Engine addition: false while the option is switched sold out ("agotado") at `location_id` (without it, at every active location).' }),
  }),
);

const ModifierGroup = named(
  'ModifierGroup',
  Type.Object({
    id: UuidOut(),
    name: Type.String(),
    required: Type.Boolean({ description: 'At least max(min, 1) options must be chosen.' }),
    min: Type.Integer(),
    max: Type.Integer(),
    options: Type.Array(Option),
  }),
);

const MenuItem = named(
  'MenuItem',
  Type.Object({
    id: UuidOut(),
    slug: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    price: Type.Integer({ description: 'CLP.' }),
    offer_price: Nullable(Type.Integer({ description: 'Lower price while on offer; null when none.' })),
    image_url: Nullable(Type.String({ format: 'uri' })),
    available: Type.Boolean({ description: 'Reflects inventory and the sold-out ("agotado") switch: at `location_id`, or at any active location without it.' }),
    modifier_groups: Type.Array(ModifierGroup),
  }),
);

const MenuCategory = named(
  'MenuCategory',
  Type.Object({
    id: UuidOut(),
    name: Type.String(),
    description: Nullable(Type.String()),
    products: Type.Array(MenuItem),
  }),
);

export const Menu = named('Menu', Type.Object({ categories: Type.Array(MenuCategory) }));
