import type { KitchenDoorOptions } from '../engine/http/kitchen/kitchen-door.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../engine/clock.ts';
import { Engine } from '../engine/engine.ts';
import type { RateLimits } from '../engine/http/build-http-api.ts';
import { startEngineServer, type EngineServer } from '../engine/start-engine-server.ts';
import { Replica, type ReplicaOptions } from './replica.ts';

export interface ReplicaServerOptions {
  database: string;
  upstreamUrl: string;
  apiKey: string;
  clock?: Clock;
  host?: string;
  port?: number;
  rateLimits?: RateLimits;
  logger?: FastifyBaseLogger | boolean;
  sync?: Pick<ReplicaOptions, 'pollWaitSeconds' | 'statusRefreshMs' | 'catalogueRefreshMs' | 'maxBackoffMs' | 'reconnect' | 'divergenceCheckMs'>;
  /** The kitchen screen for paired tablets (/kitchen/), as startEngineServer takes it. */
  kitchen?: KitchenDoorOptions;
}

export interface ReplicaServer {
  server: EngineServer;
  replica: Replica;
  close(): Promise<void>;
}

/** The engine as a replica of an upstream: first pull, then the local API, then sync in the background. */
export async function startReplicaServer(options: ReplicaServerOptions): Promise<ReplicaServer> {
  const engine = new Engine({ database: options.database, role: 'replica', ...(options.clock ? { clock: options.clock } : {}) });
  let replica: Replica;
  try {
    replica = await Replica.connect({ engine, upstreamUrl: options.upstreamUrl, apiKey: options.apiKey, ...options.sync });
  } catch (error) {
    engine.close();
    throw error;
  }
  const server = await startEngineServer({
    database: engine,
    commands: () => replica.commands,
    replica,
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
    ...(options.kitchen ? { kitchen: options.kitchen } : {}),
  });
  replica.start();
  return {
    server,
    replica,
    async close() {
      await replica.stop();
      await server.close();
    },
  };
}
