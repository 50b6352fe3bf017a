import { randomUUID } from 'node:crypto';
import { ApiError } from '../engine/domain/errors.ts';
import type { Engine } from '../engine/engine.ts';
import { localCommands, type EngineCommands } from '../engine/services/engine-commands.ts';
import { getOrder } from '../engine/services/read-orders.ts';
import { setKnownLocationOpen } from '../engine/services/mirror-upstream.ts';

/**
 * The replica's writes: each is applied locally through the same services as anywhere else and,
 * in the same transaction, appended to the durable outbox the pusher sends upstream. Sandbox
 * writes change nothing locally, so they have nothing to send either.
 */
export function replicaCommands(engine: Engine, onQueued: () => void): EngineCommands {
  const local = localCommands(engine);
  const queue = (...args: Parameters<Engine['sync']['append']>) => {
    engine.sync.append(...args);
  };
  const committed = <T>(work: () => T): T => {
    const result = engine.transaction(work);
    onQueued();
    return result;
  };
  return {
    createOrder(actor, input, options) {
      if (input.payment === 'online') {
        // Reached only when the upstream cannot be: online orders are forwarded while it can.
        throw new ApiError('payment_unavailable', 'online payment needs the platform, which cannot be reached right now');
      }
      return committed(() => {
        const order = local.createOrder(actor, input, options);
        if (!order.test) queue(randomUUID(), 'create_order', input, { orderId: order.id }, engine.clock.now());
        return order;
      });
    },
    transitionOrder(actor, orderId, target) {
      return committed(() => {
        const before = getOrder(engine, actor, orderId);
        const order = local.transitionOrder(actor, orderId, target);
        if (!order.test && before.status !== order.status) {
          queue(randomUUID(), 'transition_order', { status: target }, { orderId: order.id }, engine.clock.now());
        }
        return order;
      });
    },
    setStock(actor, input) {
      return committed(() => {
        const result = local.setStock(actor, input);
        if (!result.simulated) {
          queue(randomUUID(), 'set_stock', { location_id: input.location_id.toLowerCase(), items: result.data }, { locationId: input.location_id.toLowerCase() }, engine.clock.now());
        }
        return result;
      });
    },
    setLocationOpen(actor, locationId, open) {
      return committed(() => {
        if (actor.mode === 'live') setKnownLocationOpen(engine, actor.restaurantId, locationId.toLowerCase(), open);
        const result = local.setLocationOpen(actor, locationId, open);
        if (!result.simulated) {
          queue(randomUUID(), 'set_location_open', { open }, { locationId: result.location_id }, engine.clock.now());
        }
        return result;
      });
    },
  };
}
