// The rules behind what a ticket offers the cook, in one place for the engine (which computes a
// ticket's kitchen data) and the screen (which may apply them to a ticket it already holds).
import { bumpTarget, nextTransitions, type OrderStatus, type OrderType, type PatchTarget } from './order-states.ts';
import type { StationProgress, TicketItem, TicketPayment } from './screen-contract/kitchen.ts';

/** How long a recalled ticket stays back on the board. */
export const RECALL_MINUTES = 5;

/** States whose items are still to cook: a done ticket there suggests its next step. */
const COOKING: readonly OrderStatus[] = ['programado', 'recibido', 'en_preparacion'];

/**
 * The transitions the engine accepts from the kitchen screen: those of the state machine, none at
 * all when a POS integration manages the order (the engine refuses them with managed_by_integrator).
 */
export function kitchenActions(status: OrderStatus, type: OrderType, managedBy: string | null): PatchTarget[] {
  return managedBy === null ? nextTransitions(status, type) : [];
}

/** When every item is done, the forward step the screen suggests; null otherwise. */
export function suggestedTarget(
  status: OrderStatus,
  type: OrderType,
  actions: readonly PatchTarget[],
  items: readonly Pick<TicketItem, 'done'>[],
): PatchTarget | null {
  if (items.length === 0 || !items.every((item) => item.done) || !COOKING.includes(status)) return null;
  const forward = bumpTarget(status, type);
  return forward !== null && actions.includes(forward) ? forward : null;
}

/** Paid, or how much cash the rider or the counter must collect, and what was refunded. */
export function ticketPayment(
  payment: { method: string | null; paid: boolean; amount_refunded?: number },
  total: number,
  online: boolean,
): TicketPayment {
  const collect = !payment.paid && !online && total > 0 ? total : null;
  return { paid: payment.paid, method: payment.method, collect, refunded: payment.amount_refunded ?? 0 };
}

/** Each station's done and total items on a ticket, stations in the given order, unassigned last. */
export function stationProgress(items: readonly Pick<TicketItem, 'station_id' | 'done'>[], stationOrder: readonly string[]): StationProgress[] {
  const byStation = new Map<string | null, StationProgress>();
  for (const item of items) {
    const entry = byStation.get(item.station_id) ?? { station_id: item.station_id, done: 0, total: 0 };
    entry.total++;
    if (item.done) entry.done++;
    byStation.set(item.station_id, entry);
  }
  const rank = (id: string | null) => (id === null ? Number.MAX_SAFE_INTEGER : stationOrder.indexOf(id));
  return [...byStation.values()].sort((a, b) => rank(a.station_id) - rank(b.station_id));
}
