// The one live fan-out of the kitchen screens: after every commit that wrote an event of a
// restaurant, its new events are read once and handed to every screen watching it; a heartbeat
// carries the engine's clock and the connection status, so a screen can tell when it is stale, and
// notes which kitchen screens are live (their stations' fallback printers stay quiet).
//
// How a message reaches a screen is the sink's business: the desktop window's IPC channel
// (`live-feed.ts`) and the tablets' Server-Sent Events (`http/kitchen/live-stream.ts`) are two
// kinds of sink. The hub hands the same message object to every sink, so a sink that serialises
// can do it once per message for all its peers.
import type { ConnectionStatus, KitchenEvent, LivePush } from '../../shared/screen-contract/kitchen.ts';
import type { Engine } from '../engine.ts';
import { readFreeSpace } from '../services/storage/free-space.ts';
import { lastEventSeq, readKitchenEvents } from '../services/kitchen/kitchen-board.ts';
import { printStatusOf } from '../services/printing/printers.ts';
import { readKitchenWaits } from '../services/kitchen/kitchen-waits.ts';

/** A message for the sinks; `upTo` is the last event sequence number it covers (null: a heartbeat). */
export interface LiveMessage {
  readonly push: LivePush;
  readonly upTo: number | null;
}

/** One screen watching one restaurant. */
export interface LiveSink {
  readonly restaurantId: string;
  /** Whose screen it is (a device, an admin session, the window): asked once per message and owner. */
  readonly owner: string;
  /** The customers' pickup screen: not a kitchen screen, so it does not keep printers quiet. */
  readonly pickup: boolean;
  /** The stations the screen shows (null: every station): its heartbeats keep theirs quiet. */
  stations: readonly string[] | null;
  /** The last event sequence number this sink was given; the hub moves it. */
  cursor: number;
  /** Still allowed to watch (a screen unpaired since, a session gone)? */
  stillAllowed(): boolean | Promise<boolean>;
  deliver(message: LiveMessage): void;
  /** No longer allowed: the hub has dropped it; the sink says so to its screen and ends. */
  refused(): void;
}

export interface LiveHubOptions {
  engine: Engine;
  heartbeatMs: number;
  connectionStatus(): ConnectionStatus | Promise<ConnectionStatus>;
  /** Events per message. */
  batch?: number;
}

export interface LiveHub {
  /**
   * Adds a sink: it is first sent, alone, what happened between its cursor and the hub's; `greet`
   * sends it a heartbeat at once. False when it was refused, or ended while it caught up.
   */
  join(sink: LiveSink, options?: { greet?: boolean }): Promise<boolean>;
  leave(sink: LiveSink): void;
  /** Reads and hands out what is new now (it also runs by itself after each commit). */
  flush(restaurantId: string): Promise<void>;
  heartbeat(restaurantId: string): Promise<void>;
  /** The sink's screen now shows `stations`: noted at once, and on every heartbeat after. */
  showStations(sink: LiveSink, stations: readonly string[] | null): void;
  /** The restaurant's feed position now: a cursor its sinks may start from. */
  lastSeq(restaurantId: string): Promise<number>;
  /** Drops every sink, without telling them (their owners end them). */
  stop(): void;
}

/** The connection status of a screen whose engine is its own (no platform above it). */
export const STANDALONE_STATUS: ConnectionStatus = { mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null };

export const DEFAULT_HEARTBEAT_MS = 2000;
/** Heartbeats a screen may miss before it calls its data stale. */
const STALE_HEARTBEATS = 3;
const DEFAULT_BATCH = 200;

/** The heartbeat message: three missed make the screen say its data may be stale, whatever the period. */
export async function heartbeatPush(engine: Engine, restaurantId: string, status: ConnectionStatus, heartbeatMs: number): Promise<LivePush> {
  const printing = await printStatusOf(engine, restaurantId);
  const disk = readFreeSpace(engine);
  const kitchenWaits = await readKitchenWaits(engine, restaurantId);
  return {
    kind: 'heartbeat',
    now: engine.clock.now(),
    status,
    stale_after_ms: STALE_HEARTBEATS * heartbeatMs,
    // Said only when there is something to say: a heartbeat without it means every printer is fine.
    ...(printing.length > 0 ? { printing } : {}),
    // Said only below 256 MB free, so the kitchen hears of it before writes stop (64 MB refuses a start).
    ...(disk.low && disk.free_bytes !== null ? { low_disk: { free_bytes: disk.free_bytes } } : {}),
    kitchen_waits: kitchenWaits,
  };
}

interface Channel {
  restaurantId: string;
  /** The last event sequence number read for this restaurant's sinks. */
  cursor: number;
  sinks: Set<LiveSink>;
  scheduled: boolean;
  unsubscribe(): void;
  timer: ReturnType<typeof setInterval>;
  /**
   * The channel's steps (its first cursor read, flushes, heartbeats, a sink's catch-up), one after
   * another: each awaits the database, and two interleaved would hand out the same events twice.
   */
  queue: Promise<unknown>;
}

/** Runs `step` after the channel's earlier steps; a failed step does not stop the later ones. */
function inTurn<T>(channel: Channel, step: () => Promise<T>): Promise<T> {
  const result = channel.queue.then(step);
  channel.queue = result.catch(() => {});
  return result;
}

export function createLiveHub(options: LiveHubOptions): LiveHub {
  const { engine, heartbeatMs } = options;
  const batch = options.batch ?? DEFAULT_BATCH;
  const channels = new Map<string, Channel>();

  const notePresence = (sink: LiveSink) => {
    if (!sink.pickup) engine.screenPresence.note(sink.restaurantId, sink.stations, engine.clock.now());
  };
  const eventsMessage = (events: KitchenEvent[]): LiveMessage => ({
    push: { kind: 'events', now: engine.clock.now(), events },
    upTo: events[events.length - 1]!.seq,
  });

  const drop = (channel: Channel, sink: LiveSink) => {
    channel.sinks.delete(sink);
    if (channel.sinks.size > 0) return;
    channel.unsubscribe();
    clearInterval(channel.timer);
    channels.delete(channel.restaurantId);
  };

  /** Hands one message to every sink of the channel that lacks it and is still allowed. */
  const broadcast = async (channel: Channel, message: LiveMessage) => {
    const allowed = new Map<string, boolean>();
    for (const sink of [...channel.sinks]) {
      if (message.upTo !== null && sink.cursor >= message.upTo) continue;
      let ok = allowed.get(sink.owner);
      if (ok === undefined) {
        ok = engine.isOpen && (await sink.stillAllowed());
        allowed.set(sink.owner, ok);
      }
      if (!ok) {
        drop(channel, sink);
        sink.refused();
        continue;
      }
      sink.deliver(message);
      if (message.upTo !== null) sink.cursor = message.upTo;
    }
  };

  const flush = (channel: Channel) => inTurn(channel, () => flushNow(channel));
  const flushNow = async (channel: Channel) => {
    channel.scheduled = false;
    if (channel.sinks.size === 0 || !engine.isOpen) return;
    for (;;) {
      const events = await readKitchenEvents(engine, channel.restaurantId, channel.cursor, batch);
      if (events.length === 0) return;
      const from = channel.cursor;
      const message = eventsMessage(events);
      channel.cursor = message.upTo!;
      // A sink that joined after part of these was read for it alone gets only what it lacks.
      for (const sink of channel.sinks) {
        if (sink.cursor > from && sink.cursor < channel.cursor) {
          sink.deliver(eventsMessage(events.filter((e) => e.seq > sink.cursor)));
          sink.cursor = channel.cursor;
        }
      }
      await broadcast(channel, message);
      if (events.length < batch) return;
    }
  };

  const heartbeat = (channel: Channel) =>
    inTurn(channel, async () => {
      if (!engine.isOpen || channel.sinks.size === 0) return;
      // A kitchen screen hearing its heartbeats is live: no fallback printing for its stations.
      for (const sink of channel.sinks) notePresence(sink);
      await broadcast(channel, { push: await heartbeatPush(engine, channel.restaurantId, await options.connectionStatus(), heartbeatMs), upTo: null });
    });

  const channelOf = (restaurantId: string): Channel => {
    const existing = channels.get(restaurantId);
    if (existing) return existing;
    const channel: Channel = {
      restaurantId,
      // Read by the channel's first step, before any other of its steps runs.
      cursor: 0,
      queue: Promise.resolve(),
      sinks: new Set(),
      scheduled: false,
      // The notifier calls back inside the writer's call stack, right after its commit: hand out on
      // the next turn instead, so a burst of commits goes out as one message and no writer waits.
      unsubscribe: engine.notifier.subscribe(restaurantId, () => {
        if (channel.scheduled) return;
        channel.scheduled = true;
        setImmediate(() => void flush(channel));
      }),
      timer: setInterval(() => void heartbeat(channel), heartbeatMs),
    };
    channel.timer.unref?.();
    channels.set(restaurantId, channel);
    void inTurn(channel, async () => {
      channel.cursor = await lastEventSeq(engine, restaurantId);
    });
    return channel;
  };

  /** What happened between the sink's cursor and the channel's, to this sink alone; then `greet`. */
  const catchUp = async (channel: Channel, sink: LiveSink, joinOptions: { greet?: boolean } | undefined): Promise<boolean> => {
    // What happened between the sink's cursor and the channel's goes to this sink alone (it may
    // end on the way, a browser that does not read: then it has left the channel).
    while (sink.cursor < channel.cursor && channel.sinks.has(sink)) {
      const events = (await readKitchenEvents(engine, sink.restaurantId, sink.cursor, batch)).filter((e) => e.seq <= channel.cursor);
      if (events.length === 0) {
        sink.cursor = channel.cursor;
        break;
      }
      const message = eventsMessage(events);
      sink.deliver(message);
      sink.cursor = message.upTo!;
    }
    if (!channel.sinks.has(sink)) return false;
    // Live from the moment it connects, not only from its first heartbeat.
    notePresence(sink);
    if (joinOptions?.greet) sink.deliver({ push: await heartbeatPush(engine, sink.restaurantId, await options.connectionStatus(), heartbeatMs), upTo: null });
    return true;
  };

  return {
    async join(sink, joinOptions) {
      if (!(await sink.stillAllowed())) {
        sink.refused();
        return false;
      }
      for (;;) {
        const channel = await channelOf(sink.restaurantId);
        // Added in the channel's turn: a flush queued before it must not reach the sink ahead of its catch-up.
        const joined = await inTurn(channel, async () => {
          if (channels.get(sink.restaurantId) !== channel) return null; // its last sink left meanwhile: a new channel
          channel.sinks.add(sink);
          return await catchUp(channel, sink, joinOptions);
        });
        if (joined !== null) return joined;
      }
    },
    leave(sink) {
      const channel = channels.get(sink.restaurantId);
      if (channel?.sinks.has(sink)) drop(channel, sink);
    },
    async flush(restaurantId) {
      const channel = channels.get(restaurantId);
      if (channel) await flush(channel);
    },
    async heartbeat(restaurantId) {
      const channel = channels.get(restaurantId);
      if (channel) await heartbeat(channel);
    },
    showStations(sink, stations) {
      sink.stations = stations;
      if (engine.isOpen && channels.get(sink.restaurantId)?.sinks.has(sink)) notePresence(sink);
    },
    lastSeq: async (restaurantId) => await lastEventSeq(engine, restaurantId),
    stop() {
      for (const channel of [...channels.values()]) for (const sink of [...channel.sinks]) drop(channel, sink);
    },
  };
}
