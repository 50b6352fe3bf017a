import Type from 'typebox';
import { named, Uuid, UuidOut } from './common.ts';

export const StockQuery = Type.Object({
  location_id: Uuid('The location whose stock is read.'),
});

const StockItem = named(
  'StockItem',
  Type.Object({
    product_id: UuidOut(),
    name: Type.String(),
    quantity: Type.Integer({ description: '0 for a tracked product without a stock record at the location.' }),
  }),
);

export const StockList = named('StockList', Type.Object({ data: Type.Array(StockItem) }));

const StockLevel = named('StockLevel', Type.Object({ product_id: UuidOut(), quantity: Type.Integer() }));

export const SetStockBody = named(
  'SetStockRequest',
  Type.Object({
    location_id: Uuid(),
    items: Type.Array(
      Type.Object({ product_id: Uuid('A product with `track_stock`.'), quantity: Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'The new absolute quantity.' }) }),
      { minItems: 1, maxItems: 500 },
    ),
  }),
);

export const SetStockResult = named(
  'SetStockResult',
  Type.Object({
    data: Type.Array(StockLevel),
    simulated: Type.Boolean({ description: 'True for sandbox keys: nothing was changed.' }),
  }),
);
