import type { PatchTarget } from '../../shared/order-states.ts';
import type { CreateOrderInput } from '../../shared/schemas/orders.ts';
import type { Engine, WriteTransaction } from '../engine.ts';
import type { CourierRegistry } from '../couriers/courier-registry.ts';
import type { Actor } from '../domain/actor.ts';
import { createOrder, type CreateOrderOptions } from './orders/create-order.ts';
import { setLocationOpen, type LocationStatusResult } from './locations/locations.ts';
import type { OrderView } from './orders/order-view.ts';
import { setStock, type SetStockInput, type SetStockResult } from './menu/stock.ts';
import { setSoldOut, type SoldOutListView } from './menu/sold-out.ts';
import type { SetSoldOutInput } from '../../shared/schemas/sold-out.ts';
import { setItemDone, setItemStarted, type ItemDoneResult, type ItemStartedResult } from './kitchen/kitchen-items.ts';
import { transitionOrder } from './orders/transition-order.ts';
import { recallOrder, type RecallResult } from './kitchen/recall-order.ts';

/**
 * The writes the doors (HTTP, IPC) may perform, each in a transaction of its own or, given `tx`, in
 * the caller's (a replica's outbox row joins the write it records). A standalone engine applies them directly; a
 * replica wraps each one so that the same transaction also appends it to the sync outbox.
 */
export interface EngineCommands {
  createOrder(actor: Actor, input: CreateOrderInput, options: CreateOrderOptions): Promise<OrderView>;
  transitionOrder(actor: Actor, orderId: string, target: PatchTarget, tx?: WriteTransaction): Promise<OrderView>;
  setStock(actor: Actor, input: SetStockInput, tx?: WriteTransaction): Promise<SetStockResult>;
  /** The "agotado" switch (PUT /sold-out, the Stock screen, a ticket's line). */
  setSoldOut(actor: Actor, input: SetSoldOutInput, tx?: WriteTransaction): Promise<SoldOutListView & { simulated: boolean }>;
  setLocationOpen(actor: Actor, locationId: string, open: boolean, tx?: WriteTransaction): Promise<LocationStatusResult>;
  /** Item-level bump (kitchen data, not part of the public API). */
  setItemDone(actor: Actor, orderId: string, itemIndex: number, done: boolean, tx?: WriteTransaction): Promise<ItemDoneResult>;
  /** A line started at its station (issue 32; kitchen data, not part of the public API). */
  setItemStarted(actor: Actor, orderId: string, itemIndex: number, started: boolean, tx?: WriteTransaction): Promise<ItemStartedResult>;
  /** Brings a finished ticket back on the screens (kitchen data); `until` as the replica's kitchen chose it. */
  recallOrder(actor: Actor, orderId: string, until?: number, tx?: WriteTransaction): Promise<RecallResult>;
}

/**
 * The services themselves. `couriers` (Providers.couriers, assembled where the app starts) are
 * what a `listo` transition writes its dispatch intent for.
 */
export function localCommands(engine: Engine, couriers: CourierRegistry): EngineCommands {
  return {
    createOrder: async (actor, input, options) => await createOrder(engine, actor, input, options),
    transitionOrder: async (actor, orderId, target, tx) => await transitionOrder(engine, actor, orderId, target, couriers, tx),
    setStock: async (actor, input, tx) => await setStock(engine, actor, input, tx),
    setSoldOut: async (actor, input, tx) => await setSoldOut(engine, actor, input, tx),
    setLocationOpen: async (actor, locationId, open, tx) => await setLocationOpen(engine, actor, locationId, open, tx),
    setItemDone: async (actor, orderId, itemIndex, done, tx) => await setItemDone(engine, actor, orderId, itemIndex, done, tx),
    setItemStarted: async (actor, orderId, itemIndex, started, tx) => await setItemStarted(engine, actor, orderId, itemIndex, started, tx),
    recallOrder: async (actor, orderId, until, tx) => await recallOrder(engine, actor, orderId, until, tx),
  };
}
