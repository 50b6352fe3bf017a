// The replica under test, in its own process: startReplicaServer against an upstream (through a proxy).
import { performance } from 'node:perf_hooks';
import { answer, childConfig, tell } from '../lib/child.ts';

interface Config {
  database: string;
  upstreamUrl: string;
  apiKey: string;
}

const GENEROUS = { capacity: 1_000_000_000, refillPerSecond: 1_000_000_000 };
const config = childConfig<Config>();
const { startReplicaServer } = await import('../../src/host/start-replica-server.ts');
const replica = await startReplicaServer({
  database: config.database,
  upstreamUrl: config.upstreamUrl,
  apiKey: config.apiKey,
  rateLimits: { perKey: GENEROUS, unauthenticated: GENEROUS },
  logger: false,
  // The replica's own reconnect schedule (a probe at most every second while offline) is measured.
});
const engine = replica.server.engine;
answer(
  {
    cpu: () => ({ ...process.cpuUsage() }),
    /**
     * The replay of `changes` queued changes, timed inside this process as the bare replica times
     * its own: from the first change delivered to an empty outbox, looked at after each commit (an
     * answer recorded is a commit), so no request from the bench runs beside the replay.
     */
    'replay-window': (message) =>
      new Promise((resolve) => {
        const changes = message.changes as number;
        const asked = performance.now();
        let started: number | null = null;
        const look = async () => {
          const pending = await engine.stores.sync.pending();
          if (started === null && pending < changes) started = performance.now();
          if (pending > 0) return;
          stop();
          resolve({ ms: performance.now() - started!, firstAfterMs: started! - asked });
        };
        const stop = engine.onCommit(look);
      }),
  },
  () => replica.close(),
);
tell({ type: 'ready', baseUrl: replica.server.baseUrl });
