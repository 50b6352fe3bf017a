// The board's first data, asked for by the page's first, tiny script (start.ts) while the app's own
// script (~470 KB: React, every screen, the bridge's channel table) is still fetched, compiled and
// run: the engine reads the snapshot meanwhile, where before it was asked for only once all of that
// had run (bench row 5: 50-160 ms of a first render). Type imports only: this module must stay tiny.
import type { ComandaBridge, ScreenResult } from '../../shared/screen-contract/contract.ts';
import type { BoardSnapshot, LivePush } from '../../shared/screen-contract/kitchen.ts';

export interface EarlyBoard {
  /** The snapshot, asked for as the page started. */
  snapshot: Promise<ScreenResult<BoardSnapshot>>;
  /**
   * Hands the live pushes over to `listener`: first those that arrived since the snapshot was asked
   * for (none is lost between the snapshot's read and the app's own subscription), then each as it comes.
   */
  listen(listener: (push: LivePush) => void): () => void;
}

let early: EarlyBoard | null = null;

/** Inside the desktop app (the preload's bridge is there): asks for the board at once and keeps the pushes meanwhile. */
export function startEarlyBoard(bridge: ComandaBridge | undefined): void {
  if (typeof bridge !== 'object' || bridge === null || early !== null) return;
  const kept: LivePush[] = [];
  let forward: ((push: LivePush) => void) | null = null;
  const unsubscribe = bridge.onLive((push) => {
    if (forward) forward(push);
    else kept.push(push);
  });
  early = {
    snapshot: bridge.boardSnapshot({}),
    listen(listener) {
      forward = listener;
      for (const push of kept.splice(0)) listener(push);
      return unsubscribe;
    },
  };
}

/** The early start, once (the app's first board load takes it; a later one asks again). */
export function takeEarlyBoard(): EarlyBoard | null {
  const taken = early;
  early = null;
  return taken;
}
