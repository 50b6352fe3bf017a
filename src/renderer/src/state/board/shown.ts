// Where a ticket is drawn: its last own move's target, or a cancelled ticket held in its old column
// while it flashes. (What keeps a tapped ticket in its place a moment is the board's freeze:
// BoardView.tsx, FREEZE_MS.)
import type { KitchenTicket, OrderStatus } from '../../../../shared/screen-contract/kitchen.ts';
import type { ShownTicket } from '../../board-logic.ts';
import type { Flash, PendingChange } from './board-shape.ts';
import { movesOf } from './pending-slice.ts';

export function shownStatusOf(ticket: KitchenTicket, changes: PendingChange[] | undefined, flash: Flash | undefined): OrderStatus {
  if (ticket.order.status === 'cancelado' && flash?.kind === 'cancelled' && flash.column) return flash.column;
  const moves = movesOf(changes);
  return moves.length ? moves[moves.length - 1]!.target : ticket.order.status;
}

/**
 * What each ticket shows, with its identity kept while its ticket, changes and flash are unchanged:
 * a memoized card then skips re-rendering when another ticket changes.
 */
const shownCache = new WeakMap<KitchenTicket, { changes: unknown; flash: unknown; shown: ShownTicket }>();

export function shownTickets(state: { tickets: Record<string, KitchenTicket>; pending: Record<string, PendingChange[]>; flashes: Record<string, Flash> }): ShownTicket[] {
  return Object.values(state.tickets).map((ticket) => {
    const changes = state.pending[ticket.order.id];
    const flash = state.flashes[ticket.order.id];
    const cached = shownCache.get(ticket);
    if (cached && cached.changes === changes && cached.flash === flash) return cached.shown;
    const shown = { ...ticket, shownStatus: shownStatusOf(ticket, changes, flash) };
    shownCache.set(ticket, { changes, flash, shown });
    return shown;
  });
}
