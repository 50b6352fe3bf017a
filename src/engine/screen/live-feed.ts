// Main's push of live changes to the desktop window's kitchen screen: the window is one sink of the
// live hub (`live-hub.ts`), sent each message as it is, over its IPC channel.
import type { ConnectionStatus, LivePush } from '../../shared/screen-contract/kitchen.ts';
import type { Engine } from '../engine.ts';
import { createLiveHub, DEFAULT_HEARTBEAT_MS, type LiveSink } from './live-hub.ts';

export interface LiveFeedOptions {
  engine: Engine;
  restaurantId: string;
  send(push: LivePush): void;
  connectionStatus: () => ConnectionStatus | Promise<ConnectionStatus>;
  /** How often the heartbeat goes out (ms). */
  heartbeatMs?: number;
  /** Events after this sequence number are pushed; default: from now. */
  after?: number;
  /** Events per push. */
  batch?: number;
  /** The stations the window's board shows (screen-stations.ts); null or absent: every station. */
  stations?: readonly string[] | null;
}

export interface LiveFeed {
  /** Reads and pushes what is new now (it also runs by itself after each commit). */
  flush(): Promise<void>;
  heartbeat(): Promise<void>;
  /**
   * The window's board now shows `stations` (null: every station), as the window said on its live
   * channel: its heartbeats keep those stations' fallback printers quiet from now on.
   */
  showStations(stations: readonly string[] | null): void;
  stop(): void;
  readonly cursor: number;
}

export async function startLiveFeed(options: LiveFeedOptions): Promise<LiveFeed> {
  const { engine, restaurantId } = options;
  const hub = createLiveHub({
    engine,
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    connectionStatus: options.connectionStatus,
    ...(options.batch === undefined ? {} : { batch: options.batch }),
  });
  const window: LiveSink = {
    restaurantId,
    owner: 'window',
    pickup: false,
    stations: options.stations ?? null,
    // A backlog after `after` is pushed at once, in batches, as the hub catches a sink up.
    cursor: options.after ?? (await hub.lastSeq(restaurantId)),
    // The window is the app's own: nothing can unpair it.
    stillAllowed: () => true,
    deliver: (message) => options.send(message.push),
    refused: () => {},
  };
  await hub.join(window);

  return {
    flush: async () => await hub.flush(restaurantId),
    heartbeat: async () => await hub.heartbeat(restaurantId),
    showStations: (stations) => hub.showStations(window, stations),
    stop: () => hub.stop(),
    get cursor() {
      return window.cursor;
    },
  };
}
