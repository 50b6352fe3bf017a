import { DateTime } from 'luxon';
import { RECALL_MINUTES } from '../../shared/kitchen-ticket-rules.ts';
import { isTerminal } from '../../shared/order-states.ts';
import { KitchenError, notFound } from '../domain/errors.ts';
import type { Engine } from '../engine.ts';
import type { OrderRow } from '../store/orders-store.ts';
import { KITCHEN_EVENTS } from './kitchen-board.ts';

/**
 * Puts a finished ticket back on every screen of the restaurant for RECALL_MINUTES, marked, in one
 * transaction with its kitchen event. The order's state is not touched: the state machine only
 * moves forward. Recalling again extends the time.
 */
export function recallOrder(engine: Engine, restaurantId: string, orderId: string): { order: OrderRow; recalled_until: number } {
  return engine.transaction(() => {
    const order = engine.orders.getById(orderId.toLowerCase());
    if (!order || order.restaurant_id !== restaurantId) throw notFound(`order ${orderId} not found`);
    if (!isTerminal(order.status)) {
      throw new KitchenError('ticket_not_finished', `order ${order.number} is ${order.status}: it is still on the board`);
    }
    const now = engine.clock.now();
    const until = DateTime.fromMillis(now).plus({ minutes: RECALL_MINUTES }).toMillis();
    engine.kitchenData.recall(order.id, now, until);
    engine.events.append(restaurantId, order.test === 1 ? 'test' : 'live', KITCHEN_EVENTS.recall, now, {
      order_id: order.id,
      recalled_until: until,
    });
    return { order, recalled_until: until };
  });
}
