import { ApiError } from '../domain/errors.ts';
import type { Engine } from '../engine.ts';
import type { RestaurantRow } from '../store/restaurants-store.ts';
import type { Actor } from '../domain/actor.ts';

export function restaurantOf(engine: Engine, actor: Actor): RestaurantRow {
  const restaurant = engine.stores.restaurants.get(actor.restaurantId);
  // A key whose restaurant is gone is as good as revoked.
  if (!restaurant) throw new ApiError('unauthorized', 'the API key does not belong to an existing restaurant');
  return restaurant;
}

export function requireWrite(actor: Actor): void {
  if (!actor.canWrite) throw new ApiError('forbidden', 'this API key is read-only; writes need a key with the write permission');
}
