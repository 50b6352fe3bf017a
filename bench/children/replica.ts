// The replica under test, in its own process: startReplicaServer against an upstream (through a proxy).
import { answer, childConfig, tell } from '../lib/child.ts';

interface Config {
  database: string;
  upstreamUrl: string;
  apiKey: string;
}

const GENEROUS = { capacity: 1_000_000_000, refillPerSecond: 1_000_000_000 };
const config = childConfig<Config>();
const { startReplicaServer } = await import('../../src/sync/start-replica-server.ts');
const replica = await startReplicaServer({
  database: config.database,
  upstreamUrl: config.upstreamUrl,
  apiKey: config.apiKey,
  rateLimits: { perKey: GENEROUS, unauthenticated: GENEROUS },
  logger: false,
  // Retries at most every 250 ms after an outage, so the replay starts soon after the network is back.
  sync: { maxBackoffMs: 250 },
});
answer({}, () => replica.close());
tell({ type: 'ready', baseUrl: replica.server.baseUrl });
