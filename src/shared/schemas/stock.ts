import Type from 'typebox';
import { Uuid } from './common.ts';

export const StockQuery = Type.Object({
  location_id: Type.Optional(Uuid('Required: the location whose stock is read.')),
});

export const StockList = Type.Object({
  data: Type.Array(Type.Object({ product_id: Type.String(), name: Type.String(), quantity: Type.Integer() })),
});

export const SetStockBody = Type.Object({
  location_id: Uuid(),
  items: Type.Array(
    Type.Object({ product_id: Uuid(), quantity: Type.Integer({ minimum: 0, maximum: 1_000_000 }) }),
    { minItems: 1, maxItems: 500 },
  ),
});

export const SetStockResult = Type.Object({
  data: Type.Array(Type.Object({ product_id: Type.String(), quantity: Type.Integer() })),
  simulated: Type.Boolean(),
});
