import { invalidRequest } from '../../domain/errors.ts';
import type { Actor } from '../../domain/actor.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import { cooksOnShift } from './kitchen-promise.ts';
import { readKitchenSettings } from './kitchen-settings.ts';
import { requireWrite, restaurantOf } from '../keys/restaurant-context.ts';

/** At most this many cooks on one station (as the restaurant file allows). */
export const MAX_STATION_COOKS = 50;

/** The cooks on shift per station now: the hub's count where set, else the restaurant file's. */
export async function readStationCooks(engine: Engine, actor: Actor, callerTx?: ReadTransaction): Promise<{ station_id: string; name: string; cooks: number }[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const settings = await readKitchenSettings(engine, restaurant.id, tx);
    const cooks = await cooksOnShift(engine, restaurant.id, settings, undefined, tx);
    return settings.stations.map((s) => ({ station_id: s.id, name: s.name, cooks: cooks.get(s.id) ?? 1 }));
  });
}

/**
 * "+ / −" on the hub during service: the cooks on shift at a station, from now on, for every
 * promise (at least 1: a station nobody works is not one the promise can schedule).
 */
export async function setStationCooks(engine: Engine, actor: Actor, stationId: string, cooks: number): Promise<{ station_id: string; cooks: number }> {
  requireWrite(actor);
  if (!Number.isInteger(cooks) || cooks < 1 || cooks > MAX_STATION_COOKS) throw invalidRequest(`cooks must be an integer from 1 to ${MAX_STATION_COOKS}`);
  return await engine.transaction(async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const settings = await readKitchenSettings(engine, restaurant.id, tx);
    if (!settings.stations.some((s) => s.id === stationId)) throw invalidRequest(`station ${stationId} is not one of the restaurant's stations`);
    await tx.stores.kitchenTimings.setStationCooks(restaurant.id, stationId, cooks, engine.clock.now());
    return { station_id: stationId, cooks };
  });
}
