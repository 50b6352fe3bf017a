// The board's state: tickets as the engine last said, this screen's own moves on top (held for
// undo, then sent), flashes for changes made elsewhere, new orders ringing, and how fresh it all is.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { bumpTarget, type OrderStatus, type PatchTarget } from '../../../shared/order-states.ts';
import type { BoardLocation, BoardSnapshot, ConnectionStatus, KitchenEvent, KitchenTicket, LivePush } from '../../../shared/ipc/kitchen.ts';
import { foldTiming } from '../../../shared/ipc/ticket-timing.ts';
import type { KitchenApi } from '../api.ts';
import { errorMessage } from '../api.ts';
import { COLUMNS, isColumnStatus, layoutBoard, type ShownTicket } from '../board-logic.ts';

/** How long a bump can be undone before it is sent (the state machine has no way back). */
export const HOLD_MS = 5000;
/** A changed ticket flashes this long; a cancelled one stays in its column this long, marked dead. */
export const FLASH_MS = 8000;
/** Without any word from main for this long, the board says its data may be stale. */
export const STALE_AFTER_MS = 6000;
/** The board re-reads everything this often (a new day, and a belt to the feed's braces). */
export const RESYNC_MS = 5 * 60_000;

export interface Move {
  seq: number;
  target: PatchTarget;
  phase: 'held' | 'sending';
  /** When a held move is sent (epoch ms, screen clock). */
  deadline: number;
}

export interface Flash {
  kind: 'changed' | 'cancelled' | 'refused';
  until: number;
  /** For a cancelled ticket: the column it stays in while it flashes. */
  column?: OrderStatus;
}

export interface Toast {
  id: number;
  kind: 'refused' | 'changed' | 'error';
  number?: string;
  message: string;
}

export interface BoardState {
  loaded: boolean;
  loadError: string | null;
  restaurant: BoardSnapshot['restaurant'] | null;
  locations: BoardLocation[];
  dayStart: number;
  cursor: number;
  tickets: Record<string, KitchenTicket>;
  moves: Record<string, Move[]>;
  flashes: Record<string, Flash>;
  /** New orders nobody has touched yet: the sound repeats while there is one. */
  ringing: Record<string, true>;
  toasts: Toast[];
  selectedId: string | null;
  locationFilter: string | null;
  /** Engine clock minus screen clock: timers run on the engine's time. */
  clockOffset: number;
  /** Screen time of the last word from main (push, heartbeat or answer). */
  lastHeardAt: number;
  /** Silence after which the data is called stale: what the engine's heartbeat says (three periods). */
  staleAfterMs: number;
  status: ConnectionStatus | null;
  muted: boolean;
  recallOpen: boolean;

  load(): Promise<void>;
  receive(push: LivePush): void;
  bump(orderId: string): void;
  cancel(orderId: string): void;
  /** Takes back the latest held move (of one order, or of any). */
  undo(orderId?: string): boolean;
  touch(orderId: string): void;
  moveSelection(direction: 'left' | 'right' | 'up' | 'down'): void;
  bumpSelected(): void;
  setLocationFilter(locationId: string | null): void;
  setMuted(muted: boolean): void;
  setRecallOpen(open: boolean): void;
  dismissToast(id: number): void;
}

export interface BoardStoreDeps {
  api: Pick<KitchenApi, 'boardSnapshot' | 'transitionOrder'>;
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  holdMs?: number;
  flashMs?: number;
}

export type BoardStore = StoreApi<BoardState>;

const isNewer = (next: KitchenTicket, known: KitchenTicket | undefined) =>
  known === undefined || Date.parse(next.order.updated_at) >= Date.parse(known.order.updated_at);

/** Tickets as drawn: the last own move's target, or a cancelled ticket held in its old column. */
/**
 * What each ticket shows, with its identity kept while its ticket, moves and flash are unchanged:
 * a memoized card then skips re-rendering when another ticket changes.
 */
const shownCache = new WeakMap<KitchenTicket, { moves: unknown; flash: unknown; shown: ShownTicket }>();

export function shownTickets(state: Pick<BoardState, 'tickets' | 'moves' | 'flashes'>): ShownTicket[] {
  return Object.values(state.tickets).map((ticket) => {
    const moves = state.moves[ticket.order.id];
    const flash = state.flashes[ticket.order.id];
    const cached = shownCache.get(ticket);
    if (cached && cached.moves === moves && cached.flash === flash) return cached.shown;
    let shownStatus: OrderStatus = moves?.length ? moves[moves.length - 1]!.target : ticket.order.status;
    if (ticket.order.status === 'cancelado' && flash?.kind === 'cancelled' && flash.column) shownStatus = flash.column;
    const shown = { ...ticket, shownStatus };
    shownCache.set(ticket, { moves, flash, shown });
    return shown;
  });
}

export function isStale(state: Pick<BoardState, 'lastHeardAt' | 'loaded'> & { staleAfterMs?: number }, now: number): boolean {
  return state.loaded && now - state.lastHeardAt > (state.staleAfterMs ?? STALE_AFTER_MS);
}

export function createBoardStore(deps: BoardStoreDeps): BoardStore {
  const now = deps.now ?? (() => Date.now());
  const setTimer = deps.setTimer ?? ((run: () => void, ms: number) => setTimeout(run, ms));
  const clearTimer = deps.clearTimer ?? ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const holdMs = deps.holdMs ?? HOLD_MS;
  const flashMs = deps.flashMs ?? FLASH_MS;
  let moveSeq = 0;
  let toastSeq = 0;
  /** Targets this screen has sent and whose events have not come back yet, per order. */
  const echoes = new Map<string, PatchTarget[]>();
  const timers = new Map<string, unknown>();
  /** Pushes that arrived while a snapshot was being read. */
  let buffered: LivePush[] | null = null;
  let loading: Promise<void> | null = null;
  let lastLoadAt = 0;

  const store = createStore<BoardState>()((set, get) => {
    const addToast = (toast: Omit<Toast, 'id'>) => set((s) => ({ toasts: [...s.toasts.slice(-4), { ...toast, id: ++toastSeq }] }));

    const flash = (orderId: string, value: Flash) => {
      set((s) => ({ flashes: { ...s.flashes, [orderId]: value } }));
      setTimer(() => {
        const current = get().flashes[orderId];
        if (current && current.until <= now()) {
          const { [orderId]: _gone, ...rest } = get().flashes;
          set({ flashes: rest });
        }
      }, flashMs + 50);
    };

    const setMoves = (orderId: string, moves: Move[]) =>
      set((s) => {
        const { [orderId]: _old, ...rest } = s.moves;
        return { moves: moves.length > 0 ? { ...rest, [orderId]: moves } : rest };
      });

    const schedule = (orderId: string, at: number) => {
      const previous = timers.get(orderId);
      if (previous !== undefined) clearTimer(previous);
      timers.set(orderId, setTimer(() => {
        timers.delete(orderId);
        process(orderId);
      }, Math.max(0, at - now())));
    };

    /** Sends the first move of an order when its hold is over; one at a time, in order. */
    const process = (orderId: string) => {
      const moves = get().moves[orderId];
      const head = moves?.[0];
      if (!moves || !head || head.phase === 'sending') return;
      if (head.deadline > now()) {
        schedule(orderId, head.deadline);
        return;
      }
      setMoves(orderId, [{ ...head, phase: 'sending' }, ...moves.slice(1)]);
      echoes.set(orderId, [...(echoes.get(orderId) ?? []), head.target]);
      const forget = () => {
        const list = echoes.get(orderId) ?? [];
        const index = list.indexOf(head.target);
        if (index >= 0) list.splice(index, 1);
      };
      deps.api.transitionOrder({ order_id: orderId, target: head.target }).then(
        (ticket) => {
          set((s) => ({
            lastHeardAt: now(),
            tickets: isNewer(ticket, s.tickets[orderId]) ? { ...s.tickets, [orderId]: ticket } : s.tickets,
          }));
          setMoves(orderId, (get().moves[orderId] ?? []).filter((m) => m.seq !== head.seq));
          process(orderId);
        },
        (error: unknown) => {
          forget();
          // The engine said no: everything this screen had stacked on that ticket goes back.
          setMoves(orderId, []);
          const number = get().tickets[orderId]?.order.number;
          flash(orderId, { kind: 'refused', until: now() + flashMs });
          addToast({ kind: 'refused', ...(number !== undefined ? { number } : {}), message: errorMessage(error) });
        },
      );
    };

    /**
     * Takes in an order as the engine now has it (from the feed, or from a fresh snapshot) and
     * notices what that means for the screen: a new ticket rings, a change made elsewhere flashes.
     */
    const integrate = (ticket: KitchenTicket, source: 'feed' | 'snapshot') => {
      const { order } = ticket;
      const state = get();
      const known = state.tickets[order.id];
      const own = echoes.get(order.id) ?? [];
      const ownIndex = own.indexOf(order.status as PatchTarget);
      // Timestamps have one-second resolution: compare the order itself.
      const changed = known !== undefined && JSON.stringify(known.order) !== JSON.stringify(order);
      if (ownIndex >= 0 && (known === undefined || changed)) {
        own.splice(ownIndex, 1);
      } else if (known === undefined ? source === 'feed' : changed) {
        const cameIn = order.status === 'recibido' && (known === undefined || known.order.status === 'pendiente_pago' || known.order.status === 'programado');
        if (cameIn) {
          set((s) => ({ ringing: { ...s.ringing, [order.id]: true } }));
        } else if (known !== undefined) {
          // Changed elsewhere (another screen, the API, a courier): flash it, and drop what this
          // screen held on it, which was decided on a state that no longer holds.
          const heldHere = (state.moves[order.id] ?? []).some((m) => m.phase === 'held');
          if (heldHere) setMoves(order.id, (state.moves[order.id] ?? []).filter((m) => m.phase === 'sending'));
          if (order.status !== 'recibido') {
            // It has been seen on another device: stop ringing for it.
            const { [order.id]: _r, ...ringing } = get().ringing;
            set({ ringing });
          }
          if (order.status === 'cancelado') {
            const shown = shownTickets(state).find((t) => t.order.id === order.id)?.shownStatus ?? known.order.status;
            flash(order.id, { kind: 'cancelled', until: now() + flashMs, column: isColumnStatus(shown) ? shown : known.order.status });
          } else {
            flash(order.id, { kind: 'changed', until: now() + flashMs });
          }
          if (heldHere) addToast({ kind: 'changed', number: order.number, message: order.status });
        }
      }
      if (isNewer(ticket, known)) set((s) => ({ tickets: { ...s.tickets, [order.id]: ticket } }));
    };

    const applyEvent = (event: KitchenEvent) => {
      if (event.type !== 'order.created' && event.type !== 'order.updated') return;
      const known = get().tickets[event.order.id];
      integrate({ order: event.order, kitchen: event.kitchen, ...foldTiming(known, event.order.status, event.at) }, 'feed');
    };

    const receive = (push: LivePush) => {
      if (buffered !== null) {
        buffered.push(push);
        return;
      }
      const wasStale = isStale(get(), now());
      set({ lastHeardAt: now(), clockOffset: push.now - now() });
      if (push.kind === 'heartbeat') {
        set({ status: push.status, ...(push.stale_after_ms ? { staleAfterMs: push.stale_after_ms } : {}) });
        if (get().loaded && (wasStale || now() - lastLoadAt > RESYNC_MS)) void get().load();
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
      dayStart: 0,
      cursor: 0,
      tickets: {},
      moves: {},
      flashes: {},
      ringing: {},
      toasts: [],
      selectedId: null,
      locationFilter: null,
      clockOffset: 0,
      lastHeardAt: now(),
      staleAfterMs: STALE_AFTER_MS,
      status: null,
      muted: false,
      recallOpen: false,

      load() {
        if (loading) return loading;
        buffered = [];
        lastLoadAt = now();
        loading = deps.api
          .boardSnapshot({})
          .then(
            (snapshot) => {
              // A re-read (after silence, or the periodic one) may reveal changes the feed did not
              // bring: they flash like any other change made elsewhere.
              if (get().loaded) for (const ticket of snapshot.tickets) integrate(ticket, 'snapshot');
              const tickets: Record<string, KitchenTicket> = {};
              for (const ticket of snapshot.tickets) tickets[ticket.order.id] = ticket;
              set({
                loaded: true,
                loadError: null,
                restaurant: snapshot.restaurant,
                locations: snapshot.locations,
                dayStart: snapshot.day_start,
                cursor: snapshot.cursor,
                tickets,
                clockOffset: snapshot.now - now(),
                lastHeardAt: now(),
              });
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

      bump(orderId) {
        const state = get();
        const ticket = state.tickets[orderId];
        if (!ticket || ticket.order.status === 'cancelado' || ticket.order.status === 'entregado') return;
        get().touch(orderId);
        const moves = state.moves[orderId] ?? [];
        const shown = moves.length ? moves[moves.length - 1]!.target : ticket.order.status;
        const target = bumpTarget(shown, ticket.order.type);
        if (!target) return;
        // A second tap on the same ticket confirms the first one at once.
        const released = moves.map((m) => (m.phase === 'held' ? { ...m, deadline: now() } : m));
        setMoves(orderId, [...released, { seq: ++moveSeq, target, phase: 'held', deadline: now() + holdMs }]);
        process(orderId);
      },

      cancel(orderId) {
        const ticket = get().tickets[orderId];
        if (!ticket) return;
        get().touch(orderId);
        const sending = (get().moves[orderId] ?? []).filter((m) => m.phase === 'sending');
        setMoves(orderId, [...sending, { seq: ++moveSeq, target: 'cancelado', phase: 'held', deadline: now() }]);
        process(orderId);
      },

      undo(orderId) {
        let latest: { orderId: string; move: Move } | null = null;
        for (const [id, moves] of Object.entries(get().moves)) {
          if (orderId !== undefined && id !== orderId) continue;
          for (const move of moves) {
            if (move.phase === 'held' && move.deadline > now() && (latest === null || move.seq > latest.move.seq)) latest = { orderId: id, move };
          }
        }
        if (!latest) return false;
        const { orderId: id, move } = latest;
        setMoves(id, (get().moves[id] ?? []).filter((m) => m.seq !== move.seq));
        set({ selectedId: id });
        return true;
      },

      touch(orderId) {
        const { [orderId]: _r, ...ringing } = get().ringing;
        set({ ringing, selectedId: orderId });
      },

      moveSelection(direction) {
        const state = get();
        const layout = layoutBoard(shownTickets(state), state.locationFilter);
        const columns = COLUMNS.map((c) => layout.columns[c]);
        let col = -1;
        let row = -1;
        columns.forEach((tickets, c) => {
          const r = tickets.findIndex((t) => t.order.id === state.selectedId);
          if (r >= 0) [col, row] = [c, r];
        });
        if (col < 0) {
          const first = columns.find((tickets) => tickets.length > 0)?.[0];
          if (first) set({ selectedId: first.order.id });
          return;
        }
        if (direction === 'up' || direction === 'down') {
          const tickets = columns[col]!;
          const next = Math.min(tickets.length - 1, Math.max(0, row + (direction === 'down' ? 1 : -1)));
          set({ selectedId: tickets[next]!.order.id });
          return;
        }
        const step = direction === 'right' ? 1 : -1;
        for (let c = col + step; c >= 0 && c < columns.length; c += step) {
          const tickets = columns[c]!;
          if (tickets.length > 0) {
            set({ selectedId: tickets[Math.min(row, tickets.length - 1)]!.order.id });
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

      setLocationFilter(locationId) {
        set({ locationFilter: locationId });
      },
      setMuted(muted) {
        set({ muted });
      },
      setRecallOpen(open) {
        set({ recallOpen: open });
      },
      dismissToast(id) {
        set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
      },
    };
  });
  return store;
}
