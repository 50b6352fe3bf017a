import { flatMapInOrder } from '../../../shared/in-order.ts';
import { DateTime } from 'luxon';
import type { Engine, ReadTransaction } from '../../engine.ts';
import type { RestaurantRow } from '../../store/restaurants-store.ts';
import { applyTransition } from './transition-order.ts';

/** The moment at or before which an online order of the restaurant must have been created to expire now. */
function unpaidCutoff(restaurant: RestaurantRow, now: number): number {
  return DateTime.fromMillis(now).minus({ minutes: restaurant.payment_timeout_minutes }).toMillis();
}

/**
 * Online orders still `pendiente_pago` once their restaurant's payment timeout (30 minutes unless
 * configured) has run out since creation. Found from the database alone, so a restart loses none.
 */
export async function dueUnpaidOrders(engine: Engine, limitPerRestaurant = 100, callerTx?: ReadTransaction): Promise<string[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    const now = engine.clock.now();
    return await flatMapInOrder(await tx.stores.restaurants.list(), async (restaurant) => await tx.stores.dueOrders.awaitingPaymentCreatedBy(restaurant.id, unpaidCutoff(restaurant, now), limitPerRestaurant));
  });
}

/**
 * Cancels one unpaid online order whose time ran out, in its own transaction: its payment page
 * closes (saying it expired), its stock comes back, an `order.updated` event is written.
 * Returns false (and changes nothing) when the order is not, or no longer, due.
 */
export async function expireUnpaidOrder(engine: Engine, orderId: string): Promise<boolean> {
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const order = await tx.stores.orders.getById(orderId);
    if (!order || order.status !== 'pendiente_pago') return false;
    const restaurant = await tx.stores.restaurants.get(order.restaurant_id);
    if (!restaurant || order.created_at > unpaidCutoff(restaurant, now)) return false;
    await tx.stores.paymentSessions.closeOpenOfOrder(order.id, 'expired', now);
    await applyTransition(engine, tx, order, 'cancelado');
    return true;
  });
}
