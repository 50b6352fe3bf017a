// The number people read off an order: a replica's hub answers an order typed into its own API
// with a number of its own ("L7") and prints it at once; once the upstream's number arrives the
// board, the pickup screen and any reprint show the upstream's with the hub's in small, "1042 · L7",
// until the order is done, so the paper and the screens can always be matched.
import type { OrderStatus } from './order-states.ts';

const DONE: ReadonlySet<OrderStatus> = new Set(['entregado', 'cancelado']);

/** The replica's own number to show small beside the upstream's, or null (none, the same, or the order done). */
export function hubNumberShown(order: { number: string; local_number?: string | null; status: OrderStatus }): string | null {
  const local = order.local_number ?? null;
  return local === null || local === order.number || DONE.has(order.status) ? null : local;
}

export function shownOrderNumber(order: { number: string; local_number?: string | null; status: OrderStatus }): string {
  const hub = hubNumberShown(order);
  return hub === null ? order.number : `${order.number} · ${hub}`;
}
