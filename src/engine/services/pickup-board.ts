// What the pickup screen shows: numbers of today's pickup orders being prepared and ready, nothing
// more about the customer. Test orders stay off a screen customers read; so do deliveries.
import type { PickupBoard, PickupNumber } from '../../shared/ipc/pickup.ts';
import { notFound } from '../domain/errors.ts';
import type { Engine } from '../engine.ts';
import { startOfLocalDay } from './kitchen-board.ts';

const PREPARING = new Set(['recibido', 'en_preparacion']);
/** Numbers compare as numbers where they are ("9" before "10"), as text otherwise (a replica's "L12"). */
const byNumber = (a: string, b: string) => a.localeCompare(b, 'es', { numeric: true });

export function readPickupBoard(engine: Engine, restaurantId: string): PickupBoard {
  const restaurant = engine.stores.restaurants.get(restaurantId);
  if (!restaurant) throw notFound(`restaurant ${restaurantId} not found`);
  const now = engine.clock.now();
  const rows = engine.read(() => engine.stores.kitchen.currentOrders(restaurant.id, startOfLocalDay(now, restaurant.time_zone)));
  const pickup = rows.filter((r) => r.type === 'retiro' && r.test === 0);
  const preparing: PickupNumber[] = pickup
    .filter((r) => PREPARING.has(r.status))
    .sort((a, b) => a.created_at - b.created_at || byNumber(a.number, b.number))
    .map((r) => ({ number: r.number, ready_at: null }));
  const ready: PickupNumber[] = pickup
    .filter((r) => r.status === 'listo')
    .sort((a, b) => b.updated_at - a.updated_at || byNumber(b.number, a.number))
    .map((r) => ({ number: r.number, ready_at: r.updated_at }));
  return { restaurant_name: restaurant.name, preparing, ready, now };
}
