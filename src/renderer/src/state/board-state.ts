// The board's state, in slices over one zustand store: the feed (tickets as the engine last
// said: the one source of truth), this screen's pending changes (bumps held for undo, item marks,
// what waits for the engine; the reply only acknowledges), notices (flashes, ringing, toasts) and
// the selection.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BoardContext, BoardState } from './board/board-shape.ts';
import { batching } from './board/batch.ts';
import { createFeedSlice } from './board/feed-slice.ts';
import { createNoticesSlice } from './board/notices-slice.ts';
import { createPendingSlice } from './board/pending-slice.ts';
import { createSelectionSlice } from './board/selection-slice.ts';

export { isStale, STALE_AFTER_MS } from './board/feed-slice.ts';
export type { BoardState, Flash, PendingChange, PendingMove, PendingStart, Toast } from './board/board-shape.ts';
export { shownTickets } from './board/shown.ts';

/** How long a bump can be undone before it is sent (the state machine has no way back). */
export const HOLD_MS = 5000;
/** A changed ticket flashes this long; a cancelled one stays in its column this long, marked dead. */
const FLASH_MS = 8000;

export type BoardStateApi = StoreApi<BoardState>;

export interface BoardStateDeps extends Partial<Omit<BoardContext, 'api'>> {
  api: BoardContext['api'];
}

export function createBoardState(deps: BoardStateDeps): BoardStateApi {
  const ctx: BoardContext = {
    api: deps.api,
    now: deps.now ?? (() => Date.now()),
    setTimer: deps.setTimer ?? ((run, ms) => setTimeout(run, ms)),
    clearTimer: deps.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>)),
    holdMs: deps.holdMs ?? HOLD_MS,
    flashMs: deps.flashMs ?? FLASH_MS,
    pendingStorage: deps.pendingStorage,
    firstSnapshot: deps.firstSnapshot,
  };
  const board = createStore<BoardState>()((rawSet, rawGet) => {
    // Every slice sets and reads through the batching: a re-read's rings, flashes and settled
    // changes are told with its tickets, in one notice.
    const { set, get, batch } = batching(rawSet, rawGet);
    return {
      ...createFeedSlice(set, get, ctx, batch),
      ...createPendingSlice(set, get, ctx),
      ...createNoticesSlice(set, get, ctx),
      ...createSelectionSlice(set, get, ctx.now),
    };
  });
  // Kept on the screen as they change, so a reload (or a crash of the tablet's browser) loses none.
  if (ctx.pendingStorage) {
    const storage = ctx.pendingStorage;
    board.subscribe((state, previous) => {
      if (state.pending !== previous.pending) storage.write(state.pending);
    });
  }
  return board;
}
