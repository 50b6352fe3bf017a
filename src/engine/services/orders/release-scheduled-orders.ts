import { DateTime } from 'luxon';
import type { Engine } from '../../engine.ts';
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
export function dueScheduledOrders(engine: Engine, limitPerLocation = 100): string[] {
  const now = engine.clock.now();
  return engine.stores.restaurants
    .list()
    .flatMap((restaurant) => engine.stores.locations.list(restaurant.id))
    .flatMap((location) => engine.stores.dueOrders.scheduledBy(location.id, releaseHorizon(location, now), limitPerLocation));
}

/**
 * Releases one scheduled order to the kitchen (`programado` → `recibido`) in its own transaction.
 * Returns false (and changes nothing) when it is not, or no longer, due.
 */
export function releaseScheduledOrder(engine: Engine, orderId: string): boolean {
  return engine.transaction(() => {
    const now = engine.clock.now();
    const order = engine.stores.orders.getById(orderId);
    if (!order || order.status !== 'programado' || order.scheduled_for === null || order.location_id === null) return false;
    const location = engine.stores.locations.get(order.restaurant_id, order.location_id);
    if (!location || order.scheduled_for > releaseHorizon(location, now)) return false;
    applyTransition(engine, order, 'recibido');
    return true;
  });
}
