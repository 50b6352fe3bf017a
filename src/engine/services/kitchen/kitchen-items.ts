import { isTerminal } from '../../../shared/order-states.ts';
import { ApiError, KitchenError, notFound } from '../../domain/errors.ts';
import type { Engine, WriteTransaction } from '../../engine.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { Actor } from '../../domain/actor.ts';
import { KITCHEN_EVENTS } from '../../../shared/screen-contract/kitchen.ts';
import { logItemDone, logLineStarted } from './kitchen-timing-log.ts';
import { requireWrite, restaurantOf } from '../keys/restaurant-context.ts';
import { worldOf } from '../../../shared/world.ts';

export interface ItemDoneResult {
  order: OrderRow;
  item_index: number;
  done: boolean;
  /** false when the line already was in that state (nothing written, no event). */
  changed: boolean;
}

/** The actor's order that has line `itemIndex`, or not found (which order, which line). */
async function orderWithLine(engine: Engine, actor: Actor, tx: WriteTransaction, orderId: string, itemIndex: number) {
  const restaurant = await restaurantOf(engine, actor, tx);
  const order = await tx.stores.orders.get(restaurant.id, actor.world, orderId.toLowerCase());
  if (!order) throw notFound(`order ${orderId} not found`);
  const lines = (JSON.parse(order.items) as unknown[]).length;
  if (itemIndex >= lines) throw notFound(`order ${order.number} has no item ${itemIndex} (it has ${lines})`);
  return { restaurant, order };
}

/**
 * Item-level bump: marks one line of an order done (or not), with its kitchen event, in one
 * transaction. Kitchen data: the order itself (state, `updated_at`, the API's feed) is untouched.
 * Asking for the state the line is already in changes nothing, so a queued retry is harmless.
 */
export async function setItemDone(engine: Engine, actor: Actor, orderId: string, itemIndex: number, done: boolean, tx?: WriteTransaction): Promise<ItemDoneResult> {
  requireWrite(actor);
  return await engine.within(tx, async (tx) => {
    const { restaurant, order } = await orderWithLine(engine, actor, tx, orderId, itemIndex);
    const before = (await tx.stores.kitchenData.itemState(order.id, itemIndex))?.done === 1;
    if (before === done) return { order, item_index: itemIndex, done, changed: false };
    const now = engine.clock.now();
    if (isTerminal(order.status) && (await tx.stores.kitchenData.recalledUntil(order.id) ?? 0) <= now) {
      throw new KitchenError('ticket_finished', `order ${order.number} is ${order.status}; recall it to change its items`);
    }
    await tx.stores.kitchenData.setItemState(order.id, itemIndex, done, now);
    await logItemDone(engine, tx, order, itemIndex, done, actor.keyId, now);
    await tx.stores.events.append(restaurant.id, worldOf(order.test), KITCHEN_EVENTS.item, now, {
      order_id: order.id,
      item_index: itemIndex,
      done,
    });
    return { order, item_index: itemIndex, done, changed: true };
  });
}

export interface ItemStartedResult {
  order: OrderRow;
  item_index: number;
  started: boolean;
  /** false when the line already was in that state, or is done (nothing written, no event). */
  changed: boolean;
}

/**
 * A line started at its station (issue 32): the board's first tap on it. Marks it started (or not:
 * the undo tray), logs it in the item timing log as an explicit start (station, device), so that the
 * promise schedules it from its real start and its held lines fire from it, with its kitchen event,
 * in one transaction. A done line is neither started nor unstarted (its bump says more); asking for
 * the state it is in changes nothing, so a queued retry is harmless.
 */
export async function setItemStarted(engine: Engine, actor: Actor, orderId: string, itemIndex: number, started: boolean, tx?: WriteTransaction): Promise<ItemStartedResult> {
  requireWrite(actor);
  return await engine.within(tx, async (tx) => {
    const { restaurant, order } = await orderWithLine(engine, actor, tx, orderId, itemIndex);
    const state = await tx.stores.kitchenData.itemState(order.id, itemIndex);
    const wasStarted = state !== undefined && state.started_at !== null;
    if (state?.done === 1 || wasStarted === started) return { order, item_index: itemIndex, started: wasStarted, changed: false };
    const now = engine.clock.now();
    if (isTerminal(order.status) || order.status === 'listo') {
      throw new KitchenError('ticket_finished', `order ${order.number} is ${order.status}; its items are not cooked any more`);
    }
    if (order.status !== 'recibido' && order.status !== 'en_preparacion') {
      throw new ApiError('state_conflict', `order ${order.number} is ${order.status}; its items are not in the kitchen yet`);
    }
    await tx.stores.kitchenData.setItemStarted(order.id, itemIndex, started ? now : null, now);
    await logLineStarted(engine, tx, order, itemIndex, started, actor.keyId, now);
    await tx.stores.events.append(restaurant.id, worldOf(order.test), KITCHEN_EVENTS.item, now, {
      order_id: order.id,
      item_index: itemIndex,
      done: false,
      started,
    });
    return { order, item_index: itemIndex, started, changed: true };
  });
}
