import { DateTime } from 'luxon';
import type { TicketCountdown, TicketItem, TicketKitchen } from '../../shared/ipc/kitchen.ts';
import { kitchenActions, stationProgress, suggestedTarget, ticketPayment } from '../../shared/kitchen-ticket-rules.ts';
import type { Engine } from '../engine.ts';
import type { OrderRow } from '../store/orders-store.ts';
import type { RestaurantRow } from '../store/restaurants-store.ts';
import { allergenKey, type KitchenSettings } from './kitchen-settings.ts';
import type { OrderItemView } from './order-view.ts';

/** What every ticket of one read shares: the restaurant, its kitchen settings and the clock's now. */
export interface TicketContext {
  restaurant: RestaurantRow;
  settings: KitchenSettings;
  now: number;
}

/** The kitchen's data about one order: its lines with station, allergens and bumps, and what the cook may do. */
export function ticketKitchen(engine: Engine, row: OrderRow, context: TicketContext): TicketKitchen {
  const { settings } = context;
  const done = new Set(engine.kitchenData.itemStates(row.id).filter((s) => s.done === 1).map((s) => s.item_index));
  const lines = JSON.parse(row.items) as OrderItemView[];
  const items: TicketItem[] = lines.map((line, index) => {
    const flagged = line.product_id === null ? undefined : settings.allergens[line.product_id];
    return {
      ...line,
      index,
      modifiers: line.modifiers.map((m) => ({ ...m, allergen: flagged?.includes(allergenKey(m.group, m.name)) ?? false })),
      station_id: line.product_id === null ? null : (settings.product_stations[line.product_id] ?? null),
      done: done.has(index),
    };
  });
  const actions = kitchenActions(row.status, row.type, row.managed_by);
  const recalledUntil = engine.kitchenData.recalledUntil(row.id);
  return {
    items,
    stations: stationProgress(items, settings.stations.map((s) => s.id)),
    channel: engine.kitchenData.channel(row.id) ?? row.managed_by,
    managed_by: row.managed_by,
    actions,
    suggested_target: suggestedTarget(row.status, row.type, actions, items),
    payment: ticketPayment({ method: row.payment_method, paid: row.paid === 1 }, row.total, row.payment_kind === 'online'),
    countdown: countdown(row, context),
    recalled_until: recalledUntil !== null && recalledUntil > context.now ? recalledUntil : null,
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
