// The board state's shape, types only: each slice's data and actions, the whole state they make
// together, and what every slice shares. The slices (feed-, pending-, notices-, selection-slice.ts)
// implement these and read the whole state through them; nothing here imports a slice, so no slice
// and the state that joins them (board-state.ts) import each other in a circle.
import type { StoreApi } from 'zustand/vanilla';
import type { BoardLocation, BoardSnapshot, ConnectionStatus, KitchenOrder, KitchenStation, KitchenTicket, LivePush } from '../../../../shared/screen-contract/kitchen.ts';
import type { OrderStatus, PatchTarget } from '../../../../shared/order-states.ts';
import type { PrintStatus } from '../../../../shared/screen-contract/printers.ts';
import type { KitchenApi } from '../../api.ts';
import type { RefusalCode } from '../../i18n.ts';

/** The whole board state: its four slices over one zustand store. */
export type BoardState = FeedSlice & PendingSlice & NoticesSlice & SelectionSlice;
export type SetBoard = StoreApi<BoardState>['setState'];
export type GetBoard = () => BoardState;

export interface BoardContext {
  api: Pick<KitchenApi, 'boardSnapshot' | 'transitionOrder'> & Partial<Pick<KitchenApi, 'setItemDone' | 'setItemStarted' | 'recallOrder' | 'reprintOrder' | 'retryPrinter'>>;
  now: () => number;
  setTimer: (run: () => void, ms: number) => unknown;
  clearTimer: (handle: unknown) => void;
  holdMs: number;
  flashMs: number;
  /** Where pending changes survive a reload (none: they live as long as the page). */
  pendingStorage?: PendingStorage | undefined;
  /** The snapshot the page asked for as it started (early-board.ts): the first load takes it instead of asking again. */
  firstSnapshot?: Promise<BoardSnapshot> | undefined;
}

// The feed: the engine's word (feed-slice.ts).
export interface FeedSlice {
  loaded: boolean;
  loadError: string | null;
  restaurant: BoardSnapshot['restaurant'] | null;
  locations: BoardLocation[];
  /** The restaurant's stations (empty: none declared): a screen may show one, or expo. */
  stations: KitchenStation[];
  /** The restaurant's own words marking a note as an allergy. */
  allergyWords: string[];
  dayStart: number;
  cursor: number;
  tickets: Record<string, KitchenTicket>;
  /** Engine clock minus screen clock: timers run on the engine's time. */
  clockOffset: number;
  /** Screen time of the last push from the engine (event or heartbeat) or snapshot: a call's answer does not count. */
  lastHeardAt: number;
  /** Silence after which the data is called stale: what the engine's heartbeat says (three periods). */
  staleAfterMs: number;
  status: ConnectionStatus | null;
  /** Printers with jobs waiting or in trouble (unreachable, paper out), from the last heartbeat or snapshot. */
  printing: PrintStatus[];
  /** Free disk beside the engine's database when below 256 MB (from the last heartbeat), else null. */
  lowDisk: { free_bytes: number } | null;
  /** The restaurant's kitchen printers (0: no Reimprimir). */
  printerCount: number;
  /** The last call could not reach the engine at all (not a refusal): until the next word from it, changes wait. */
  engineLost: boolean;
  load(): Promise<void>;
  receive(push: LivePush): void;
  heard(): void;
  lostEngine(): void;
}

// This screen's changes until the engine has them (pending-slice.ts).
/**
 * held: a bump (or a line's start) within its undo window; queued: due, waiting for the engine to be reachable;
 * sending: asked, no answer yet; sent: the engine said yes, the feed has not shown it yet.
 */
export type PendingPhase = 'held' | 'queued' | 'sending' | 'sent';

export interface PendingBase {
  seq: number;
  /** Its idempotency key: a retry after an unknown outcome is applied once. */
  key: string;
  phase: PendingPhase;
  /** When it is due to be sent (epoch ms, screen clock). */
  deadline: number;
  /** When it was tapped. */
  at: number;
}

export interface PendingMove extends PendingBase {
  kind: 'move';
  target: PatchTarget;
  /** What the screen showed when it was tapped. */
  from: OrderStatus;
}

export interface PendingItem extends PendingBase {
  kind: 'item';
  index: number;
  done: boolean;
}

/** A line marked started at its station (issue 32): the first tap on it, held for the undo window like a bump. */
export interface PendingStart extends PendingBase {
  kind: 'start';
  index: number;
  started: boolean;
}

export type PendingChange = PendingMove | PendingItem | PendingStart;

/** Where pending changes are kept across reloads (localStorage in the page). */
export interface PendingStorage {
  read(): Record<string, PendingChange[]>;
  write(pending: Record<string, PendingChange[]>): void;
}

export interface PendingSlice {
  /** This screen's changes not yet shown back by the feed, by order id, oldest first. */
  pending: Record<string, PendingChange[]>;
  /** One step on from what the screen shows (`seen`: the state the tapped button was drawn for). */
  /**
   * `touchedAt`: the touch's own `event.timeStamp` (a tap); a touch within TAP_GUARD_MS of the touch
   * that bumped is ignored wherever it lands (bump, item, undo), however late the page handles it.
   * A mouse (`anywhere` false) is guarded on the same ticket only: it does not slip onto another.
   */
  bump(orderId: string, seen?: OrderStatus, touchedAt?: number, anywhere?: boolean): void;
  cancel(orderId: string): void;
  /**
   * A tap on a line: a line not started yet in a cooking ticket is started (held for the undo
   * window, like a bump), a started one is done (its start, if still held, is sent first), a done
   * one is done no more. Guarded like a bump: a second touch on the line within TAP_GUARD_MS is
   * the same tap.
   */
  tapItem(orderId: string, index: number, touchedAt?: number): void;
  /** Takes back the latest held move or line start (of one order, or of any). */
  undo(orderId?: string, touchedAt?: number): boolean;
  /** Sends what waited for the engine (it was just heard from). */
  flush(): void;
  /**
   * The feed brought `order` changed: its own moves that it reflects are done; if it changed
   * otherwise, the moves this screen still held on it (decided on a state that no longer holds)
   * are dropped. Says which it was.
   */
  reconcile(order: KitchenOrder): 'own' | 'dropped-held' | 'none';
  /** The feed brought this ticket: the item marks it now reflects are done. */
  settleItems(ticket: KitchenTicket): void;
  /** Asks the engine to bring a finished ticket back (the feed brings it). */
  recall(orderId: string): void;
  /** Reimprimir: the ticket again at its printers (the status strip shows it queued, then printed). */
  reprint(orderId: string): void;
  /** Reintentar: a printer's tickets set aside are queued again (the status strip shows them go). */
  retryPrinter(printerId: string): void;
}

// What the board points out (notices-slice.ts).
export interface Flash {
  kind: 'changed' | 'cancelled' | 'refused';
  until: number;
  /** For a cancelled ticket: the column it stays in while it flashes. */
  column?: OrderStatus;
  /** For a refused change: the engine's code, said on the card. */
  code?: string;
}

export type Toast =
  | { id: number; kind: 'refused'; number: string; orderId: string; code: RefusalCode | string }
  | { id: number; kind: 'changed'; number: string; status: OrderStatus };

/** A toast before it gets its id. */
export type NewToast = Toast extends infer T ? (T extends Toast ? Omit<T, 'id'> : never) : never;

export interface NoticesSlice {
  flashes: Record<string, Flash>;
  /** New orders nobody has touched yet: the sound repeats while there is one. */
  ringing: Record<string, true>;
  toasts: Toast[];
  flash(orderId: string, flash: Flash): void;
  ring(orderId: string): void;
  silence(orderId: string): void;
  addToast(toast: NewToast): void;
  dismissToast(id: number): void;
}

// What the cook points at (selection-slice.ts).
export interface SelectionSlice {
  selectedId: string | null;
  locationFilter: string | null;
  /** The station this screen shows (its items only); null: expo, every item. */
  stationFilter: string | null;
  /** "Atrasados" (issue 32): the board shows only the cooking tickets past their promise. */
  lateOnly: boolean;
  muted: boolean;
  recallOpen: boolean;
  /** The screen's menu (station, density, layout, panels, recall). */
  menuOpen: boolean;
  /** A ticket to bring into view (keyboard, bump bar, new-orders indicator); `seq` repeats a request. */
  focusRequest: { orderId: string; seq: number } | null;
  touch(orderId: string): void;
  moveSelection(direction: 'left' | 'right' | 'up' | 'down'): void;
  bumpSelected(): void;
  /** Selects a ticket and brings it into view, wherever it is (another page, a drawer, below the fold). */
  reveal(orderId: string): void;
  setLocationFilter(locationId: string | null): void;
  setStationFilter(stationId: string | null): void;
  setLateOnly(on: boolean): void;
  setMuted(muted: boolean): void;
  setRecallOpen(open: boolean): void;
  setMenuOpen(open: boolean): void;
}
