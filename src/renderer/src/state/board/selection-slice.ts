// What the cook points at: the selected ticket (touch, keyboard or bump bar), which location is
// shown, and which side list is open. Arrows walk the four columns and then the side lists.
import { COLUMNS, lateKey, layoutBoard, recalledKey, type ShownTicket } from '../../board-logic.ts';
import type { GetBoard, SelectionSlice, SetBoard } from './board-shape.ts';
import { shownTickets } from './shown.ts';


/** Every list the keyboard reaches, left to right: the columns, then scheduled, awaiting payment and recall. */
function selectableLists(state: ReturnType<GetBoard>, now: number): ShownTicket[][] {
  const recalled = new Set(recalledKey(state.tickets, now + state.clockOffset).split(',').filter(Boolean));
  const shown = shownTickets(state);
  const lateOnly = state.lateOnly ? new Set(lateKey(shown, now + state.clockOffset).split(',').filter(Boolean)) : null;
  const layout = layoutBoard(shown, state.locationFilter, { recalled, stationId: state.stationFilter, lateOnly });
  const lists = [...COLUMNS.map((c) => layout.columns[c]), layout.scheduled, layout.awaitingPayment];
  if (state.recallOpen) lists.push(layout.recall);
  return lists;
}

export function createSelectionSlice(set: SetBoard, get: GetBoard, now: () => number): SelectionSlice {
  let focusSeq = 0;
  const select = (orderId: string) => set({ selectedId: orderId, focusRequest: { orderId, seq: ++focusSeq } });
  return {
    selectedId: null,
    locationFilter: null,
    stationFilter: null,
    lateOnly: false,
    muted: false,
    recallOpen: false,
    menuOpen: false,
    focusRequest: null,

    touch(orderId) {
      get().silence(orderId);
      set({ selectedId: orderId });
    },

    moveSelection(direction) {
      const state = get();
      const lists = selectableLists(state, now());
      let col = -1;
      let row = -1;
      lists.forEach((tickets, c) => {
        const r = tickets.findIndex((t) => t.order.id === state.selectedId);
        if (r >= 0) [col, row] = [c, r];
      });
      if (col < 0) {
        const first = lists.find((tickets) => tickets.length > 0)?.[0];
        if (first) select(first.order.id);
        return;
      }
      if (direction === 'up' || direction === 'down') {
        const tickets = lists[col]!;
        const next = Math.min(tickets.length - 1, Math.max(0, row + (direction === 'down' ? 1 : -1)));
        select(tickets[next]!.order.id);
        return;
      }
      const step = direction === 'right' ? 1 : -1;
      for (let c = col + step; c >= 0 && c < lists.length; c += step) {
        const tickets = lists[c]!;
        if (tickets.length > 0) {
          select(tickets[Math.min(row, tickets.length - 1)]!.order.id);
          return;
        }
      }
    },

    bumpSelected() {
      const id = get().selectedId;
      if (!id) {
        get().moveSelection('right');
        return;
      }
      // The selection follows the ticket, so repeated presses walk it through the flow.
      get().bump(id);
    },

    reveal(orderId) {
      select(orderId);
    },

    setLocationFilter(locationId) {
      set({ locationFilter: locationId });
    },
    setLateOnly(on) {
      set({ lateOnly: on });
    },
    setStationFilter(stationId) {
      set({ stationFilter: stationId });
    },
    setMuted(muted) {
      set({ muted });
    },
    setRecallOpen(open) {
      set({ recallOpen: open, ...(open ? { menuOpen: false } : {}) });
    },
    setMenuOpen(open) {
      set({ menuOpen: open });
    },
  };
}
