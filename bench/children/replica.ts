// The replica under test, in its own process: startReplicaServer against an upstream (through a proxy).
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
answer({ cpu: () => ({ ...process.cpuUsage() }) }, () => replica.close());
tell({ type: 'ready', baseUrl: replica.server.baseUrl });
