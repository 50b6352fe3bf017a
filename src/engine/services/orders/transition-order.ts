import { canTransition, type PatchTarget } from '../../../shared/order-states.ts';
import { ApiError, notFound } from '../../domain/errors.ts';
import type { Engine, WriteTransaction } from '../../engine.ts';
import type { CourierRegistry } from '../../couriers/courier-registry.ts';
import type { OrderChanges, OrderRow } from '../../store/orders-store.ts';
import type { Actor } from '../../domain/actor.ts';
import { isCourierDelivery, OWN_DELIVERY_PROVIDER, requestCourierCancellation, requestCourierDispatch } from '../delivery/courier-dispatch.ts';
import { queueReadyMail } from '../mail/mail-outbox.ts';
import { ENGINE_DEVICE, logTransition } from '../kitchen/kitchen-timing-log.ts';
import type { OrderItemView, OrderView } from './order-view.ts';
import { queueArrivalTickets, queueBagLabels } from '../printing/print-jobs.ts';
import { toOrderView } from './order-view.ts';
import { requireWrite, restaurantOf } from '../keys/restaurant-context.ts';
import { recordStockChange } from '../menu/stock-events.ts';
import { worldOf } from '../../../shared/world.ts';

/**
 * Moves an order to `target` through the state machine, with its side effects, in one transaction.
 * Asking for the state the order is already in changes nothing and answers the order, so a
 * kitchen's queued retry is harmless.
 */
export async function transitionOrder(engine: Engine, actor: Actor, orderId: string, target: PatchTarget, couriers: CourierRegistry, tx?: WriteTransaction): Promise<OrderView> {
  requireWrite(actor);
  return await engine.within(tx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const order = await tx.stores.orders.get(restaurant.id, actor.world, orderId.toLowerCase());
    if (!order) throw notFound(`order ${orderId} not found`);
    if (order.managed_by !== null) {
      throw new ApiError('managed_by_integrator', `order ${order.number} is managed by the ${order.managed_by} integration and cannot be changed here`);
    }
    if (order.status === target) return toOrderView(order, restaurant.time_zone);
    if (!canTransition(order.status, order.type, target)) {
      throw new ApiError('illegal_transition', `order ${order.number} cannot go from ${order.status} to ${target}`);
    }
    const updated = await applyTransition(engine, tx, order, target, {}, couriers, actor.keyId);
    return toOrderView(updated, restaurant.time_zone);
  });
}

/**
 * Writes a legal transition with its side effects and its `order.updated` event. Also used by the
 * automatic transitions (payment, scheduled release, couriers, unpaid expiry): call it inside a
 * transaction, after checking legality.
 *
 * Side effects, all in the caller's transaction and none of them a call to the outside: cancelling
 * restores stock, closes open payment sessions and writes the courier's cancellation intent;
 * reaching `listo` writes the courier's dispatch intent for a courier delivery (`delivery.status =
 * pendiente`; the jobs runner calls the courier after the commit) and queues the customer's mail.
 * A replica leaves payments, couriers and mail to its upstream.
 *
 * `device`: who made the change, for the item timing log (the engine itself by default).
 *
 * `couriers` (Providers.couriers) says whether this engine has the adapter a dispatch intent
 * needs (none: `fallido` at once); only a transition that can reach `listo` needs them, so the
 * automatic transitions (which never do) leave them out, and the compiler holds them to it.
 */
export function applyTransition(engine: Engine, tx: WriteTransaction, order: OrderRow, target: OrderRow['status'], extra: OrderChanges, couriers: CourierRegistry, device?: string): Promise<OrderRow>;
export function applyTransition(engine: Engine, tx: WriteTransaction, order: OrderRow, target: Exclude<OrderRow['status'], 'listo'>, extra?: OrderChanges): Promise<OrderRow>;
export async function applyTransition(
  engine: Engine, tx: WriteTransaction,
  order: OrderRow,
  target: OrderRow['status'],
  extra: OrderChanges = {},
  couriers?: CourierRegistry,
  device: string = ENGINE_DEVICE,
): Promise<OrderRow> {
  const now = engine.clock.now();
  const sideEffects = engine.role !== 'replica';
  const changes: OrderChanges = { status: target, ...extra };
  if (target === 'cancelado') {
    if (order.stock_taken === 1) {
      await restoreStock(engine, tx, order, now);
      changes.stock_taken = 0;
    }
    if (order.delivery_provider !== null && order.delivery_status !== null && order.delivery_status !== 'entregado') {
      changes.delivery_status = 'cancelado';
    }
    if (sideEffects) {
      await tx.stores.paymentSessions.closeOpenOfOrder(order.id, 'cancelled', now);
      await requestCourierCancellation(engine, tx, order, now);
    }
  }
  if (order.delivery_provider === OWN_DELIVERY_PROVIDER) {
    if (target === 'en_reparto') changes.delivery_status = 'en_camino';
    if (target === 'entregado') changes.delivery_status = 'entregado';
  }
  if (target === 'listo' && sideEffects && isCourierDelivery(order)) {
    if (!couriers) throw new Error('a transition to listo needs the engine\'s couriers');
    Object.assign(changes, await requestCourierDispatch(engine, tx, couriers, order, now));
  }
  const updated = await writeOrderChanges(engine, tx, order, changes, now);
  // The item timing log (issue 32): lines fired, started, done or taken off their stations.
  await logTransition(engine, tx, order, target, device, now);
  if (target === 'listo' && sideEffects) await queueReadyMail(engine, tx, updated, now);
  // An online order reaches the kitchen once paid (on a replica, the upstream confirms the payment
  // and the mirror prints: mirror-upstream.ts).
  if (sideEffects && order.status === 'pendiente_pago' && (target === 'recibido' || target === 'programado')) await queueArrivalTickets(engine, tx, updated, now);
  // A delivery bumped to listo gets its bag label, on a replica too: its printers are its own (the
  // mirror of this bump, once the upstream has it, finds it listo already and prints nothing more).
  if (target === 'listo' && order.status !== 'listo') await queueBagLabels(engine, tx, updated, now);
  return updated;
}

/**
 * Writes changes that are not a transition (a courier's new delivery status) with their
 * `order.updated` event; call inside a transaction. Nothing changed, nothing written.
 */
export async function applyOrderChanges(engine: Engine, tx: WriteTransaction, order: OrderRow, changes: OrderChanges): Promise<OrderRow> {
  const differs = (Object.keys(changes) as (keyof OrderChanges)[]).some((key) => changes[key] !== order[key]);
  if (!differs) return order;
  return await writeOrderChanges(engine, tx, order, changes, engine.clock.now());
}

async function writeOrderChanges(engine: Engine, tx: WriteTransaction, order: OrderRow, changes: OrderChanges, now: number): Promise<OrderRow> {
  await tx.stores.orders.update(order.id, changes, now);
  const updated: OrderRow = { ...order, ...changes, updated_at: now } as OrderRow;
  const restaurant = (await tx.stores.restaurants.get(order.restaurant_id))!;
  await tx.stores.events.append(
    order.restaurant_id,
    worldOf(order.test),
    'order.updated',
    now,
    toOrderView(updated, restaurant.time_zone),
  );
  return updated;
}

/** Gives back the tracked stock an order took, with `stock.updated`; call inside a transaction. */
export async function restoreStock(engine: Engine, tx: WriteTransaction, order: OrderRow, now: number): Promise<void> {
  if (order.location_id === null) return;
  const returned = new Map<string, number>();
  for (const item of JSON.parse(order.items) as OrderItemView[]) {
    if (item.product_id === null) continue;
    const product = await tx.stores.catalogue.product(order.restaurant_id, item.product_id);
    if (!product || product.track_stock !== 1) continue;
    returned.set(product.id, (returned.get(product.id) ?? 0) + item.quantity);
  }
  for (const [productId, quantity] of returned) await tx.stores.stock.restore(order.location_id, productId, quantity);
  if (returned.size > 0) await recordStockChange(engine, tx, order.restaurant_id, order.location_id, [...returned.keys()], now);
}
