import { mapInOrder } from '../../../shared/in-order.ts';
import { printStatusOf } from '../printing/printers.ts';
import { DateTime } from 'luxon';
import { KITCHEN_EVENTS, kitchenOrderOf, type BoardSnapshot, type KitchenEvent, type KitchenTicket, type LocationStatusEntry, type TicketTiming } from '../../../shared/screen-contract/kitchen.ts';
import { ACTIVE_STATUSES, foldTiming, NO_TIMING } from '../../../shared/screen-contract/ticket-timing.ts';
import { invalidRequest, notFound } from '../../domain/errors.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import { readKitchenSettings } from './kitchen-settings.ts';
import { toOrderView, type OrderView } from '../orders/order-view.ts';
import { factsOfOrders, factsPerOrder, ticketKitchen, type TicketContext } from './ticket-kitchen.ts';

/**
 * The kitchen screen's reads. Unlike an API key, the screen sees both worlds of its restaurant at
 * once (test orders carry `test: true` and are labelled PRUEBA), so these read across worlds
 * (store/kitchen-board-store.ts) instead of through an Actor's world.
 */

/** How many finished orders the recall drawer offers. */
export const RECALL_LIMIT = 20;

async function restaurantRow(engine: Engine, tx: ReadTransaction, restaurantId: string) {
  const restaurant = await tx.stores.restaurants.get(restaurantId);
  if (!restaurant) throw invalidRequest(`unknown restaurant ${restaurantId}`);
  return restaurant;
}

async function ticketContext(engine: Engine, tx: ReadTransaction, restaurantId: string, facts = factsPerOrder(engine, tx)): Promise<TicketContext> {
  return { restaurant: await restaurantRow(engine, tx, restaurantId), settings: await readKitchenSettings(engine, restaurantId, tx), now: engine.clock.now(), facts };
}

/**
 * Active orders of both worlds, every order created since `dayStart`, the latest finished ones and
 * those recalled onto the board.
 */
async function boardOrders(engine: Engine, tx: ReadTransaction, restaurantId: string, dayStart: number, recallLimit: number, now: number): Promise<OrderRow[]> {
  const current = await tx.stores.kitchen.currentOrders(restaurantId, dayStart);
  const recall = await tx.stores.kitchen.latestFinished(restaurantId, recallLimit);
  const recalled = await tx.stores.kitchenData.recalled(restaurantId, now);
  const byId = new Map<string, OrderRow>();
  for (const row of [...current, ...recall, ...recalled]) byId.set(row.id, row);
  return [...byId.values()].sort((a, b) => a.created_at - b.created_at || a.id.localeCompare(b.id));
}

/**
 * The first event sequence number whose time is at or after `since`, found by bisection on the
 * primary key (event times grow with their sequence), so a long history is never scanned.
 */
async function firstSeqSince(engine: Engine, tx: ReadTransaction, restaurantId: string, since: number): Promise<number> {
  let low = 0;
  let high = await tx.stores.events.lastSeq(restaurantId) + 1;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const row = await tx.stores.kitchen.firstEventAtOrAfter(restaurantId, middle);
    if (!row || row.created_at >= since) high = middle;
    else low = row.seq + 1;
  }
  return low;
}

/** Kitchen entry and ready times of the given orders, folded from their events since `since`. */
async function timingsSince(engine: Engine, tx: ReadTransaction, restaurantId: string, since: number, orderIds: Set<string>): Promise<Map<string, TicketTiming>> {
  const timings = new Map<string, TicketTiming>();
  if (orderIds.size === 0) return timings;
  for (const row of await tx.stores.kitchen.orderStatusEvents(restaurantId, await firstSeqSince(engine, tx, restaurantId, since))) {
    if (!orderIds.has(row.order_id)) continue;
    timings.set(row.order_id, foldTiming(timings.get(row.order_id), row.status, row.created_at));
  }
  return timings;
}

export function startOfLocalDay(now: number, zone: string): number {
  return DateTime.fromMillis(now, { zone }).startOf('day').toMillis();
}

/** Everything the board needs to draw itself, consistent with the change feed at `cursor`. */
export async function readKitchenBoard(engine: Engine, restaurantId: string, recallLimit = RECALL_LIMIT): Promise<BoardSnapshot> {
  const restaurant = await engine.read(async (tx) => await restaurantRow(engine, tx, restaurantId));
  const now = engine.clock.now();
  const dayStart = startOfLocalDay(now, restaurant.time_zone);
  // Read in one read transaction so the orders and the cursor describe the same moment.
  return await engine.read(async (tx) => {
    const cursor = await tx.stores.events.lastSeq(restaurant.id);
    const rows = await boardOrders(engine, tx, restaurant.id, dayStart, recallLimit, now);
    const context = await ticketContext(engine, tx, restaurant.id, await factsOfOrders(engine, tx, rows.map((r) => r.id)));
    const unfinished = rows.filter((r) => ACTIVE_STATUSES.includes(r.status) || r.created_at >= dayStart);
    const since = Math.min(dayStart, ...unfinished.map((r) => r.created_at));
    const timings = await timingsSince(engine, tx, restaurant.id, since, new Set(unfinished.map((r) => r.id)));
    const tickets: KitchenTicket[] = (await mapInOrder(rows, async (row) => ({
      order: kitchenOrderOf(toOrderView(row, restaurant.time_zone)),
      kitchen: await ticketKitchen(row, context),
      ...(timings.get(row.id) ?? fallbackTiming(row)),
    })));
    return {
      restaurant: { id: restaurant.id, name: restaurant.name, time_zone: restaurant.time_zone },
      locations: (await tx.stores.locations
        .list(restaurant.id))
        .map((l) => ({ location_id: l.id, name: l.name, is_active: l.is_active === 1 })),
      stations: context.settings.stations,
      allergy_words: context.settings.allergy_words ?? [],
      tickets,
      day_start: dayStart,
      now,
      cursor,
      printing: await printStatusOf(engine, restaurant.id, tx),
      printer_count: (await tx.stores.printers.list(restaurant.id)).length,
    };
  });
}

/** Without events (an order imported or older than the history read), its own times are the best guess. */
function fallbackTiming(row: OrderRow): TicketTiming {
  return foldTiming(NO_TIMING, row.status, row.created_at);
}

/** One order as a ticket, with its timing read from the feed (for a single answer, e.g. after a tap). */
export async function readKitchenTicket(engine: Engine, restaurantId: string, order: OrderView, callerTx?: ReadTransaction): Promise<KitchenTicket> {
  return await engine.readWithin(callerTx, async (tx) => {
    const context = await ticketContext(engine, tx, restaurantId);
    const row = await tx.stores.orders.getById(order.id);
    if (!row || row.restaurant_id !== context.restaurant.id) throw notFound(`order ${order.id} not found`);
    const createdAt = row.created_at;
    const timings = await timingsSince(engine, tx, context.restaurant.id, createdAt, new Set([order.id]));
    return {
      order: kitchenOrderOf(order),
      kitchen: await ticketKitchen(row, context),
      ...(timings.get(order.id) ?? foldTiming(NO_TIMING, order.status, createdAt)),
    };
  });
}

/** One order of the restaurant as a ticket, by id (either world). */
export async function readKitchenTicketById(engine: Engine, restaurantId: string, orderId: string, callerTx?: ReadTransaction): Promise<KitchenTicket> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantRow(engine, tx, restaurantId);
    const row = await tx.stores.orders.getById(orderId.toLowerCase());
    if (!row || row.restaurant_id !== restaurant.id) throw notFound(`order ${orderId} not found`);
    return await readKitchenTicket(engine, restaurantId, toOrderView(row, restaurant.time_zone), tx);
  });
}

/** The restaurant's changes after `afterSeq`, both worlds, oldest first. */
/** The change feed's position now: where a screen that starts from now starts. */
export async function lastEventSeq(engine: Engine, restaurantId: string, callerTx?: ReadTransaction): Promise<number> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await tx.stores.events.lastSeq(restaurantId);
  });
}

export async function readKitchenEvents(engine: Engine, restaurantId: string, afterSeq: number, limit = 500, callerTx?: ReadTransaction): Promise<KitchenEvent[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    const events: KitchenEvent[] = [];
    const rows = await tx.stores.kitchen.events(restaurantId, afterSeq, limit);
    if (rows.length === 0) return events;
    const context = await ticketContext(engine, tx, restaurantId);
    // The kitchen data an event carries is the order's as it stands now (later events say the same or more).
    const kitchenOf = async (orderId: string) => {
      // A replica's own order may have been renamed to its upstream id since the event was written.
      const order = await tx.stores.orders.getById(orderId) ?? await tx.stores.orders.getById(await tx.stores.sync.upstreamIdOf(orderId) ?? orderId);
      return order ? await ticketKitchen(order, context) : null;
    };
    for (const row of rows) {
      const data: unknown = JSON.parse(row.data);
      switch (row.type) {
        case 'order.created':
        case 'order.updated': {
          const order = data as OrderView;
          const kitchen = await kitchenOf(order.id);
          if (kitchen) events.push({ seq: row.seq, type: row.type, at: row.created_at, order: kitchenOrderOf(order), kitchen });
          break;
        }
        case KITCHEN_EVENTS.item:
        case KITCHEN_EVENTS.recall: {
          const order = await tx.stores.orders.getById((data as { order_id: string }).order_id);
          if (!order) break;
          events.push({
            seq: row.seq,
            type: row.type,
            at: row.created_at,
            order: kitchenOrderOf(toOrderView(order, context.restaurant.time_zone)),
            kitchen: await ticketKitchen(order, context),
          });
          break;
        }
        case 'stock.updated':
          events.push({
            seq: row.seq,
            type: 'stock.updated',
            at: row.created_at,
            world: row.world,
            data: data as { location_id: string; items: { product_id: string; quantity: number }[] },
          });
          break;
        case 'location.updated':
          events.push({ seq: row.seq, type: 'location.updated', at: row.created_at, data: data as LocationStatusEntry });
          break;
        default:
          // A type this screen does not know yet (a newer engine): nothing to draw.
          break;
      }
    }
    return events;
  });
}
