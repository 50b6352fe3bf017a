import type { Engine } from '../../engine.ts';

/** Appends a `stock.updated` event with the new quantities of `productIds` at the location. */
export function recordStockChange(engine: Engine, restaurantId: string, locationId: string, productIds: string[], at: number): void {
  const items = productIds.map((productId) => ({ product_id: productId, quantity: engine.stores.stock.quantity(locationId, productId) }));
  engine.stores.events.append(restaurantId, 'both', 'stock.updated', at, { location_id: locationId, items });
}
