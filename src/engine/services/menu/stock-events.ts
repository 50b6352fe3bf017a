import { mapInOrder } from '../../../shared/in-order.ts';
import type { Engine } from '../../engine.ts';

/** Appends a `stock.updated` event with the new quantities of `productIds` at the location. */
export async function recordStockChange(engine: Engine, restaurantId: string, locationId: string, productIds: string[], at: number): Promise<void> {
  const items = (await mapInOrder(productIds, async (productId) => ({ product_id: productId, quantity: await engine.stores.stock.quantity(locationId, productId) })));
  await engine.stores.events.append(restaurantId, 'both', 'stock.updated', at, { location_id: locationId, items });
}
