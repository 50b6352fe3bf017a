// Requests from ever-new client addresses: each one a new connection from another loopback source
// address (127.a.b.c), as the issue-19 guesser did, so the engine's per-address limiter keeps one
// bucket per address.
import { request } from 'node:http';

export interface Flood {
  /** Requests answered so far (whatever their status). */
  readonly sent: number;
  /** Resolves once `atLeast` addresses were used; the flood goes on until stop(). */
  reached(atLeast: number): Promise<void>;
  /** From now on, at most this many requests a second (null: as fast as the workers go). */
  pace(perSecond: number | null): void;
  stop(): Promise<void>;
}

const floodAddress = (i: number): string => `127.${1 + ((i >> 16) & 127)}.${(i >> 8) & 255}.${(i & 255) || 1}`;

export function startFlood(options: { port: number; path: string; method?: string; body?: string; headers?: Record<string, string>; concurrency?: number; addresses: number }): Flood {
  let sent = 0;
  let stopped = false;
  let pacing: { perSecond: number; from: number; issued: number } | null = null;
  const waiters: { atLeast: number; resolve: () => void }[] = [];
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: options.port,
          method: options.method ?? 'GET',
          path: options.path,
          headers: { connection: 'close', ...options.headers },
          localAddress: floodAddress(i % options.addresses),
          agent: false,
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
          res.on('error', () => resolve());
        },
      );
      req.on('error', () => resolve());
      req.end(options.body);
    });
  const worker = async (w: number, of: number) => {
    for (let i = w; !stopped; i += of) {
      if (pacing) {
        const slot = pacing.from + (pacing.issued++ / pacing.perSecond) * 1000;
        const wait = slot - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (stopped) break;
      }
      await one(i);
      sent++;
      for (const waiter of [...waiters]) {
        if (sent >= waiter.atLeast) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    }
  };
  const concurrency = options.concurrency ?? 32;
  const workers = Array.from({ length: concurrency }, (_, w) => worker(w, concurrency));
  return {
    get sent() {
      return sent;
    },
    pace(perSecond) {
      pacing = perSecond === null ? null : { perSecond, from: performance.now(), issued: 0 };
    },
    reached: (atLeast) => (sent >= atLeast ? Promise.resolve() : new Promise((resolve) => waiters.push({ atLeast, resolve }))),
    async stop() {
      stopped = true;
      await Promise.all(workers);
    },
  };
}
