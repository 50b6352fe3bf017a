// Where a ticket is drawn: its last own move's target, or a cancelled ticket held in its old column
// while it flashes.
import type { KitchenTicket, OrderStatus } from '../../../../shared/ipc/kitchen.ts';
import type { ShownTicket } from '../../board-logic.ts';
import type { Move } from './moves-slice.ts';
import type { Flash } from './notices-slice.ts';

export function shownStatusOf(ticket: KitchenTicket, moves: Move[] | undefined, flash: Flash | undefined): OrderStatus {
  if (ticket.order.status === 'cancelado' && flash?.kind === 'cancelled' && flash.column) return flash.column;
  return moves?.length ? moves[moves.length - 1]!.target : ticket.order.status;
}

/**
 * What each ticket shows, with its identity kept while its ticket, moves and flash are unchanged:
 * a memoized card then skips re-rendering when another ticket changes.
 */
const shownCache = new WeakMap<KitchenTicket, { moves: unknown; flash: unknown; shown: ShownTicket }>();

export function shownTickets(state: { tickets: Record<string, KitchenTicket>; moves: Record<string, Move[]>; flashes: Record<string, Flash> }): ShownTicket[] {
  return Object.values(state.tickets).map((ticket) => {
    const moves = state.moves[ticket.order.id];
    const flash = state.flashes[ticket.order.id];
    const cached = shownCache.get(ticket);
    if (cached && cached.moves === moves && cached.flash === flash) return cached.shown;
    const shown = { ...ticket, shownStatus: shownStatusOf(ticket, moves, flash) };
    shownCache.set(ticket, { moves, flash, shown });
    return shown;
  });
}
