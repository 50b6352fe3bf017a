import { DEFAULT_TIME_ZONE } from '../../../shared/locale.ts';
import { ApiError, notFound } from '../../domain/errors.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import type { RestaurantRow } from '../../store/restaurants-store.ts';
import type { Actor } from '../../domain/actor.ts';
import { worldOf, type World } from '../../../shared/world.ts';
import { WriteTransaction } from '../../transaction.ts';

/**
 * The actor's restaurant (refused when gone). Inside a write, its clock row is taken first (issue
 * 34): on PostgreSQL the restaurant's writes then commit one after another on every node, and what
 * the write reads after it is what the one before committed (two cancels of one order see each
 * other, as under SQLite's lock).
 */
export async function restaurantOf(engine: Engine, actor: Actor, callerTx?: ReadTransaction): Promise<RestaurantRow> {
  if (callerTx instanceof WriteTransaction) await callerTx.takeRestaurant(actor.restaurantId);
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await tx.stores.restaurants.get(actor.restaurantId);
    // A key whose restaurant is gone is as good as revoked.
    if (!restaurant) throw new ApiError('unauthorized', 'the API key does not belong to an existing restaurant');
    return restaurant;
  });
}

export function requireWrite(actor: Actor): void {
  if (!actor.canWrite) throw new ApiError('forbidden', 'this API key is read-only; writes need a key with the write permission');
}

/** The restaurants this file holds (the app chooses one; the demo and the jobs go through them all). */
export async function listRestaurants(engine: Engine, callerTx?: ReadTransaction): Promise<{ id: string; name: string }[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    return (await tx.stores.restaurants.list()).map((restaurant) => ({ id: restaurant.id, name: restaurant.name }));
  });
}

export async function restaurantExists(engine: Engine, restaurantId: string, callerTx?: ReadTransaction): Promise<boolean> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await tx.stores.restaurants.get(restaurantId) !== undefined;
  });
}

/** The restaurant's own time zone (a replica's is set at its first pull), for reading and writing its times. */
export async function restaurantTimeZone(engine: Engine, restaurantId: string, callerTx?: ReadTransaction): Promise<string> {
  return await engine.readWithin(callerTx, async (tx) => {
    return (await tx.stores.restaurants.get(restaurantId))?.time_zone ?? DEFAULT_TIME_ZONE;
  });
}

/**
 * An order of this restaurant, by its id as a screen sent it (any case): its id and its world.
 * Another restaurant's order is as unknown as one that does not exist.
 */
export async function orderOfRestaurant(engine: Engine, restaurantId: string, orderId: string, callerTx?: ReadTransaction): Promise<{ id: string; world: World }> {
  return await engine.readWithin(callerTx, async (tx) => {
    const row = await tx.stores.orders.getById(orderId.toLowerCase());
    if (!row || row.restaurant_id !== restaurantId) throw notFound(`order ${orderId} not found`);
    return { id: row.id, world: worldOf(row.test) };
  });
}
