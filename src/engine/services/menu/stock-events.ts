import { mapInOrder } from '../../../shared/in-order.ts';
import type { Engine, WriteTransaction } from '../../engine.ts';

/** Appends a `stock.updated` event with the new quantities of `productIds` at the location. */
export async function recordStockChange(engine: Engine, tx: WriteTransaction, restaurantId: string, locationId: string, productIds: string[], at: number): Promise<void> {
  const items = (await mapInOrder(productIds, async (productId) => ({ product_id: productId, quantity: await tx.stores.stock.quantity(locationId, productId) })));
  await tx.stores.events.append(restaurantId, 'both', 'stock.updated', at, { location_id: locationId, items });
}
