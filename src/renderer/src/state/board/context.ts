// What every slice of the board state shares: the kitchen calls, the injected clock and timers, and
// the timings (injected by tests so they never wait real seconds).
import type { StoreApi } from 'zustand/vanilla';
import type { KitchenApi } from '../../api.ts';
import type { BoardState } from '../board-state.ts';
import type { PendingStorage } from './pending-slice.ts';

export interface BoardContext {
  api: Pick<KitchenApi, 'boardSnapshot' | 'transitionOrder'> & Partial<Pick<KitchenApi, 'setItemDone' | 'recallOrder' | 'reprintOrder'>>;
  now: () => number;
  setTimer: (run: () => void, ms: number) => unknown;
  clearTimer: (handle: unknown) => void;
  holdMs: number;
  flashMs: number;
  /** Where pending changes survive a reload (none: they live as long as the page). */
  pendingStorage?: PendingStorage | undefined;
}

export type SetBoard = StoreApi<BoardState>['setState'];
export type GetBoard = () => BoardState;
