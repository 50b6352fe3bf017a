import type { PatchTarget } from '../../shared/order-states.ts';
import type { CreateOrderInput } from '../../shared/schemas/orders.ts';
import type { Engine } from '../engine.ts';
import type { CourierRegistry } from '../couriers/courier-registry.ts';
import type { Actor } from '../domain/actor.ts';
import { createOrder, type CreateOrderOptions } from './orders/create-order.ts';
import { setLocationOpen, type LocationStatusResult } from './locations/locations.ts';
import type { OrderView } from './orders/order-view.ts';
import { setStock, type SetStockInput, type SetStockResult } from './menu/stock.ts';
import { setSoldOut, type SoldOutListView } from './menu/sold-out.ts';
import type { SetSoldOutInput } from '../../shared/schemas/sold-out.ts';
import { setItemDone, type ItemDoneResult } from './kitchen/kitchen-items.ts';
import { transitionOrder } from './orders/transition-order.ts';
import { recallOrder, type RecallResult } from './kitchen/recall-order.ts';

/**
 * The writes the doors (HTTP, IPC) may perform. A standalone engine applies them directly; a
 * replica wraps each one so that the same transaction also appends it to the sync outbox.
 */
export interface EngineCommands {
  createOrder(actor: Actor, input: CreateOrderInput, options: CreateOrderOptions): OrderView;
  transitionOrder(actor: Actor, orderId: string, target: PatchTarget): OrderView;
  setStock(actor: Actor, input: SetStockInput): SetStockResult;
  /** The "agotado" switch (PUT /sold-out, the Stock screen, a ticket's line). */
  setSoldOut(actor: Actor, input: SetSoldOutInput): SoldOutListView & { simulated: boolean };
  setLocationOpen(actor: Actor, locationId: string, open: boolean): LocationStatusResult;
  /** Item-level bump (kitchen data, not part of the public API). */
  setItemDone(actor: Actor, orderId: string, itemIndex: number, done: boolean): ItemDoneResult;
  /** Brings a finished ticket back on the screens (kitchen data); `until` as the replica's kitchen chose it. */
  recallOrder(actor: Actor, orderId: string, until?: number): RecallResult;
}

/**
 * The services themselves. `couriers` (Providers.couriers, assembled where the app starts) are
 * what a `listo` transition writes its dispatch intent for.
 */
export function localCommands(engine: Engine, couriers: CourierRegistry): EngineCommands {
  return {
    createOrder: (actor, input, options) => createOrder(engine, actor, input, options),
    transitionOrder: (actor, orderId, target) => transitionOrder(engine, actor, orderId, target, couriers),
    setStock: (actor, input) => setStock(engine, actor, input),
    setSoldOut: (actor, input) => setSoldOut(engine, actor, input),
    setLocationOpen: (actor, locationId, open) => setLocationOpen(engine, actor, locationId, open),
    setItemDone: (actor, orderId, itemIndex, done) => setItemDone(engine, actor, orderId, itemIndex, done),
    recallOrder: (actor, orderId, until) => recallOrder(engine, actor, orderId, until),
  };
}
