// The tablets' live stream: Server-Sent Events carrying exactly what the desktop window gets on its
// live channel (the same live feed: changes after every commit, heartbeats with the stale rule).
// The viewer is checked before every message; a revoked screen gets `unpaired` and the stream ends.
// Event messages carry the feed's sequence number as their id, so a reconnecting browser resumes
// where it was (Last-Event-ID).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConnectionStatus, LivePush } from '../../../shared/ipc/kitchen.ts';
import type { Engine } from '../../engine.ts';
import { startLiveFeed } from '../../ipc/live-feed.ts';

export interface LiveStreamOptions {
  engine: Engine;
  heartbeatMs: number;
  connectionStatus(): ConnectionStatus;
}

/** How long a browser waits before reconnecting a dropped stream. */
const RETRY_MS = 1000;

/** Who watches: a paired screen (still paired?) or the manager's browser (session still valid?). */
export interface LiveViewer {
  restaurantId: string;
  stillAllowed(): boolean;
}

export interface LiveStreams {
  open(request: FastifyRequest, reply: FastifyReply, viewer: LiveViewer): void;
  /** Ends every open stream (the server is closing: browsers reconnect to whoever comes back). */
  closeAll(): void;
}

export function liveStreams(options: LiveStreamOptions): LiveStreams {
  const { engine } = options;
  const open = new Set<() => void>();

  return {
    open(request, reply, viewer) {
      // The browser's own reconnect says Last-Event-ID; a stream reopened by the page says ?after=.
      const resumeFrom = request.headers['last-event-id'] ?? (request.query as Record<string, unknown> | undefined)?.after;
      const lastEventId = typeof resumeFrom === 'string' && resumeFrom !== '' ? Number(resumeFrom) : Number.NaN;
      const lastSeq = engine.events.lastSeq();
      // Resume after what the browser last saw, if it is a position of this database's feed.
      const after = Number.isSafeInteger(lastEventId) && lastEventId >= 0 && lastEventId <= lastSeq ? lastEventId : lastSeq;
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
        'X-Content-Type-Options': 'nosniff',
      });
      raw.write(`retry: ${RETRY_MS}\nid: ${after}\nevent: ready\ndata: {}\n\n`);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        feed.stop();
        open.delete(end);
        raw.end();
      };
      const send = (push: LivePush) => {
        if (ended) return;
        if (!engine.db.open || !viewer.stillAllowed()) {
          raw.write('event: unpaired\ndata: {}\n\n');
          end();
          return;
        }
        const id = push.kind === 'events' && push.events.length > 0 ? `id: ${push.events[push.events.length - 1]!.seq}\n` : '';
        raw.write(`${id}data: ${JSON.stringify(push)}\n\n`);
      };
      const feed = startLiveFeed({
        engine,
        restaurantId: viewer.restaurantId,
        send,
        connectionStatus: options.connectionStatus,
        heartbeatMs: options.heartbeatMs,
        after,
      });
      open.add(end);
      raw.on('close', end);
      // What happened between `after` and now goes out at once, then a heartbeat says hello.
      feed.flush();
      feed.heartbeat();
    },
    closeAll() {
      for (const end of [...open]) end();
    },
  };
}
