// The item timing log (issue 32): what happened to each order line in the kitchen and when, written
// in the transaction of the change that caused it, and the lines open per location derived from it.
// Everything here is called inside the caller's transaction.
import type { Engine } from '../../engine.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { ItemTimingKind } from '../../store/kitchen-timings-store.ts';
import { readKitchenSettings } from './kitchen-settings.ts';
import type { OrderItemView } from '../orders/order-view.ts';

/** The device written for what the engine did by itself (a payment confirmed, a scheduled release). */
export const ENGINE_DEVICE = 'engine';

function lineFacts(engine: Engine, order: OrderRow) {
  const settings = readKitchenSettings(engine, order.restaurant_id);
  const channel = engine.stores.kitchenData.channel(order.id);
  const lines = JSON.parse(order.items) as OrderItemView[];
  return lines.map((line, index) => ({
    index,
    product_id: line.product_id,
    quantity: line.quantity,
    station_id: line.product_id === null ? null : (settings.product_stations[line.product_id] ?? null),
    channel,
  }));
}

function write(engine: Engine, order: OrderRow, line: ReturnType<typeof lineFacts>[number], kind: ItemTimingKind, source: string | null, device: string, at: number): void {
  engine.stores.kitchenTimings.log({
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

/** The order reached the kitchen: every line fired to its station, and open there. */
export function logOrderFired(engine: Engine, order: OrderRow, device: string, at: number): void {
  if (order.location_id === null) return;
  for (const line of lineFacts(engine, order)) {
    write(engine, order, line, 'fired', null, device, at);
    engine.stores.kitchenTimings.open({
      order_id: order.id,
      item_index: line.index,
      location_id: order.location_id,
      test: order.test,
      station_id: line.station_id,
      product_id: line.product_id,
      quantity: line.quantity,
      fired_at: at,
      started_at: null,
    });
  }
}

/** The ticket moved to en_preparacion: its open lines are known started (source `ticket`). */
export function logTicketStarted(engine: Engine, order: OrderRow, device: string, at: number): void {
  const open = new Set(engine.stores.kitchenTimings.openOf(order.id).filter((o) => o.started_at === null).map((o) => o.item_index));
  for (const line of lineFacts(engine, order)) if (open.has(line.index)) write(engine, order, line, 'started', 'ticket', device, at);
  engine.stores.kitchenTimings.start(order.id, at);
}

/** A line bumped done (or un-bumped) by itself. */
export function logItemDone(engine: Engine, order: OrderRow, itemIndex: number, done: boolean, device: string, at: number): void {
  const line = lineFacts(engine, order)[itemIndex];
  if (!line) return;
  write(engine, order, line, done ? 'done' : 'undone', 'item', device, at);
  if (done) engine.stores.kitchenTimings.close(order.id, itemIndex);
  else if (order.location_id !== null && (order.status === 'recibido' || order.status === 'en_preparacion')) {
    // Back on the station: open again from now, as started (the cook goes on with it).
    engine.stores.kitchenTimings.open({
      order_id: order.id,
      item_index: itemIndex,
      location_id: order.location_id,
      test: order.test,
      station_id: line.station_id,
      product_id: line.product_id,
      quantity: line.quantity,
      fired_at: at,
      started_at: at,
    });
  }
}

/**
 * The order's transition, as the kitchen's timing sees it: reaching the kitchen fires its lines
 * (an order released or paid, or a scheduled one started at once), en_preparacion starts them,
 * listo does every line still open (source `ticket`) and marks its promise kept or not, cancelado
 * takes its lines off the stations.
 */
export function logTransition(engine: Engine, order: OrderRow, target: OrderRow['status'], device: string, at: number): void {
  const reachesKitchen = (order.status === 'pendiente_pago' || order.status === 'programado') && (target === 'recibido' || target === 'en_preparacion');
  if (reachesKitchen) logOrderFired(engine, order, device, at);
  if (target === 'en_preparacion') logTicketStarted(engine, order, device, at);
  if (target === 'listo') {
    const open = new Set(engine.stores.kitchenTimings.openOf(order.id).map((o) => o.item_index));
    for (const line of lineFacts(engine, order)) if (open.has(line.index)) write(engine, order, line, 'done', 'ticket', device, at);
    engine.stores.kitchenTimings.closeOrder(order.id);
    engine.stores.kitchenTimings.markReady(order.id, at);
  }
  if (target === 'cancelado' || target === 'entregado' || target === 'en_reparto') engine.stores.kitchenTimings.closeOrder(order.id);
}

/** A finished ticket recalled to the screens: each line's `recalled`. */
export function logRecalled(engine: Engine, order: OrderRow, device: string, at: number): void {
  for (const line of lineFacts(engine, order)) write(engine, order, line, 'recalled', null, device, at);
}
