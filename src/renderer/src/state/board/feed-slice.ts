// The board's one source of truth: the engine's snapshot, then the live feed's events. A new ticket
// rings; a ticket changed elsewhere flashes; this screen's own moves come back and are settled.
import { KITCHEN_EVENTS, type BoardSnapshot, type KitchenEvent, type KitchenOrder, type KitchenTicket, type LivePush } from '../../../../shared/screen-contract/kitchen.ts';
import { foldTiming } from '../../../../shared/screen-contract/ticket-timing.ts';
import { errorMessage } from '../../api.ts';
import { isColumnStatus } from '../../board-logic.ts';
import type { BoardContext, FeedSlice, GetBoard, SetBoard } from './board-shape.ts';
import { sameJson } from './same-json.ts';
import { shownStatusOf } from './shown.ts';

/** Without any word from main for this long, the board says its data may be stale. */
export const STALE_AFTER_MS = 6000;
/** The board re-reads everything this often (a new day, and a belt to the feed's braces). */
const RESYNC_MS = 5 * 60_000;


const isNewer = (next: KitchenTicket, known: KitchenTicket | undefined) =>
  known === undefined || Date.parse(next.order.updated_at) >= Date.parse(known.order.updated_at);

/**
 * A push's clock offset also carries its delivery delay (a few ms, more on a busy machine): taking
 * every one of them re-rendered every ticket timer on the board at each push (~10 ms of a 16 ms
 * budget with 500 tickets). Timers show seconds, so the offset moves only when it drifted this much.
 */
const CLOCK_TOLERANCE_MS = 250;

function steadyOffset(current: number, measured: number): number {
  return Math.abs(measured - current) >= CLOCK_TOLERANCE_MS ? measured : current;
}

export function isStale(state: Pick<FeedSlice, 'lastHeardAt' | 'loaded'> & { staleAfterMs?: number }, now: number): boolean {
  return state.loaded && now - state.lastHeardAt > (state.staleAfterMs ?? STALE_AFTER_MS);
}

/** `batch`: what it runs is told to the board's readers as one change (batch.ts). */
export function createFeedSlice(set: SetBoard, get: GetBoard, ctx: BoardContext, batch: (change: () => void) => void): FeedSlice {
  /** Pushes that arrived while a snapshot was being read. */
  let buffered: LivePush[] | null = null;
  let loading: Promise<void> | null = null;
  let lastLoadAt = 0;
  /** The snapshot asked for as the page started, for the first load only. */
  let firstSnapshot = ctx.firstSnapshot ?? null;

  /**
   * Notices what an order as the engine now has it means for the screen (`known`: the ticket the
   * board showed): a new one rings, one changed elsewhere flashes, this screen's own move is settled.
   */
  const notice = (order: KitchenOrder, known: KitchenTicket | undefined) => {
    const state = get();
    // Timestamps have one-second resolution: compare the order itself.
    const changed = known !== undefined && !sameJson(known.order, order);
    // A ticket new to the board is pointed out whether the feed or a re-read brought it: an order
    // placed while a re-read was under way comes in with the snapshot, and its event, held back
    // for the read, then finds it known (the first load never comes here: what it shows is not news).
    if (known !== undefined && !changed) return;
    const shownBefore = known ? shownStatusOf(known, state.pending[order.id], state.flashes[order.id]) : null;
    const settled = state.reconcile(order);
    const cameIn = order.status === 'recibido' && (known === undefined || known.order.status === 'pendiente_pago' || known.order.status === 'programado');
    if (settled === 'own') {
      // This screen's move, back from the engine: nothing to point out.
    } else if (cameIn) {
      get().ring(order.id);
    } else if (known !== undefined) {
      // Changed elsewhere (another screen, the API, a courier): it flashes.
      if (order.status !== 'recibido') get().silence(order.id);
      if (order.status === 'cancelado') {
        const column = shownBefore !== null && isColumnStatus(shownBefore) ? shownBefore : known.order.status;
        get().flash(order.id, { kind: 'cancelled', until: ctx.now() + ctx.flashMs, column });
      } else {
        get().flash(order.id, { kind: 'changed', until: ctx.now() + ctx.flashMs });
      }
      if (settled === 'dropped-held') get().addToast({ kind: 'changed', number: order.number, status: order.status });
    }
  };

  /** Takes in an order the live feed brought. */
  const integrate = (ticket: KitchenTicket) => {
    const known = get().tickets[ticket.order.id];
    notice(ticket.order, known);
    if (isNewer(ticket, known)) {
      set((s) => ({ tickets: { ...s.tickets, [ticket.order.id]: ticket } }));
      get().settleItems(ticket);
    }
  };

  /**
   * A re-read (after silence, a reconnect, the periodic one) may reveal changes the feed did not
   * bring: they are pointed out like any other. The snapshot becomes the board's tickets in one
   * change told once (batch); a ticket it brings unchanged stays the object the board had, so its
   * card does not draw again. (Per ticket a copy of the map and a notice to every reader was
   * O(n²): 360 tickets, the long task of issue 33's throttled replay.)
   */
  const takeIn = (snapshot: BoardSnapshot) => {
    const known = get().loaded ? get().tickets : null;
    const tickets: Record<string, KitchenTicket> = {};
    const withNews: KitchenTicket[] = [];
    for (const ticket of snapshot.tickets) {
      const was = known?.[ticket.order.id];
      if (was !== undefined && sameJson(was, ticket)) {
        tickets[ticket.order.id] = was;
        continue;
      }
      tickets[ticket.order.id] = ticket;
      if (known !== null) withNews.push(ticket);
    }
    for (const ticket of withNews) notice(ticket.order, known![ticket.order.id]);
    set({
      loaded: true,
      loadError: null,
      restaurant: snapshot.restaurant,
      locations: snapshot.locations,
      stations: snapshot.stations,
      allergyWords: snapshot.allergy_words ?? [],
      printing: snapshot.printing ?? [],
      printerCount: snapshot.printer_count ?? 0,
      dayStart: snapshot.day_start,
      cursor: snapshot.cursor,
      tickets,
      clockOffset: snapshot.now - ctx.now(),
      lastHeardAt: ctx.now(),
      engineLost: false,
    });
    // The item marks this screen sent that the snapshot now shows are done.
    const pending = get().pending;
    for (const ticket of snapshot.tickets) if (pending[ticket.order.id] !== undefined) get().settleItems(tickets[ticket.order.id]!);
  };

  const applyEvent = (event: KitchenEvent) => {
    // Kitchen-only changes (an item struck, a recall) carry the order unchanged: they replace the
    // ticket's kitchen data without pointing anything out.
    if (event.type !== 'order.created' && event.type !== 'order.updated' && event.type !== KITCHEN_EVENTS.item && event.type !== KITCHEN_EVENTS.recall) return;
    const known = get().tickets[event.order.id];
    integrate({ order: event.order, kitchen: event.kitchen, ...foldTiming(known, event.order.status, event.at) });
  };

  const receive = (push: LivePush) => {
    if (buffered !== null) {
      buffered.push(push);
      return;
    }
    const wasStale = isStale(get(), ctx.now());
    set({ lastHeardAt: ctx.now(), clockOffset: steadyOffset(get().clockOffset, push.now - ctx.now()), engineLost: false });
    if (push.kind === 'heartbeat') {
      set({ status: push.status, ...(push.stale_after_ms ? { staleAfterMs: push.stale_after_ms } : {}), printing: push.printing ?? [], lowDisk: push.low_disk ?? null });
      // A board that never loaded (its engine was away when the page opened) loads on the first word.
      if (!get().loaded || wasStale || ctx.now() - lastLoadAt > RESYNC_MS) void get().load();
      get().flush();
      return;
    }
    for (const event of push.events) {
      if (event.seq <= get().cursor) continue;
      applyEvent(event);
      set({ cursor: event.seq });
    }
  };

  return {
    loaded: false,
    loadError: null,
    restaurant: null,
    locations: [],
    stations: [],
    allergyWords: [],
    dayStart: 0,
    cursor: 0,
    tickets: {},
    clockOffset: 0,
    lastHeardAt: ctx.now(),
    staleAfterMs: STALE_AFTER_MS,
    status: null,
    printing: [],
    lowDisk: null,
    printerCount: 0,
    engineLost: false,

    load() {
      if (loading) return loading;
      buffered = [];
      lastLoadAt = ctx.now();
      const asked = firstSnapshot ?? ctx.api.boardSnapshot({});
      firstSnapshot = null;
      loading = asked
        .then(
          (snapshot) => {
            batch(() => takeIn(snapshot));
            get().flush();
          },
          (error: unknown) => set({ loadError: errorMessage(error) }),
        )
        .finally(() => {
          const pending = buffered ?? [];
          buffered = null;
          loading = null;
          for (const push of pending) receive(push);
        });
      return loading;
    },

    receive,

    heard() {
      // An answer says the engine is reachable, not that the live feed flows: only a push or a
      // snapshot makes the data fresh again.
      const wasLost = get().engineLost;
      if (wasLost) set({ engineLost: false });
      if (wasLost) get().flush();
    },

    lostEngine() {
      set({ engineLost: true });
    },
  };
}
