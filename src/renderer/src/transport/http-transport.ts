// The kitchen screen in a tablet's browser: the same contract as the desktop's preload bridge,
// carried by HTTP (one POST per call to /kitchen/api/<channel>) and one live stream (Server-Sent
// Events at /kitchen/live) that reconnects by itself and resumes where it was. The device token
// rides in an HttpOnly cookie this code never sees. For a tablet, desktop-only channels are refused
// here, without a request: they do not exist for it. The manager's browser on the machine that runs
// Comanda (`npm start` without Electron) holds an admin session instead, and gets every channel.
import { DEVICE_UNPAIRED } from '../../../shared/error-codes.ts';
import type { ScreenChannel, ScreenFailure, ScreenResult } from '../../../shared/screen-contract/contract.ts';
import type { LivePush } from '../../../shared/screen-contract/kitchen.ts';
import type { BridgeTransport } from '../../../preload/bridge.ts';
import { isKitchenChannelName } from './kitchen-channels.ts';

/** The engine's answer when this browser holds no valid device token. */
const DESKTOP_ONLY = 'desktop_only';

export interface HttpTransportOptions {
  /** Where the kitchen lives, e.g. '/kitchen' (same origin). */
  base: string;
  /** Called once when the engine says this screen is not (or no longer) paired. */
  onUnpaired(): void;
  /** How long to wait before reopening a stream the browser gave up on. */
  reopenMs?: number;
}

/** What this browser is to the engine: the manager's (every channel), a paired screen, neither, or unknown (null). */
export type BrowserSession = 'admin' | 'paired' | 'pickup' | 'unpaired';

export interface HttpTransport extends BridgeTransport {
  /**
   * Asks what this browser is (network trouble counts as "unknown": null); `asked`: the page's own
   * request for it, already sent (early-board.ts), read here instead of asking again.
   */
  session(asked?: Promise<Response>): Promise<BrowserSession | null>;
  /** A call's answer to a request the page sent before this transport existed (early-board.ts), read as `invoke` reads its own. */
  answer(asked: Promise<Response>): Promise<ScreenResult<unknown>>;
  /**
   * The live stream, once opened, starts after this change-feed position (a snapshot read before the
   * stream was open: what happened since its cursor still reaches the screen). Ignored once it is open.
   */
  resumeAfter(cursor: number): void;
  close(): void;
}

const failure = (code: string, message: string): { ok: false; error: ScreenFailure } => ({ ok: false, error: { code, message } });

export function createHttpTransport(options: HttpTransportOptions): HttpTransport {
  const listeners = new Set<(push: LivePush) => void>();
  const reopenMs = options.reopenMs ?? 2000;
  let source: EventSource | null = null;
  let lastEventId: string | null = null;
  let closed = false;
  let unpaired = false;
  let admin = false;
  let opened: Promise<void> | null = null;
  let markOpened: () => void = () => {};
  /** The stations the board shows, said when the stream opens (null: every station). */
  let stations: string[] | null = null;

  const dropToPairing = () => {
    if (unpaired) return;
    unpaired = true;
    source?.close();
    options.onUnpaired();
  };

  const session = async (asked?: Promise<Response>): Promise<BrowserSession | null> => {
    try {
      const response = await (asked ?? fetch(`${options.base}/session`, { credentials: 'same-origin', cache: 'no-store' }));
      if (response.status === 401) return 'unpaired';
      if (!response.ok) return null;
      const body = (await response.json()) as { value?: { admin?: boolean; role?: string } };
      admin = body.value?.admin === true;
      return admin ? 'admin' : body.value?.role === 'pickup' ? 'pickup' : 'paired';
    } catch {
      return null;
    }
  };

  const open = () => {
    if (closed || unpaired) return;
    opened ??= new Promise<void>((resolve) => {
      markOpened = resolve;
    });
    const query = new URLSearchParams();
    if (lastEventId !== null) query.set('after', lastEventId);
    if (stations !== null && stations.length > 0) query.set('stations', stations.join(','));
    const url = `${options.base}/live${query.size > 0 ? `?${query.toString()}` : ''}`;
    const stream = new EventSource(url);
    source = stream;
    stream.addEventListener('ready', (event) => {
      lastEventId = (event as MessageEvent).lastEventId || lastEventId;
      markOpened();
    });
    stream.addEventListener('unpaired', dropToPairing);
    stream.onmessage = (event) => {
      if (event.lastEventId) lastEventId = event.lastEventId;
      let push: LivePush;
      try {
        push = JSON.parse(event.data as string) as LivePush;
      } catch {
        return;
      }
      for (const listener of listeners) listener(push);
    };
    stream.onerror = () => {
      // A dropped connection is retried by the browser itself; one it gave up on (an answer that
      // was not a stream: the engine refused the token, or something else holds the port) is ours.
      if (stream.readyState !== EventSource.CLOSED) return;
      stream.close();
      setTimeout(async () => {
        if (closed || unpaired || source !== stream) return;
        if ((await session()) === 'unpaired') dropToPairing();
        else open();
      }, reopenMs);
    };
  };

  /** A call's answer: the engine's result, a refusal, or the network's failure; an unpaired device drops to the pairing page. */
  const answer = async (asked: Promise<Response>): Promise<ScreenResult<unknown>> => {
    let response: Response;
    try {
      response = await asked;
    } catch {
      return failure('engine_unreachable', 'the kitchen server cannot be reached');
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return failure('internal_error', `unexpected answer from the kitchen server (HTTP ${response.status})`);
    }
    const result = body as Partial<ScreenResult<unknown>> & { error?: ScreenFailure };
    if (result.ok === true) return { ok: true, value: (result as { value: unknown }).value };
    const error = result.error ?? { code: 'internal_error', message: `HTTP ${response.status}` };
    if (error.code === DEVICE_UNPAIRED) dropToPairing();
    return { ok: false, error };
  };

  return {
    async invoke(channel: ScreenChannel, request: unknown): Promise<ScreenResult<unknown>> {
      if (!admin && !isKitchenChannelName(channel)) return failure(DESKTOP_ONLY, `${channel} is only available in the desktop app`);
      // A snapshot read before the stream is open could miss what happens in between: wait for it
      // (not forever: a board without live changes still beats no board).
      if (channel === 'board:snapshot' && opened) await Promise.race([opened, new Promise((r) => setTimeout(r, 3000))]);
      return await answer(
        fetch(`${options.base}/api/${channel}`, {
          method: 'POST',
          credentials: 'same-origin',
          cache: 'no-store',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(request ?? {}),
        }),
      );
    },
    answer,
    resumeAfter(cursor) {
      if (source === null && lastEventId === null) lastEventId = String(cursor);
    },
    subscribe(listener) {
      listeners.add(listener);
      if (source === null) open();
      return () => {
        listeners.delete(listener);
      };
    },
    showStations(next) {
      if ((next === null ? '' : next.join(',')) === (stations === null ? '' : stations.join(','))) return;
      stations = next;
      // The engine reads the stations when a stream opens: an open one is reopened (resuming after its last event).
      if (source === null || closed || unpaired) return;
      source.close();
      open();
    },
    session,
    close() {
      closed = true;
      source?.close();
    },
  };
}
