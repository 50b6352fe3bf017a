// The tablets' live stream: Server-Sent Events carrying exactly what the desktop window gets on its
// live channel (changes after every commit, heartbeats with the stale rule). The viewer is checked
// before every message; a revoked screen gets `unpaired` and the stream ends. Event messages carry
// the feed's sequence number as their id, so a reconnecting browser resumes where it was
// (Last-Event-ID, or ?after= when the page reopens the stream itself).
//
// Each stream is a sink of the kitchen's live hub (`screen/live-hub.ts`), which reads each commit's
// events once for every screen; a message is serialised once for all the streams (a heartbeat
// too). Fan-out with bounds: a viewer (a paired
// screen's device, or the manager's browser) keeps at most `perViewer` streams: a newer one ends
// its oldest. The engine keeps at most `total` streams: past it a new one is refused (503,
// `too_many_streams`). A stream whose unsent output passes `maxBufferedBytes` (a browser that does
// not read) is closed; the browser reconnects and resumes from its last event id.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConnectionStatus } from '../../../shared/screen-contract/kitchen.ts';
import type { Engine } from '../../engine.ts';
import { createLiveHub, type LiveMessage, type LiveSink } from '../../screen/live-hub.ts';
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
  connectionStatus(): ConnectionStatus | Promise<ConnectionStatus>;
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
  stillAllowed(): boolean | Promise<boolean>;
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
  open(request: FastifyRequest, reply: FastifyReply, viewer: LiveViewer): Promise<void>;
  /** Ends every open stream (the server is closing: browsers reconnect to whoever comes back). */
  closeAll(): void;
  stats(): LiveStreamStats;
}

interface Stream extends LiveSink {
  end(farewell?: string): void;
}

const UNPAIRED = 'event: unpaired\ndata: {}\n\n';

export function liveStreams(options: LiveStreamOptions): LiveStreams {
  const { engine } = options;
  const limits: LiveStreamLimits = { ...DEFAULT_LIVE_LIMITS, ...options.limits };
  const hub = createLiveHub({ engine, heartbeatMs: options.heartbeatMs, connectionStatus: options.connectionStatus, batch: BATCH });
  /** Every open stream, oldest first (per viewer: the first of its owner is its oldest). */
  const all = new Set<Stream>();
  const byOwner = new Map<string, Set<Stream>>();
  const counters = { serialised: 0, evicted: 0, laggards: 0, refused: 0 };
  /** Set by closeAll: the server is closing, and a stream opened now would hold it open for good. */
  let closing = false;

  /** Each message's frame, made once for every stream it goes to. */
  const frames = new WeakMap<LiveMessage, string>();
  const frameOf = (message: LiveMessage): string => {
    let frame = frames.get(message);
    if (frame === undefined) {
      counters.serialised++;
      const id = message.upTo !== null ? `id: ${message.upTo}\n` : '';
      frame = `${id}data: ${JSON.stringify(message.push)}\n\n`;
      frames.set(message, frame);
    }
    return frame;
  };
  /** What a pickup screen gets instead of events: a doorbell that keeps the resume id. */
  const doorbells = new WeakMap<LiveMessage, string>();
  const doorbellOf = (message: LiveMessage & { upTo: number }): string => {
    let doorbell = doorbells.get(message);
    if (doorbell === undefined) {
      doorbell = `id: ${message.upTo}\ndata: ${JSON.stringify({ kind: 'events', now: engine.clock.now(), events: [] })}\n\n`;
      doorbells.set(message, doorbell);
    }
    return doorbell;
  };

  const leave = (stream: Stream) => {
    all.delete(stream);
    const mine = byOwner.get(stream.owner);
    mine?.delete(stream);
    if (mine?.size === 0) byOwner.delete(stream.owner);
    hub.leave(stream);
  };

  return {
    async open(request, reply, viewer) {
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
      const now = await hub.lastSeq(viewer.restaurantId);
      // Resume after what the browser last saw, if it is a position of this database's feed.
      const after = Number.isSafeInteger(lastEventId) && lastEventId >= 0 && lastEventId <= now ? lastEventId : now;
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
      const write = (frame: string) => {
        if (ended) return;
        // A browser that has not taken what it was sent: close it rather than hold a growing
        // backlog (it reconnects and resumes from the last event id it got).
        if (raw.writableLength > limits.maxBufferedBytes) {
          counters.laggards++;
          stream.end();
          return;
        }
        raw.write(frame);
      };
      const stream: Stream = {
        restaurantId: viewer.restaurantId,
        owner: viewer.owner,
        pickup: viewer.pickup === true,
        stations: viewer.stations ?? null,
        cursor: after,
        stillAllowed: () => viewer.stillAllowed(),
        deliver(message) {
          if (viewer.pickup && message.upTo !== null) write(doorbellOf(message as LiveMessage & { upTo: number }));
          else write(frameOf(message));
        },
        refused: () => stream.end(UNPAIRED),
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
      all.add(stream);
      const mine = byOwner.get(viewer.owner);
      if (mine) mine.add(stream);
      else byOwner.set(viewer.owner, new Set([stream]));
      // What happened since `after` goes to this stream alone, then a heartbeat says hello.
      await hub.join(stream, { greet: true });
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
