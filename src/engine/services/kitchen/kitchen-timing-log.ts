// The item timing log (issue 32): what happened to each order line in the kitchen and when, written
// in the transaction of the change that caused it, and the lines open per location derived from it.
// Everything here is called inside the caller's transaction.
import type { Engine, WriteTransaction } from '../../engine.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { ItemTimingKind } from '../../store/kitchen-timings-store.ts';
import type { HoldPlan } from '../../domain/finish-together.ts';
import { KITCHEN_EVENTS } from '../../../shared/screen-contract/kitchen.ts';
import { worldOf } from '../../../shared/world.ts';
import { readKitchenSettings } from './kitchen-settings.ts';
import type { OrderItemView } from '../orders/order-view.ts';

/** The device written for what the engine did by itself (a payment confirmed, a scheduled release). */
export const ENGINE_DEVICE = 'engine';

/**
 * The `source` of a start marked on the line itself at its station (`items:set-started`, issue 32):
 * `started` with it is the line's real start; `undone` with it takes that start back (the log's kinds
 * are fixed by its CHECK, and an un-bump's `undone` has source `item`).
 */
export const EXPLICIT_START = 'explicit';

type LineFact = Awaited<ReturnType<typeof lineFacts>>[number];

async function lineFacts(engine: Engine, tx: WriteTransaction, order: OrderRow) {
  const settings = await readKitchenSettings(engine, order.restaurant_id, tx);
  const channel = await tx.stores.kitchenData.channel(order.id);
  const lines = JSON.parse(order.items) as OrderItemView[];
  return lines.map((line, index) => ({
    index,
    product_id: line.product_id,
    quantity: line.quantity,
    station_id: line.product_id === null ? null : (settings.product_stations[line.product_id] ?? null),
    channel,
  }));
}

/** Appends the line's row to the log; returns its seq (a line it opens keeps it as its place in its station's queue). */
async function write(engine: Engine, tx: WriteTransaction, order: OrderRow, line: LineFact, kind: ItemTimingKind, source: string | null, device: string, at: number): Promise<number> {
  return await tx.stores.kitchenTimings.log({
    restaurant_id: order.restaurant_id,
    order_id: order.id,
    location_id: order.location_id,
    item_index: line.index,
    kind,
    source,
    station_id: line.station_id,
    product_id: line.product_id,
    quantity: line.quantity,
    channel: line.channel,
    device,
    at,
  });
}

/** The line open at its station from `at` (its log row's `seq` its place in the station's queue), started then or not yet. */
async function openLine(tx: WriteTransaction, order: OrderRow, locationId: string, line: LineFact, at: number, seq: number, startedAt: number | null): Promise<void> {
  await tx.stores.kitchenTimings.open({
    order_id: order.id,
    item_index: line.index,
    location_id: locationId,
    test: order.test,
    station_id: line.station_id,
    product_id: line.product_id,
    quantity: line.quantity,
    fired_at: at,
    started_at: startedAt,
    started_explicit: 0,
    fire_seq: seq,
  });
}

/**
 * The order reached the kitchen: every line fired to its station and open there, but those `holds`
 * names (held back to finish with the order's slowest line: logged `held`, kept in
 * `kitchen_held_items` until `logHeldLineFired`).
 */
export async function logOrderFired(engine: Engine, tx: WriteTransaction, order: OrderRow, device: string, at: number, holds: readonly HoldPlan[] = []): Promise<void> {
  if (order.location_id === null) return;
  const held = new Map(holds.map((h) => [h.index, h]));
  for (const line of await lineFacts(engine, tx, order)) {
    const hold = held.get(line.index);
    if (hold && line.station_id !== null) {
      await write(engine, tx, order, line, 'held', null, device, at);
      await tx.stores.kitchenTimings.hold({
        order_id: order.id,
        item_index: line.index,
        location_id: order.location_id,
        test: order.test,
        station_id: line.station_id,
        product_id: line.product_id,
        quantity: line.quantity,
        held_at: at,
        fire_at: hold.fire_at,
        target_ready_at: hold.target_ready_at,
      });
      continue;
    }
    const seq = await write(engine, tx, order, line, 'fired', null, device, at);
    await openLine(tx, order, order.location_id, line, at, seq, null);
  }
}

/**
 * A held line fires (the jobs, by the engine): logged `fired`, open at its station from now, and a
 * kitchen item event so that every screen draws it as an ordinary line again.
 */
export async function logHeldLineFired(engine: Engine, tx: WriteTransaction, order: OrderRow, itemIndex: number, at: number): Promise<void> {
  const line = (await lineFacts(engine, tx, order))[itemIndex];
  if (!line || order.location_id === null) return;
  await tx.stores.kitchenTimings.unhold(order.id, itemIndex);
  const seq = await write(engine, tx, order, line, 'fired', null, ENGINE_DEVICE, at);
  await openLine(tx, order, order.location_id, line, at, seq, null);
  await tx.stores.events.append(order.restaurant_id, worldOf(order.test), KITCHEN_EVENTS.item, at, { order_id: order.id, item_index: itemIndex, done: false });
}

/** The ticket moved to en_preparacion: its open lines are known started (source `ticket`). */
export async function logTicketStarted(engine: Engine, tx: WriteTransaction, order: OrderRow, device: string, at: number): Promise<void> {
  const open = new Set((await tx.stores.kitchenTimings.openOf(order.id)).filter((o) => o.started_at === null).map((o) => o.item_index));
  for (const line of await lineFacts(engine, tx, order)) if (open.has(line.index)) await write(engine, tx, order, line, 'started', 'ticket', device, at);
  await tx.stores.kitchenTimings.start(order.id, at);
}

/** A line bumped done (or un-bumped) by itself. */
export async function logItemDone(engine: Engine, tx: WriteTransaction, order: OrderRow, itemIndex: number, done: boolean, device: string, at: number): Promise<void> {
  const line = (await lineFacts(engine, tx, order))[itemIndex];
  if (!line) return;
  const seq = await write(engine, tx, order, line, done ? 'done' : 'undone', 'item', device, at);
  // A held line bumped from its "en espera" mark is done without ever firing.
  if (done) {
    await tx.stores.kitchenTimings.close(order.id, itemIndex);
    await tx.stores.kitchenTimings.unhold(order.id, itemIndex);
  }
  else if (order.location_id !== null && (order.status === 'recibido' || order.status === 'en_preparacion')) {
    // Back on the station: open again from now, as started (the cook goes on with it).
    await openLine(tx, order, order.location_id, line, at, seq, at);
  }
}

/**
 * A line marked started at its station (or that mark taken back): logged `started` (`undone`) with
 * source `explicit`, and its open line takes that start as its own. A held line started by a cook is
 * fired first (the cook took it off the "retenido" mark). A line not open (done, or its order not in
 * the kitchen) is only logged.
 */
export async function logLineStarted(engine: Engine, tx: WriteTransaction, order: OrderRow, itemIndex: number, started: boolean, device: string, at: number): Promise<void> {
  const line = (await lineFacts(engine, tx, order))[itemIndex];
  if (!line) return;
  if (started && (await tx.stores.kitchenTimings.heldOf(order.id)).some((h) => h.item_index === itemIndex)) {
    await tx.stores.kitchenTimings.unhold(order.id, itemIndex);
    const seq = await write(engine, tx, order, line, 'fired', null, device, at);
    if (order.location_id !== null) {
      await openLine(tx, order, order.location_id, line, at, seq, null);
    }
  }
  await write(engine, tx, order, line, started ? 'started' : 'undone', EXPLICIT_START, device, at);
  await tx.stores.kitchenTimings.startLine(order.id, itemIndex, started ? at : null);
}

/**
 * The order's transition, as the kitchen's timing sees it: reaching the kitchen fires its lines
 * (an order released or paid, or a scheduled one started at once), en_preparacion starts them,
 * listo does every line still open (source `ticket`) and marks its promise kept or not, cancelado
 * takes its lines off the stations.
 */
export async function logTransition(engine: Engine, tx: WriteTransaction, order: OrderRow, target: OrderRow['status'], device: string, at: number): Promise<void> {
  const reachesKitchen = (order.status === 'pendiente_pago' || order.status === 'programado') && (target === 'recibido' || target === 'en_preparacion');
  if (reachesKitchen) await logOrderFired(engine, tx, order, device, at);
  if (target === 'en_preparacion') await logTicketStarted(engine, tx, order, device, at);
  if (target === 'listo') {
    const open = new Set((await tx.stores.kitchenTimings.openOf(order.id)).map((o) => o.item_index));
    for (const held of await tx.stores.kitchenTimings.heldOf(order.id)) open.add(held.item_index);
    for (const line of await lineFacts(engine, tx, order)) if (open.has(line.index)) await write(engine, tx, order, line, 'done', 'ticket', device, at);
    await tx.stores.kitchenTimings.closeOrder(order.id);
    await tx.stores.kitchenTimings.unholdOrder(order.id);
    await tx.stores.kitchenTimings.markReady(order.id, at);
  }
  if (target === 'cancelado' || target === 'entregado' || target === 'en_reparto') {
    await tx.stores.kitchenTimings.closeOrder(order.id);
    await tx.stores.kitchenTimings.unholdOrder(order.id);
  }
}

/** A finished ticket recalled to the screens: each line's `recalled`. */
export async function logRecalled(engine: Engine, tx: WriteTransaction, order: OrderRow, device: string, at: number): Promise<void> {
  for (const line of await lineFacts(engine, tx, order)) await write(engine, tx, order, line, 'recalled', null, device, at);
}
