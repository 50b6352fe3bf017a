// Where a ticket is drawn: its last own move's target, or a cancelled ticket held in its old column
// while it flashes. A ticket just tapped stays in its place a moment (its card already shows the new
// state), so a second tap of a wet finger lands on the same ticket, not on the one that slid in.
import type { KitchenTicket, OrderStatus } from '../../../../shared/ipc/kitchen.ts';
import type { ShownTicket } from '../../board-logic.ts';
import type { Flash, PendingChange } from './board-shape.ts';
import { movesOf, TAP_GUARD_MS } from './pending-slice.ts';

export function shownStatusOf(ticket: KitchenTicket, changes: PendingChange[] | undefined, flash: Flash | undefined): OrderStatus {
  if (ticket.order.status === 'cancelado' && flash?.kind === 'cancelled' && flash.column) return flash.column;
  const moves = movesOf(changes);
  return moves.length ? moves[moves.length - 1]!.target : ticket.order.status;
}

/** Where the ticket sits: where it was when last tapped, for a moment; else where it is shown. */
export function placedStatusOf(ticket: ShownTicket, changes: PendingChange[] | undefined, now: number): OrderStatus {
  const moves = movesOf(changes);
  const last = moves[moves.length - 1];
  return last && last.target !== 'cancelado' && now - last.at < TAP_GUARD_MS ? last.from : ticket.shownStatus;
}

/** Ids of the tickets still settling after a tap at `now`, joined: a key that changes when one does. */
export function settlingKey(pending: Record<string, PendingChange[]>, now: number): string {
  const ids: string[] = [];
  for (const [id, changes] of Object.entries(pending)) {
    const moves = movesOf(changes);
    const last = moves[moves.length - 1];
    if (last && now - last.at < TAP_GUARD_MS) ids.push(id);
  }
  return ids.sort().join(',');
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
