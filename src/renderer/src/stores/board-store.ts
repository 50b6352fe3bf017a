// The board's state, in slices over one zustand store: the feed (tickets as the engine last
// said: the one source of truth), this screen's held moves (undo, then sent; the reply only
// acknowledges), notices (flashes, ringing, toasts), the selection, and item bumps and recall.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BoardContext } from './board/context.ts';
import { createFeedSlice, type FeedSlice } from './board/feed-slice.ts';
import { createItemsSlice, type ItemsSlice } from './board/items-slice.ts';
import { createMovesSlice, type MovesSlice } from './board/moves-slice.ts';
import { createNoticesSlice, type NoticesSlice } from './board/notices-slice.ts';
import { createSelectionSlice, type SelectionSlice } from './board/selection-slice.ts';

export { isStale, RESYNC_MS, STALE_AFTER_MS } from './board/feed-slice.ts';
export type { Move } from './board/moves-slice.ts';
export type { Flash, Toast } from './board/notices-slice.ts';
export { shownTickets } from './board/shown.ts';

/** How long a bump can be undone before it is sent (the state machine has no way back). */
export const HOLD_MS = 5000;
/** A changed ticket flashes this long; a cancelled one stays in its column this long, marked dead. */
export const FLASH_MS = 8000;

export type BoardState = FeedSlice & MovesSlice & NoticesSlice & SelectionSlice & ItemsSlice;
export type BoardStore = StoreApi<BoardState>;

export interface BoardStoreDeps extends Partial<Omit<BoardContext, 'api'>> {
  api: BoardContext['api'];
}

export function createBoardStore(deps: BoardStoreDeps): BoardStore {
  const ctx: BoardContext = {
    api: deps.api,
    now: deps.now ?? (() => Date.now()),
    setTimer: deps.setTimer ?? ((run, ms) => setTimeout(run, ms)),
    clearTimer: deps.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>)),
    holdMs: deps.holdMs ?? HOLD_MS,
    flashMs: deps.flashMs ?? FLASH_MS,
  };
  return createStore<BoardState>()((set, get) => ({
    ...createFeedSlice(set, get, ctx),
    ...createMovesSlice(set, get, ctx),
    ...createNoticesSlice(set, get, ctx),
    ...createSelectionSlice(set, get, ctx.now),
    ...createItemsSlice(set, get, ctx),
  }));
}
