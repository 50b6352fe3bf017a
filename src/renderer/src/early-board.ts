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

/**
 * In a browser (a paired tablet, the manager's browser): the two requests the app makes first, sent
 * as the page starts. The HTTP transport reads their answers as its own (transport/http-transport.ts).
 */
export interface EarlyBrowserStart {
  /** `GET <base>/session`: what this browser is. */
  session: Promise<Response>;
  /** `POST <base>/api/board:snapshot`: the board, if this browser may read it (refused otherwise, and dropped). */
  snapshot: Promise<Response>;
}

let early: EarlyBoard | null = null;
let earlyBrowser: EarlyBrowserStart | null = null;

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

/** Where the kitchen's door lives for this page, e.g. '/kitchen' (the page is served at <base>/). */
export function kitchenBase(location: { href: string }): string {
  return new URL('./', location.href).pathname.replace(/\/$/, '');
}

/**
 * In a browser (no bridge): asks what this browser is and for the board's snapshot at once, both
 * before the app's script has run, as the window does. No live stream is opened here: the app opens
 * it once the snapshot is in, resuming after the snapshot's cursor, so no change between the two is lost.
 */
export function startEarlyBrowserBoard(base: string, fetcher: typeof fetch = fetch): void {
  if (earlyBrowser !== null) return;
  earlyBrowser = {
    session: fetcher(`${base}/session`, { credentials: 'same-origin', cache: 'no-store' }),
    snapshot: fetcher(`${base}/api/board:snapshot`, {
      method: 'POST',
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }),
  };
  // Read later, or never (an unpaired browser's refused snapshot): not an unhandled rejection meanwhile.
  earlyBrowser.session.catch(() => {});
  earlyBrowser.snapshot.catch(() => {});
}

/** The browser's early start, once. */
export function takeEarlyBrowserBoard(): EarlyBrowserStart | null {
  const taken = earlyBrowser;
  earlyBrowser = null;
  return taken;
}
