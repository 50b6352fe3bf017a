import type { Engine } from '../../engine.ts';
import { locationOpenState } from '../locations/location-status.ts';

/**
 * Where the simplest order of a restaurant can go now: a location open at this moment, and a product
 * with no stock to track and no modifier to choose (the demo's POS-managed order, demo/seed-demo.ts).
 * Null when the restaurant has neither.
 */
export function simpleOrderTarget(engine: Engine, restaurantId: string): { locationId: string; productId: string } | null {
  return engine.read(() => {
    const restaurant = engine.stores.restaurants.get(restaurantId);
    if (!restaurant) return null;
    const now = engine.clock.now();
    const location = engine.stores.locations.list(restaurantId).find((l) => locationOpenState(engine, restaurant, l, now).openNow);
    const product = engine.stores.catalogue
      .menu(restaurantId)
      .products.find((p) => p.track_stock === 0 && !engine.stores.catalogue.modifierGroups(p.id).some((g) => g.required === 1 || g.min > 0));
    return location && product ? { locationId: location.id, productId: product.id } : null;
  });
}
