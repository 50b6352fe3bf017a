import type { KitchenDoorOptions } from '../engine/http/kitchen/kitchen-door.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../engine/clock.ts';
import { Engine } from '../engine/engine.ts';
import type { RateLimits } from '../engine/http/build-http-api.ts';
import { acquireServingLock } from '../engine/serving-lock.ts';
import { lowSpaceRefusal } from '../engine/store/database-checks.ts';
import { MIN_FREE_BYTES_TO_START } from '../engine/domain/free-space.ts';
import { startEngineServer, type EngineServer } from './start-engine-server.ts';
import { Replica, type ReplicaOptions } from '../sync/replica.ts';

export interface ReplicaServerOptions {
  /** Refuse to start with less free beside the database (default 64 MB). */
  minFreeBytes?: number;
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
  /** Who serves, for the message a second engine on the same file prints. */
  servingAs?: string;
}

export interface ReplicaServer {
  server: EngineServer;
  replica: Replica;
  close(): Promise<void>;
}

/** The engine as a replica of an upstream: first pull, then the local API, then sync in the background. */
export async function startReplicaServer(options: ReplicaServerOptions): Promise<ReplicaServer> {
  // The file's serving lock first: a replica refused because another engine serves the file has
  // opened, migrated, identified or refreshed nothing in it (identifying registers the key).
  const servingLock = acquireServingLock(options.database, options.servingAs ?? 'a replica');
  let engine: Engine | null = null;
  let replica: Replica | null = null;
  try {
    const lowSpace = lowSpaceRefusal(options.database, options.minFreeBytes ?? MIN_FREE_BYTES_TO_START);
    if (lowSpace) throw lowSpace;
    engine = new Engine({ database: options.database, role: 'replica', ...(options.clock ? { clock: options.clock } : {}) });
    servingLock.coverFile();
    replica = await Replica.connect({ engine, upstreamUrl: options.upstreamUrl, apiKey: options.apiKey, ...options.sync });
    const connected = replica;
    const server = await startEngineServer({
      database: engine,
      servingLock,
      commands: () => connected.commands,
      replica: connected,
      ...(options.host !== undefined ? { host: options.host } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
      ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
      ...(options.logger !== undefined ? { logger: options.logger } : {}),
      ...(options.kitchen ? { kitchen: options.kitchen } : {}),
    });
    connected.start();
    return {
      server,
      replica: connected,
      async close() {
        await connected.stop();
        await server.close();
      },
    };
  } catch (error) {
    if (replica) await replica.stop();
    if (engine?.db.open) engine.close();
    servingLock.abandon();
    throw error;
  }
}
