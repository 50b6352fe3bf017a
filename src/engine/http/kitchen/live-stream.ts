// The tablets' live stream: Server-Sent Events carrying exactly what the desktop window gets on its
// live channel (changes after every commit, heartbeats with the stale rule). The viewer is checked
// before every message; a revoked screen gets `unpaired` and the stream ends. Event messages carry
// the feed's sequence number as their id, so a reconnecting browser resumes where it was
// (Last-Event-ID, or ?after= when the page reopens the stream itself).
//
// Fan-out with bounds: the streams of a restaurant share one hub that reads each commit's events
// once and serialises each message once for all of them (a heartbeat too). A viewer (a paired
// screen's device, or the manager's browser) keeps at most `perViewer` streams: a newer one ends
// its oldest. The engine keeps at most `total` streams: past it a new one is refused (503,
// `too_many_streams`). A stream whose unsent output passes `maxBufferedBytes` (a browser that does
// not read) is closed; the browser reconnects and resumes from its last event id.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConnectionStatus, LivePush } from '../../../shared/ipc/kitchen.ts';
import type { Engine } from '../../engine.ts';
import { heartbeatPush } from '../../screen/live-feed.ts';
import { readKitchenEvents } from '../../services/kitchen-board.ts';
import { securityHeaders } from './static-files.ts';

export interface LiveStreamLimits {
  /** Streams one viewer (a device token, an admin session) keeps; a newer one ends its oldest. */
  perViewer: number;
  /** Streams in all; past it a new one is refused. */
  total: number;
  /** Unsent bytes a stream may hold before it is closed (its browser resumes from its last event id). */
  maxBufferedBytes: number;
}

const DEFAULT_LIVE_LIMITS: LiveStreamLimits = { perViewer: 4, total: 1000, maxBufferedBytes: 256 * 1024 };

export interface LiveStreamOptions {
  engine: Engine;
  heartbeatMs: number;
  connectionStatus(): ConnectionStatus;
  limits?: Partial<LiveStreamLimits>;
}

/** How long a browser waits before reconnecting a dropped stream. */
const RETRY_MS = 1000;
/** Events read per query. */
const BATCH = 200;

/** Who watches: a paired screen (still paired?) or the manager's browser (session still valid?). */
export interface LiveViewer {
  restaurantId: string;
  /** The device id, or the admin session's digest: streams per viewer are capped. */
  owner: string;
  stillAllowed(): boolean;
  /**
   * The customers' pickup screen: not a kitchen screen (fallback printing does not count it), and it
   * is never sent the events themselves (they carry customer data), only that something changed
   * (an empty events message with the sequence id): it then reads its own narrow view.
   */
  pickup?: boolean;
  /**
   * The stations this kitchen screen shows (its `?stations=`, checked by screen-stations.ts): its
   * heartbeats keep those stations' fallback printers quiet. Null or absent: every station.
   */
  stations?: readonly string[] | null;
}

export interface LiveStreamStats {
  open: number;
  /** Messages serialised (once per message, whatever the number of streams). */
  serialised: number;
  /** Streams ended because a newer one of the same viewer came, or because they fell too far behind. */
  evicted: number;
  laggards: number;
  refused: number;
}

export interface LiveStreams {
  open(request: FastifyRequest, reply: FastifyReply, viewer: LiveViewer): void;
  /** Ends every open stream (the server is closing: browsers reconnect to whoever comes back). */
  closeAll(): void;
  stats(): LiveStreamStats;
}

interface Stream {
  viewer: LiveViewer;
  /** The last event sequence number this stream was sent. */
  cursor: number;
  write(frame: string): void;
  end(farewell?: string): void;
}

interface Hub {
  restaurantId: string;
  cursor: number;
  streams: Set<Stream>;
  scheduled: boolean;
  unsubscribe(): void;
  timer: ReturnType<typeof setInterval>;
}

const UNPAIRED = 'event: unpaired\ndata: {}\n\n';

export function liveStreams(options: LiveStreamOptions): LiveStreams {
  const { engine } = options;
  const limits: LiveStreamLimits = { ...DEFAULT_LIVE_LIMITS, ...options.limits };
  const hubs = new Map<string, Hub>();
  /** Every open stream, oldest first (per viewer: the first of its owner is its oldest). */
  const all = new Set<Stream>();
  const byOwner = new Map<string, Set<Stream>>();
  const counters = { serialised: 0, evicted: 0, laggards: 0, refused: 0 };
  /** Set by closeAll: the server is closing, and a stream opened now would hold it open for good. */
  let closing = false;

  const frameOf = (push: LivePush): string => {
    counters.serialised++;
    const id = push.kind === 'events' && push.events.length > 0 ? `id: ${push.events[push.events.length - 1]!.seq}\n` : '';
    return `${id}data: ${JSON.stringify(push)}\n\n`;
  };
  /** What a pickup screen gets instead of events up to `seq`: a doorbell that keeps the resume id. */
  const doorbellOf = (seq: number): string => `id: ${seq}\ndata: ${JSON.stringify({ kind: 'events', now: engine.clock.now(), events: [] })}\n\n`;

  /** Sends one frame to every stream of the hub whose viewer is still allowed (asked once per viewer). */
  const broadcast = (hub: Hub, frame: string, upTo: number | null) => {
    let doorbell: string | null = null;
    const allowed = new Map<string, boolean>();
    for (const stream of [...hub.streams]) {
      if (upTo !== null && stream.cursor >= upTo) continue;
      const key = stream.viewer.owner;
      let ok = allowed.get(key);
      if (ok === undefined) {
        ok = engine.db.open && stream.viewer.stillAllowed();
        allowed.set(key, ok);
      }
      if (!ok) {
        stream.end(UNPAIRED);
        continue;
      }
      if (stream.viewer.pickup && upTo !== null) stream.write((doorbell ??= doorbellOf(upTo)));
      else stream.write(frame);
      if (upTo !== null) stream.cursor = upTo;
    }
  };

  const flush = (hub: Hub) => {
    hub.scheduled = false;
    if (hub.streams.size === 0 || !engine.db.open) return;
    for (;;) {
      const events = readKitchenEvents(engine, hub.restaurantId, hub.cursor, BATCH);
      if (events.length === 0) return;
      const last = events[events.length - 1]!.seq;
      const from = hub.cursor;
      hub.cursor = last;
      // A stream that joined after part of these was read for it alone gets only what it lacks.
      const behind = [...hub.streams].filter((s) => s.cursor > from && s.cursor < last);
      for (const stream of behind) {
        const rest = events.filter((e) => e.seq > stream.cursor);
        stream.write(stream.viewer.pickup ? doorbellOf(last) : frameOf({ kind: 'events', now: engine.clock.now(), events: rest }));
        stream.cursor = last;
      }
      broadcast(hub, frameOf({ kind: 'events', now: engine.clock.now(), events }), last);
      if (events.length < BATCH) return;
    }
  };

  const hubOf = (restaurantId: string): Hub => {
    const existing = hubs.get(restaurantId);
    if (existing) return existing;
    const hub: Hub = {
      restaurantId,
      cursor: engine.stores.events.lastSeq(),
      streams: new Set(),
      scheduled: false,
      // The notifier calls back inside the writer's call stack, right after its commit: push on the
      // next turn instead, so a burst of commits goes out as one message and no writer waits for it.
      unsubscribe: engine.notifier.subscribe(restaurantId, () => {
        if (hub.scheduled) return;
        hub.scheduled = true;
        setImmediate(() => flush(hub));
      }),
      timer: setInterval(() => {
        if (!engine.db.open || hub.streams.size === 0) return;
        // A kitchen screen hearing its heartbeats is live: no fallback printing for its stations.
        const now = engine.clock.now();
        for (const stream of hub.streams) if (stream.viewer.pickup !== true) engine.screenPresence.note(restaurantId, stream.viewer.stations ?? null, now);
        broadcast(hub, frameOf(heartbeatPush(engine, restaurantId, options.connectionStatus(), options.heartbeatMs)), null);
      }, options.heartbeatMs),
    };
    hub.timer.unref?.();
    hubs.set(restaurantId, hub);
    return hub;
  };

  const leave = (stream: Stream) => {
    all.delete(stream);
    const mine = byOwner.get(stream.viewer.owner);
    mine?.delete(stream);
    if (mine?.size === 0) byOwner.delete(stream.viewer.owner);
    const hub = hubs.get(stream.viewer.restaurantId);
    if (!hub) return;
    hub.streams.delete(stream);
    if (hub.streams.size === 0) {
      hub.unsubscribe();
      clearInterval(hub.timer);
      hubs.delete(hub.restaurantId);
    }
  };

  return {
    open(request, reply, viewer) {
      // A browser reconnecting while the server closes (on a socket it kept alive) gets no stream:
      // one opened after closeAll would never be ended, and the server would wait on it forever.
      if (closing) {
        securityHeaders(reply)
          .header('Cache-Control', 'no-store')
          .header('Connection', 'close')
          .code(503)
          .send({ ok: false, error: { code: 'engine_closing', message: 'the kitchen server is closing: try again in a moment' } });
        return;
      }
      // The viewer's oldest stream makes room first; only then is the total checked.
      for (let mine = byOwner.get(viewer.owner); mine && mine.size >= limits.perViewer; mine = byOwner.get(viewer.owner)) {
        counters.evicted++;
        mine.values().next().value!.end();
      }
      if (all.size >= limits.total) {
        counters.refused++;
        securityHeaders(reply)
          .header('Cache-Control', 'no-store')
          .header('Retry-After', 30)
          .code(503)
          .send({ ok: false, error: { code: 'too_many_streams', message: `the kitchen keeps at most ${limits.total} live streams: try again later` } });
        return;
      }
      // The browser's own reconnect says Last-Event-ID; a stream reopened by the page says ?after=.
      const resumeFrom = request.headers['last-event-id'] ?? (request.query as Record<string, unknown> | undefined)?.after;
      const lastEventId = typeof resumeFrom === 'string' && resumeFrom !== '' ? Number(resumeFrom) : Number.NaN;
      const hub = hubOf(viewer.restaurantId);
      // Resume after what the browser last saw, if it is a position of this database's feed.
      const after = Number.isSafeInteger(lastEventId) && lastEventId >= 0 && lastEventId <= engine.stores.events.lastSeq() ? lastEventId : hub.cursor;
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
        'X-Content-Type-Options': 'nosniff',
        // The socket ends with the stream: left alive, it could carry the browser's reconnect into
        // a server that is closing and keep it from ever finishing.
        Connection: 'close',
      });
      let ended = false;
      const stream: Stream = {
        viewer,
        cursor: after,
        write(frame) {
          if (ended) return;
          // A browser that has not taken what it was sent: close it rather than hold a growing
          // backlog (it reconnects and resumes from the last event id it got).
          if (raw.writableLength > limits.maxBufferedBytes) {
            counters.laggards++;
            stream.end();
            return;
          }
          raw.write(frame);
        },
        end(farewell) {
          if (ended) return;
          ended = true;
          leave(stream);
          if (farewell) raw.write(farewell);
          raw.end();
          // A peer that reads nothing never drains what was queued: do not wait for it.
          if (raw.writableLength > 0) raw.destroy();
        },
      };
      raw.write(`retry: ${RETRY_MS}\nid: ${after}\nevent: ready\ndata: {}\n\n`);
      raw.on('close', () => stream.end());
      // What happened between `after` and what the hub has sent goes out to this stream alone.
      if (!viewer.stillAllowed()) {
        stream.end(UNPAIRED);
        return;
      }
      while (stream.cursor < hub.cursor && !ended) {
        const events = readKitchenEvents(engine, viewer.restaurantId, stream.cursor, BATCH).filter((e) => e.seq <= hub.cursor);
        if (events.length === 0) {
          stream.cursor = hub.cursor;
          break;
        }
        const last = events[events.length - 1]!.seq;
        stream.write(viewer.pickup ? doorbellOf(last) : frameOf({ kind: 'events', now: engine.clock.now(), events }));
        stream.cursor = last;
      }
      if (ended) return;
      all.add(stream);
      const mine = byOwner.get(viewer.owner);
      if (mine) mine.add(stream);
      else byOwner.set(viewer.owner, new Set([stream]));
      hub.streams.add(stream);
      // A heartbeat says hello at once; a kitchen screen is live from now, for the stations it shows.
      if (viewer.pickup !== true) engine.screenPresence.note(viewer.restaurantId, viewer.stations ?? null, engine.clock.now());
      stream.write(frameOf(heartbeatPush(engine, viewer.restaurantId, options.connectionStatus(), options.heartbeatMs)));
    },
    closeAll() {
      closing = true;
      for (const stream of [...all]) stream.end();
    },
    stats() {
      return { open: all.size, ...counters };
    },
  };
}
