import Type from 'typebox';
import { Nullable, Uuid } from './common.ts';

export const MenuQuery = Type.Object({
  location_id: Type.Optional(Uuid('Evaluate availability at this location; without it, at any active location.')),
});

const Option = Type.Object({ id: Type.String(), name: Type.String(), price: Type.Integer() });

const ModifierGroup = Type.Object({
  id: Type.String(),
  name: Type.String(),
  required: Type.Boolean(),
  min: Type.Integer(),
  max: Type.Integer(),
  options: Type.Array(Option),
});

const Product = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  price: Type.Integer(),
  offer_price: Nullable(Type.Integer({ description: 'Lower price while on offer; null when none.' })),
  image_url: Nullable(Type.String()),
  available: Type.Boolean({ description: 'Reflects inventory.' }),
  modifier_groups: Type.Array(ModifierGroup),
});

export const Menu = Type.Object({
  categories: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      description: Nullable(Type.String()),
      products: Type.Array(Product),
    }),
  ),
});
