import { mapInOrder } from '../../../shared/in-order.ts';
import type { Engine, WriteTransaction } from '../../engine.ts';

/**
 * Appends a `stock.updated` event with the new quantities of `productIds` at the location (`known`:
 * those the caller just read, by product; the others are read).
 */
export async function recordStockChange(
  engine: Engine, tx: WriteTransaction, restaurantId: string, locationId: string, productIds: string[], at: number,
  known?: ReadonlyMap<string, number>,
): Promise<void> {
  const items = (await mapInOrder(productIds, async (productId) => ({
    product_id: productId,
    quantity: known?.get(productId) ?? (await tx.stores.stock.quantity(locationId, productId)),
  })));
  await tx.stores.events.appendWithoutSeq(restaurantId, 'both', 'stock.updated', at, { location_id: locationId, items });
}
