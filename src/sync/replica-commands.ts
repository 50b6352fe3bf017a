import { ApiError } from '../engine/domain/errors.ts';
import type { Engine, WriteTransaction } from '../engine/engine.ts';
import { localCommands, type EngineCommands } from '../engine/services/engine-commands.ts';
import { getOrder } from '../engine/services/orders/read-orders.ts';
import { setKnownLocationOpen } from '../engine/services/replica/mirror-upstream.ts';
import { queueForUpstream, stockBefore } from '../engine/services/replica/replica-outbox.ts';
import type { World } from '../shared/world.ts';

/**
 * The replica's writes: each is applied locally through the same services as anywhere else and,
 * in the same transaction, appended to the durable outbox the pusher sends upstream.
 *
 * Orders of the replica's world (`world`, the platform key's) are sent whatever that world
 * is: sandbox orders run the whole kitchen flow and sync like live ones. Orders of the other world
 * (a local sandbox key on a live replica, say) stay local: the platform key cannot speak for them.
 * Stock and open/close are simulated in sandbox: such writes change nothing, so send nothing.
 */
export function replicaCommands(engine: Engine, world: World, onQueued: () => void): EngineCommands {
  // No couriers: a replica's engine writes no dispatch intent (Engine role `replica`), its upstream dispatches.
  const local = localCommands(engine, new Map());
  const ourWorld = (order: { test: boolean }) => order.test === (world === 'test');
  /** The local change and its outbox row in one transaction (the caller's, when it hands one); the pusher is woken after. */
  const committed = async <T>(work: (tx: WriteTransaction) => Promise<T>, tx?: WriteTransaction): Promise<T> => {
    const result = await engine.within(tx, work);
    onQueued();
    return result;
  };
  return {
    async createOrder(actor, input, options) {
      if (input.payment === 'online') {
        // Reached only when the upstream cannot be: online orders are forwarded while it can.
        throw new ApiError('payment_unavailable', 'online payment needs the platform, which cannot be reached right now');
      }
      return await committed(async (tx) => {
        const order = await local.createOrder(actor, input, { ...options, tx });
        if (ourWorld(order)) await queueForUpstream(engine, 'create_order', input, { orderId: order.id }, tx);
        return order;
      }, options.tx);
    },
    async transitionOrder(actor, orderId, target, outer) {
      return await committed(async (tx) => {
        const before = await getOrder(engine, actor, orderId, tx);
        const order = await local.transitionOrder(actor, orderId, target, tx);
        if (ourWorld(order) && before.status !== order.status) {
          await queueForUpstream(engine, 'transition_order', { status: target }, { orderId: order.id }, tx);
        }
        return order;
      }, outer);
    },
    async setStock(actor, input, outer) {
      return await committed(async (tx) => {
        const locationId = input.location_id.toLowerCase();
        // What each write replaced travels with it: the pusher tells a concurrent upstream change from ours.
        const replaced = await stockBefore(engine, locationId, input.items.map((item) => item.product_id.toLowerCase()), tx);
        const result = await local.setStock(actor, input, tx);
        if (!result.simulated) {
          await queueForUpstream(engine, 'set_stock', { location_id: locationId, items: result.data, replaced }, { locationId }, tx);
        }
        return result;
      }, outer);
    },
    async setSoldOut(actor, input, outer) {
      return await committed(async (tx) => {
        const result = await local.setSoldOut(actor, input, tx);
        // Pushed like stock: the platform's menu and its orders must see the dish gone too.
        if (!result.simulated) {
          const items = input.items.map((item) => ({ kind: item.kind, id: item.id.toLowerCase(), sold_out: item.sold_out }));
          await queueForUpstream(engine, 'set_sold_out', { location_id: result.location_id, items }, { locationId: result.location_id }, tx);
        }
        return result;
      }, outer);
    },
    async setLocationOpen(actor, locationId, open, outer) {
      return await committed(async (tx) => {
        if (actor.world === 'live') await setKnownLocationOpen(engine, actor.restaurantId, locationId.toLowerCase(), open, tx);
        const result = await local.setLocationOpen(actor, locationId, open, tx);
        if (!result.simulated) {
          await queueForUpstream(engine, 'set_location_open', { open }, { locationId: result.location_id }, tx);
        }
        return result;
      }, outer);
    },
    async recallOrder(actor, orderId, until, outer) {
      return await committed(async (tx) => {
        const result = await local.recallOrder(actor, orderId, until, tx);
        // Pushed like item marks: the upstream shows it too, and accepts bumps on it.
        if (result.changed && ourWorld({ test: result.order.test === 1 })) {
          await queueForUpstream(engine, 'recall_order', { recalled_until: result.recalled_until }, { orderId: result.order.id }, tx);
        }
        return result;
      }, outer);
    },
    // A line's start is the hub's own timing (its log, its promise): not pushed upstream, whose
    // screens and log see the line's bump only.
    setItemStarted: local.setItemStarted,
    async setItemDone(actor, orderId, itemIndex, done, outer) {
      return await committed(async (tx) => {
        const result = await local.setItemDone(actor, orderId, itemIndex, done, tx);
        if (result.changed && ourWorld({ test: result.order.test === 1 })) {
          await queueForUpstream(engine, 'set_item_done', { item_index: itemIndex, done }, { orderId: result.order.id }, tx);
        }
        return result;
      }, outer);
    },
  };
}
