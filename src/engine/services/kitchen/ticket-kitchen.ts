import { DateTime } from 'luxon';
import { shownOrderNumber } from '../../../shared/order-number.ts';
import type { TicketCountdown, TicketItem, TicketKitchen } from '../../../shared/screen-contract/kitchen.ts';
import { kitchenActions, stationProgress, suggestedTarget, ticketPayment } from '../../../shared/kitchen-ticket-rules.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { RestaurantRow } from '../../store/restaurants-store.ts';
import { allergenKey, type KitchenSettings } from '../../domain/kitchen-settings.ts';
import type { OrderItemView } from '../orders/order-view.ts';

/** The kitchen's own facts about orders: read one order at a time, or many at once for a snapshot. */
export interface KitchenFacts {
  doneItems(orderId: string): Promise<Set<number>>;
  /** The lines a cook marked started at their station (issue 32), with when (epoch ms). */
  startedItems(orderId: string): Promise<Map<number, number>>;
  recalledUntil(orderId: string): Promise<number | null>;
  channel(orderId: string): Promise<string | null>;
  /** The order's lines held back to finish together, with when each fires (epoch ms). */
  heldItems(orderId: string): Promise<Map<number, number>>;
  /** The order's current promise (epoch ms), or null. */
  promisedReadyAt(orderId: string): Promise<number | null>;
}

/** What every ticket of one read shares: the restaurant, its kitchen settings, the clock's now and the facts. */
export interface TicketContext {
  restaurant: RestaurantRow;
  settings: KitchenSettings;
  now: number;
  facts: KitchenFacts;
}

/** Facts read per order (one ticket, a few live events). */
export function factsPerOrder(engine: Engine, tx: ReadTransaction): KitchenFacts {
  return {
    doneItems: async (orderId) => new Set((await tx.stores.kitchenData.itemStates(orderId)).filter((s) => s.done === 1).map((s) => s.item_index)),
    startedItems: async (orderId) => new Map((await tx.stores.kitchenData.itemStates(orderId)).flatMap((s) => (s.started_at === null ? [] : [[s.item_index, s.started_at] as const]))),
    recalledUntil: async (orderId) => await tx.stores.kitchenData.recalledUntil(orderId),
    channel: async (orderId) => await tx.stores.kitchenData.channel(orderId),
    heldItems: async (orderId) => new Map((await tx.stores.kitchenTimings.heldOf(orderId)).map((h) => [h.item_index, h.fire_at])),
    promisedReadyAt: async (orderId) => (await tx.stores.kitchenTimings.currentPromisesOf([orderId]))[0]?.promised_ready_at ?? null,
  };
}

/** Facts of many orders read in a few queries (a board snapshot of hundreds of tickets). */
export async function factsOfOrders(engine: Engine, tx: ReadTransaction, orderIds: readonly string[]): Promise<KitchenFacts> {
  const done = new Map<string, Set<number>>();
  const started = new Map<string, Map<number, number>>();
  const mark = (marks: Map<string, Set<number>>, row: { order_id: string; item_index: number }) => {
    const set = marks.get(row.order_id) ?? new Set<number>();
    set.add(row.item_index);
    marks.set(row.order_id, set);
  };
  for (const row of await tx.stores.kitchenData.itemStatesOf(orderIds)) {
    if (row.done === 1) mark(done, row);
    if (row.started_at !== null) {
      const lines = started.get(row.order_id) ?? new Map<number, number>();
      lines.set(row.item_index, row.started_at);
      started.set(row.order_id, lines);
    }
  }
  const recalls = new Map((await tx.stores.kitchenData.recallsOf(orderIds)).map((r) => [r.order_id, r.recalled_until]));
  const channels = new Map((await tx.stores.kitchenData.channelsOf(orderIds)).map((c) => [c.order_id, c.channel]));
  const held = new Map<string, Map<number, number>>();
  for (const row of await tx.stores.kitchenTimings.heldOfOrders(orderIds)) {
    const lines = held.get(row.order_id) ?? new Map<number, number>();
    lines.set(row.item_index, row.fire_at);
    held.set(row.order_id, lines);
  }
  const promises = new Map((await tx.stores.kitchenTimings.currentPromisesOf(orderIds)).map((p) => [p.order_id, p.promised_ready_at]));
  const none = new Set<number>();
  const noneStarted = new Map<number, number>();
  const noneHeld = new Map<number, number>();
  return {
    promisedReadyAt: async (orderId) => promises.get(orderId) ?? null,
    heldItems: async (orderId) => held.get(orderId) ?? noneHeld,
    doneItems: async (orderId) => done.get(orderId) ?? none,
    startedItems: async (orderId) => started.get(orderId) ?? noneStarted,
    recalledUntil: async (orderId) => recalls.get(orderId) ?? null,
    channel: async (orderId) => channels.get(orderId) ?? null,
  };
}

/** The kitchen's data about one order: its lines with station, allergens and bumps, and what the cook may do. */
export async function ticketKitchen(row: OrderRow, context: TicketContext): Promise<TicketKitchen> {
  const { settings, facts } = context;
  const done = await facts.doneItems(row.id);
  const started = await facts.startedItems(row.id);
  const held = await facts.heldItems(row.id);
  const lines = JSON.parse(row.items) as OrderItemView[];
  const items: TicketItem[] = lines.map((line, index) => {
    const { product_id: productId, unit_price: _price, ...shown } = line;
    const flagged = productId === null ? undefined : settings.allergens[productId];
    return {
      ...shown,
      index,
      modifiers: line.modifiers.map((m) => ({ ...m, allergen: flagged?.includes(allergenKey(m.group, m.name)) ?? false })),
      station_id: productId === null ? null : (settings.product_stations[productId] ?? null),
      done: done.has(index),
      ...(started.has(index) && !done.has(index) ? { started: true, started_at: started.get(index)! } : {}),
      ...(held.has(index) ? { held_until: held.get(index)! } : {}),
    };
  });
  const actions = kitchenActions(row.status, row.type, row.managed_by);
  const recalledUntil = await facts.recalledUntil(row.id);
  const promised = await facts.promisedReadyAt(row.id);
  return {
    items,
    stations: stationProgress(items, settings.stations.map((s) => s.id)),
    channel: await facts.channel(row.id) ?? row.managed_by,
    managed_by: row.managed_by,
    actions,
    suggested_target: suggestedTarget(row.status, row.type, actions, items),
    payment: ticketPayment({ method: row.payment_method, paid: row.paid === 1, amount_refunded: row.refunded }, row.total, row.payment_kind === 'online'),
    countdown: countdown(row, context),
    recalled_until: recalledUntil !== null && recalledUntil > context.now ? recalledUntil : null,
    ...(promised !== null ? { promised_ready_at: promised } : {}),
    ...(shownOrderNumber(row) !== row.number ? { shown_number: shownOrderNumber(row) } : {}),
  };
}

function countdown(row: OrderRow, context: TicketContext): TicketCountdown | null {
  if (row.status === 'programado' && row.scheduled_for !== null) return { kind: 'scheduled', at: row.scheduled_for };
  if (row.status === 'pendiente_pago') {
    const at = DateTime.fromMillis(row.created_at).plus({ minutes: context.restaurant.payment_timeout_minutes }).toMillis();
    return { kind: 'payment', at };
  }
  return null;
}
