import { DateTime } from 'luxon';
import { RECALL_MINUTES } from '../../../shared/kitchen-ticket-rules.ts';
import { isTerminal } from '../../../shared/order-states.ts';
import { KitchenError, notFound } from '../../domain/errors.ts';
import type { Engine, WriteTransaction } from '../../engine.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { Actor } from '../../domain/actor.ts';
import { requireWrite, restaurantOf } from '../keys/restaurant-context.ts';
import { KITCHEN_EVENTS } from '../../../shared/screen-contract/kitchen.ts';
import { logRecalled } from './kitchen-timing-log.ts';
import { worldOf } from '../../../shared/world.ts';

export interface RecallResult {
  order: OrderRow;
  recalled_until: number;
  /** false when the ticket was already recalled until this time or later (nothing written). */
  changed: boolean;
}

/**
 * Puts a finished ticket back on every screen of the restaurant for RECALL_MINUTES, marked, in one
 * transaction with its kitchen event: a write of the kitchen, done by an actor that may write, in
 * its world (a test order in the test world). The order's state is not touched: the state machine
 * only moves forward. Recalling again extends the time. A replica queues it for its upstream
 * (sync/replica-commands.ts), so a bump on the recalled ticket is accepted there too.
 */
export async function recallOrder(engine: Engine, actor: Actor, orderId: string, until?: number, tx?: WriteTransaction): Promise<RecallResult> {
  requireWrite(actor);
  return await engine.within(tx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const order = await tx.stores.orders.get(restaurant.id, actor.world, orderId.toLowerCase());
    if (!order) throw notFound(`order ${orderId} not found`);
    if (!isTerminal(order.status)) {
      throw new KitchenError('ticket_not_finished', `order ${order.number} is ${order.status}: it is still on the board`);
    }
    const now = engine.clock.now();
    // `until`: the time the replica's kitchen chose, so both sides show the ticket for as long.
    const recalledUntil = until ?? DateTime.fromMillis(now).plus({ minutes: RECALL_MINUTES }).toMillis();
    if ((await tx.stores.kitchenData.recalledUntil(order.id) ?? 0) >= recalledUntil) return { order, recalled_until: recalledUntil, changed: false };
    await tx.stores.kitchenData.recall(order.id, now, recalledUntil);
    await logRecalled(engine, tx, order, actor.keyId, now);
    await tx.stores.events.append(restaurant.id, worldOf(order.test), KITCHEN_EVENTS.recall, now, {
      order_id: order.id,
      recalled_until: recalledUntil,
    });
    return { order, recalled_until: recalledUntil, changed: true };
  });
}
