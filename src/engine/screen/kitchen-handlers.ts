// What a kitchen screen may do, wherever it runs: one handler per channel of the kitchen contract,
// each calling the same services (and the same EngineCommands) as the HTTP API. The desktop window
// reaches these through the preload bridge (src/main/channel-handlers.ts), a paired tablet through
// src/engine/http/kitchen/ — the same functions, so the two cannot drift.
import type { KitchenChannel, KitchenContract } from '../../shared/screen-contract/contract.ts';
import type { KitchenOrder, LocationStatusEntry, World } from '../../shared/screen-contract/kitchen.ts';
import type { Engine } from '../engine.ts';
import type { Actor } from '../domain/actor.ts';
import type { EngineCommands } from '../services/engine-commands.ts';
import { readKitchenBoard, readKitchenTicket, readKitchenTicketById } from '../services/kitchen/kitchen-board.ts';
import { applyKitchenChangeOnce } from '../services/kitchen/kitchen-changes.ts';
import type { LocationStatusView } from '../services/locations/location-status.ts';
import { listLocations } from '../services/locations/locations.ts';
import type { OrderView } from '../services/orders/order-view.ts';
import { readStock } from '../services/menu/stock.ts';
import { orderItemDish, readSoldOutBoard } from '../services/menu/sold-out.ts';
import { readPickupBoard } from '../services/kitchen/pickup-board.ts';
import { queueReprint, retrySetAsideJobs } from '../services/printing/print-jobs.ts';
import { orderOfRestaurant, requireWrite } from '../services/keys/restaurant-context.ts';

// The engine's views must stay assignable to the kitchen's types (a compile error otherwise).
const _orderFits = (order: OrderView): KitchenOrder => order;
const _locationFits = (location: LocationStatusView): LocationStatusEntry => location;

/** The name the kitchen screen's writes carry, where an API key's id would be. */
const KITCHEN_KEY_ID = 'kitchen';

export interface KitchenHandlerDeps {
  engine: Engine;
  /** How writes are applied: `localCommands(engine, couriers)` standalone; a replica passes its own. */
  commands: EngineCommands;
  /** The restaurant this screen works for. */
  restaurantId: string;
}

export type KitchenHandlers = {
  [C in KitchenChannel]: (request: KitchenContract[C]['request']) => KitchenContract[C]['response'] | Promise<KitchenContract[C]['response']>;
};

/** The kitchen's actor in one world of its restaurant: it may write, and says so as "kitchen". */
export function kitchenActor(restaurantId: string, world: World): Actor {
  return { restaurantId, world, canWrite: true, keyId: KITCHEN_KEY_ID };
}

export function createKitchenHandlers(deps: KitchenHandlerDeps): KitchenHandlers {
  const { engine, commands, restaurantId } = deps;
  const actor = (world: World) => kitchenActor(restaurantId, world);
  return {
    'board:snapshot': async () => await readKitchenBoard(engine, restaurantId),
    'orders:transition': async ({ order_id, target, change_id }) => {
      // A test order is changed in the test world, a real one in the real world: the same rules
      // an API key of that world meets.
      const row = await orderOfRestaurant(engine, restaurantId, order_id);
      const order = await applyKitchenChangeOnce(engine, restaurantId, change_id, { order_id: row.id, target }, async (tx) =>
        await commands.transitionOrder(actor(row.world), row.id, target, tx),
      );
      return order ? await readKitchenTicket(engine, restaurantId, order) : await readKitchenTicketById(engine, restaurantId, row.id);
    },
    'items:set-done': async ({ order_id, item_index, done, change_id }) => {
      const row = await orderOfRestaurant(engine, restaurantId, order_id);
      await applyKitchenChangeOnce(engine, restaurantId, change_id, { order_id: row.id, item_index, done }, async (tx) =>
        await commands.setItemDone(actor(row.world), row.id, item_index, done, tx),
      );
      return await readKitchenTicketById(engine, restaurantId, row.id);
    },
    'items:set-started': async ({ order_id, item_index, started, change_id }) => {
      const row = await orderOfRestaurant(engine, restaurantId, order_id);
      await applyKitchenChangeOnce(engine, restaurantId, change_id, { order_id: row.id, item_index, started }, async (tx) =>
        await commands.setItemStarted(actor(row.world), row.id, item_index, started, tx),
      );
      return await readKitchenTicketById(engine, restaurantId, row.id);
    },
    'orders:recall': async ({ order_id }) => {
      const row = await orderOfRestaurant(engine, restaurantId, order_id);
      const result = await commands.recallOrder(actor(row.world), row.id);
      return await readKitchenTicketById(engine, restaurantId, result.order.id);
    },
    'orders:reprint': async ({ order_id }) => {
      const row = await orderOfRestaurant(engine, restaurantId, order_id);
      // The same permission as any change from this screen: the kitchen's actor in the order's world.
      requireWrite(actor(row.world));
      return await queueReprint(engine, restaurantId, row.id);
    },
    'printers:retry': async ({ printer_id }) => {
      // The kitchen's own printers: the same permission as a Reimprimir from this screen.
      requireWrite(actor('live'));
      return await retrySetAsideJobs(engine, restaurantId, printer_id.toLowerCase());
    },
    'pickup:board': async () => await readPickupBoard(engine, restaurantId),
    'stock:read': async ({ location_id, world }) => ({ location_id, world, ...await readStock(engine, actor(world), location_id) }),
    'stock:set': async ({ location_id, world, items }) => await commands.setStock(actor(world), { location_id, items }),
    'sold-out:read': async ({ location_id, world }) => ({ ...await readSoldOutBoard(engine, actor(world), location_id), world, simulated: false }),
    'sold-out:set': async ({ location_id, world, kind, id, sold_out }) => {
      const { simulated } = await commands.setSoldOut(actor(world), { location_id, items: [{ kind, id, sold_out }] });
      return { ...await readSoldOutBoard(engine, actor(world), location_id), world, simulated };
    },
    'items:set-sold-out': async ({ order_id, item_index, sold_out }) => {
      const row = await orderOfRestaurant(engine, restaurantId, order_id);
      const dish = await orderItemDish(engine, actor(row.world), row.id, item_index);
      const { simulated } = await commands.setSoldOut(actor(row.world), {
        location_id: dish.location_id,
        items: [{ kind: 'product', id: dish.product_id, sold_out }],
      });
      return { ...dish, sold_out, simulated };
    },
    'locations:list': async ({ world }) => ({ ...await listLocations(engine, actor(world)), world }),
    'locations:set-open': async ({ location_id, world, open }) => await commands.setLocationOpen(actor(world), location_id, open),
  };
}
