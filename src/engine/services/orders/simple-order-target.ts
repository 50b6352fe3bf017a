import { findInOrder } from '../../../shared/in-order.ts';
import type { Engine } from '../../engine.ts';
import { locationOpenState } from '../locations/location-status.ts';

/**
 * Where the simplest order of a restaurant can go now: a location open at this moment, and a product
 * with no stock to track and no modifier to choose (the demo's POS-managed order, demo/seed-demo.ts).
 * Null when the restaurant has neither.
 */
export async function simpleOrderTarget(engine: Engine, restaurantId: string): Promise<{ locationId: string; productId: string } | null> {
  return await engine.read(async (tx) => {
    const restaurant = await tx.stores.restaurants.get(restaurantId);
    if (!restaurant) return null;
    const now = engine.clock.now();
    const location = await findInOrder(await tx.stores.locations.list(restaurantId), async (l) => (await locationOpenState(engine, tx, restaurant, l, now)).openNow);
    const product = await findInOrder(
      (await tx.stores.catalogue.menu(restaurantId)).products,
      async (p) => p.track_stock === 0 && !(await tx.stores.catalogue.modifierGroups(p.id)).some((g) => g.required === 1 || g.min > 0),
    );
    return location && product ? { locationId: location.id, productId: product.id } : null;
  });
}
