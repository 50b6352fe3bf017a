import { flatMapInOrder } from '../../../shared/in-order.ts';
import { DateTime } from 'luxon';
import type { Engine, ReadTransaction } from '../../engine.ts';
import type { LocationRow } from '../../store/locations-store.ts';
import { applyTransition } from './transition-order.ts';

/** Orders of the location scheduled at or before this moment are due for the kitchen now. */
function releaseHorizon(location: LocationRow, now: number): number {
  return DateTime.fromMillis(now).plus({ minutes: location.preparation_lead_minutes }).toMillis();
}

/**
 * Paid scheduled orders (`programado`) whose release time, `scheduled_for` minus the location's
 * preparation lead, has come. Found from the database alone, so a restart loses none.
 */
export async function dueScheduledOrders(engine: Engine, limitPerLocation = 100, callerTx?: ReadTransaction): Promise<string[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    const now = engine.clock.now();
    const locations = await flatMapInOrder(await tx.stores.restaurants.list(), async (restaurant) => await tx.stores.locations.list(restaurant.id));
    return await flatMapInOrder(locations, async (location) => await tx.stores.dueOrders.scheduledBy(location.id, releaseHorizon(location, now), limitPerLocation));
  });
}

/**
 * Releases one scheduled order to the kitchen (`programado` → `recibido`) in its own transaction.
 * Returns false (and changes nothing) when it is not, or no longer, due.
 */
export async function releaseScheduledOrder(engine: Engine, orderId: string): Promise<boolean> {
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const order = await tx.stores.orders.getById(orderId);
    if (!order || order.status !== 'programado' || order.scheduled_for === null || order.location_id === null) return false;
    const location = await tx.stores.locations.get(order.restaurant_id, order.location_id);
    if (!location || order.scheduled_for > releaseHorizon(location, now)) return false;
    await applyTransition(engine, tx, order, 'recibido');
    return true;
  });
}
