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
  const committed = <T>(work: (tx: WriteTransaction) => T, tx?: WriteTransaction): T => {
    const result = engine.within(tx, work);
    onQueued();
    return result;
  };
  return {
    createOrder(actor, input, options) {
      if (input.payment === 'online') {
        // Reached only when the upstream cannot be: online orders are forwarded while it can.
        throw new ApiError('payment_unavailable', 'online payment needs the platform, which cannot be reached right now');
      }
      return committed((tx) => {
        const order = local.createOrder(actor, input, { ...options, tx });
        if (ourWorld(order)) queueForUpstream(engine, 'create_order', input, { orderId: order.id });
        return order;
      }, options.tx);
    },
    transitionOrder(actor, orderId, target) {
      return committed(() => {
        const before = getOrder(engine, actor, orderId);
        const order = local.transitionOrder(actor, orderId, target);
        if (ourWorld(order) && before.status !== order.status) {
          queueForUpstream(engine, 'transition_order', { status: target }, { orderId: order.id });
        }
        return order;
      });
    },
    setStock(actor, input) {
      return committed(() => {
        const locationId = input.location_id.toLowerCase();
        // What each write replaced travels with it: the pusher tells a concurrent upstream change from ours.
        const replaced = stockBefore(engine, locationId, input.items.map((item) => item.product_id.toLowerCase()));
        const result = local.setStock(actor, input);
        if (!result.simulated) {
          queueForUpstream(engine, 'set_stock', { location_id: locationId, items: result.data, replaced }, { locationId });
        }
        return result;
      });
    },
    setSoldOut(actor, input) {
      return committed(() => {
        const result = local.setSoldOut(actor, input);
        // Pushed like stock: the platform's menu and its orders must see the dish gone too.
        if (!result.simulated) {
          const items = input.items.map((item) => ({ kind: item.kind, id: item.id.toLowerCase(), sold_out: item.sold_out }));
          queueForUpstream(engine, 'set_sold_out', { location_id: result.location_id, items }, { locationId: result.location_id });
        }
        return result;
      });
    },
    setLocationOpen(actor, locationId, open) {
      return committed(() => {
        if (actor.world === 'live') setKnownLocationOpen(engine, actor.restaurantId, locationId.toLowerCase(), open);
        const result = local.setLocationOpen(actor, locationId, open);
        if (!result.simulated) {
          queueForUpstream(engine, 'set_location_open', { open }, { locationId: result.location_id });
        }
        return result;
      });
    },
    recallOrder(actor, orderId, until) {
      return committed(() => {
        const result = local.recallOrder(actor, orderId, until);
        // Pushed like item marks: the upstream shows it too, and accepts bumps on it.
        if (result.changed && ourWorld({ test: result.order.test === 1 })) {
          queueForUpstream(engine, 'recall_order', { recalled_until: result.recalled_until }, { orderId: result.order.id });
        }
        return result;
      });
    },
    setItemDone(actor, orderId, itemIndex, done) {
      return committed(() => {
        const result = local.setItemDone(actor, orderId, itemIndex, done);
        if (result.changed && ourWorld({ test: result.order.test === 1 })) {
          queueForUpstream(engine, 'set_item_done', { item_index: itemIndex, done }, { orderId: result.order.id });
        }
        return result;
      });
    },
  };
}
