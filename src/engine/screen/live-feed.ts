// Main's push of live changes to the kitchen screen: after every commit that wrote an event of the
// restaurant, the new events (both worlds) are read from the change feed and sent; a heartbeat
// carries the engine's clock and the connection status, so the screen can tell when it is stale.
import { readFreeSpace } from '../services/free-space.ts';
import type { ConnectionStatus, LivePush } from '../../shared/ipc/kitchen.ts';
import type { Engine } from '../engine.ts';
import { readKitchenEvents } from '../services/kitchen-board.ts';
import { printStatusOf } from '../services/printers.ts';

export interface LiveFeedOptions {
  engine: Engine;
  restaurantId: string;
  send(push: LivePush): void;
  connectionStatus: () => ConnectionStatus;
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
  flush(): void;
  heartbeat(): void;
  /**
   * The window's board now shows `stations` (null: every station), as the window said on its live
   * channel: its heartbeats keep those stations' fallback printers quiet from now on.
   */
  showStations(stations: readonly string[] | null): void;
  stop(): void;
  readonly cursor: number;
}

/** The connection status of a screen whose engine is its own (no platform above it). */
export const STANDALONE_STATUS: ConnectionStatus = { mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null };

export const DEFAULT_HEARTBEAT_MS = 2000;
/** Heartbeats a screen may miss before it calls its data stale. */
const STALE_HEARTBEATS = 3;

/** The heartbeat message: three missed make the screen say its data may be stale, whatever the period. */
export function heartbeatPush(engine: Engine, restaurantId: string, status: ConnectionStatus, heartbeatMs: number): LivePush {
  const printing = printStatusOf(engine, restaurantId);
  // Said only when there is something to say: a heartbeat without it means every printer is fine.
  const disk = readFreeSpace(engine);
  return {
    kind: 'heartbeat',
    now: engine.clock.now(),
    status,
    stale_after_ms: STALE_HEARTBEATS * heartbeatMs,
    ...(printing.length > 0 ? { printing } : {}),
    // Said only below 256 MB free, so the kitchen hears of it before writes stop (64 MB refuses a start).
    ...(disk.low && disk.free_bytes !== null ? { low_disk: { free_bytes: disk.free_bytes } } : {}),
  };
}

export function startLiveFeed(options: LiveFeedOptions): LiveFeed {
  const { engine, restaurantId } = options;
  const batch = options.batch ?? 200;
  let cursor = options.after ?? engine.stores.events.lastSeq();
  let scheduled = false;
  let stopped = false;
  let stations: readonly string[] | null = options.stations ?? null;
  const noteLive = () => engine.screenPresence.note(restaurantId, stations, engine.clock.now());

  const flush = () => {
    scheduled = false;
    if (stopped || !engine.db.open) return;
    for (;;) {
      const events = readKitchenEvents(engine, restaurantId, cursor, batch);
      if (events.length === 0) return;
      cursor = events[events.length - 1]!.seq;
      options.send({ kind: 'events', now: engine.clock.now(), events });
      if (events.length < batch) return;
    }
  };
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const heartbeat = () => {
    if (stopped || !engine.db.open) return;
    // The desktop window's board is a kitchen screen: while it hears the engine, it is live.
    noteLive();
    options.send(heartbeatPush(engine, restaurantId, options.connectionStatus(), heartbeatMs));
  };

  // The notifier calls back inside the writer's call stack, right after its commit: push on the
  // next turn instead, so a burst of commits goes out as one message and no writer waits for it.
  const unsubscribe = engine.notifier.subscribe(restaurantId, () => {
    if (scheduled || stopped) return;
    scheduled = true;
    setImmediate(flush);
  });
  // Live from the moment it connects, not only from its first heartbeat.
  noteLive();
  const timer = setInterval(heartbeat, heartbeatMs);
  timer.unref?.();

  return {
    flush,
    heartbeat,
    showStations(next) {
      stations = next;
      if (!stopped && engine.db.open) noteLive();
    },
    stop() {
      stopped = true;
      unsubscribe();
      clearInterval(timer);
    },
    get cursor() {
      return cursor;
    },
  };
}
