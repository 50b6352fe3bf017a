// What the pickup screen shows: numbers of today's orders being prepared and ready, pickup orders
// only unless the restaurant added deliveries (for its couriers), and of the customer at most the
// first name, only when the restaurant chose to show it. Test orders stay off a screen customers read.
import { DateTime } from 'luxon';
import type { PickupBoard, PickupNumber } from '../../../shared/screen-contract/pickup.ts';
import { hubNumberShown } from '../../../shared/order-number.ts';
import { notFound } from '../../domain/errors.ts';
import { firstNameOf } from '../../domain/pickup-first-name.ts';
import type { Engine } from '../../engine.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import { startOfLocalDay } from './kitchen-board.ts';
import { readPickupScreenSettings } from './pickup-screen-settings.ts';

const PREPARING = new Set(['recibido', 'en_preparacion']);
/** Numbers compare as numbers where they are ("9" before "10"), as text otherwise (a replica's "L12"). */
const byNumber = (a: string, b: string) => a.localeCompare(b, 'es', { numeric: true });

export async function readPickupBoard(engine: Engine, restaurantId: string): Promise<PickupBoard> {
  const restaurant = await engine.read(async (tx) => await tx.stores.restaurants.get(restaurantId));
  if (!restaurant) throw notFound(`restaurant ${restaurantId} not found`);
  const now = engine.clock.now();
  const { shown, promises, settings } = await engine.read(async (tx) => {
    const settings = await readPickupScreenSettings(engine, restaurant.id, tx);
    const rows = await tx.stores.kitchen.currentOrders(restaurant.id, startOfLocalDay(now, restaurant.time_zone));
    const types = settings.order_types === 'pickup_and_delivery' ? new Set(['retiro', 'delivery']) : new Set(['retiro']);
    const shown = rows.filter((r) => types.has(r.type) && r.test === 0);
    // Issue 32: the time promised to each customer waiting (the last one, when it slipped).
    const preparingIds = shown.filter((r) => PREPARING.has(r.status)).map((r) => r.id);
    const promises = new Map((await tx.stores.kitchenTimings.currentPromisesOf(preparingIds)).map((p) => [p.order_id, p.promised_ready_at]));
    return { shown, promises, settings };
  });
  // Built field by field: nothing of the row reaches the screen unless named here.
  const numberOf = (r: OrderRow, readyAt: number | null): PickupNumber => {
    const first = settings.show_first_name ? firstNameOf(r.customer_name) : null;
    // "1042 · L7" for a replica's own order until done: the customer's paper may say L7.
    const hub = hubNumberShown(r);
    const promised = readyAt === null ? promises.get(r.id) : undefined;
    return {
      number: r.number,
      ready_at: readyAt,
      ...(first === null ? {} : { first_name: first }),
      ...(hub === null ? {} : { hub_number: hub }),
      ...(promised === undefined ? {} : { promised_time: DateTime.fromMillis(promised, { zone: restaurant.time_zone }).toFormat('HH:mm') }),
    };
  };
  const preparing = shown
    .filter((r) => PREPARING.has(r.status))
    .sort((a, b) => a.created_at - b.created_at || byNumber(a.number, b.number))
    .map((r) => numberOf(r, null));
  const ready = shown
    .filter((r) => r.status === 'listo')
    .sort((a, b) => b.updated_at - a.updated_at || byNumber(b.number, a.number))
    .map((r) => numberOf(r, r.updated_at));
  return { restaurant_name: restaurant.name, language: settings.language, preparing, ready, now };
}
