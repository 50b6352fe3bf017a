// When a ticket reached the kitchen and when it was ready, folded from the order's changes in feed
// order. The engine folds past events for a snapshot; the screen folds live ones the same way.
import { ACTIVE_STATUSES, type OrderStatus } from '../order-states.ts';
import type { TicketTiming } from './kitchen.ts';

export { ACTIVE_STATUSES };

/** States at or past the kitchen's door: the ticket's timer starts on the first of them. */
const IN_KITCHEN: readonly OrderStatus[] = ['recibido', 'en_preparacion', 'listo', 'en_reparto', 'entregado'];
/** States at or past "ready". */
const READY: readonly OrderStatus[] = ['listo', 'en_reparto', 'entregado'];

export const NO_TIMING: TicketTiming = { kitchen_since: null, ready_at: null };

export function foldTiming(previous: TicketTiming | undefined, status: OrderStatus, at: number): TicketTiming {
  const before = previous ?? NO_TIMING;
  return {
    kitchen_since: before.kitchen_since ?? (IN_KITCHEN.includes(status) ? at : null),
    ready_at: before.ready_at ?? (READY.includes(status) ? at : null),
  };
}
