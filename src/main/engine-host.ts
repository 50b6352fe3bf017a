// The engine inside the desktop app: its SQLite file in the user data folder, the demo restaurant on
// first start, its jobs (started by startEngineServer), and the local HTTP API. Plain Node (no
// Electron import), so tests boot it.
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../engine/clock.ts';
import { importDemoRestaurants } from '../engine/demo/seed-demo.ts';
import type { RateLimits } from '../engine/http/build-http-api.ts';
import type { JobsRunner } from '../engine/jobs/start-jobs.ts';
import { startEngineServer, type EngineServer } from '../engine/start-engine-server.ts';
import type { AppSettings } from '../shared/ipc/settings.ts';

export const LOOPBACK_HOST = '127.0.0.1';
export const LAN_HOST = '0.0.0.0';

export interface EngineHostOptions {
  dataDir: string;
  settings: AppSettings;
  clock?: Clock;
  logger?: FastifyBaseLogger | boolean;
  rateLimits?: RateLimits;
}

export interface EngineHost {
  server: EngineServer;
  /** The engine's background jobs (unpaid expiry, scheduled release, couriers, mail): started with the server, stopped by close(). */
  jobs: JobsRunner;
  restaurantId: string;
  restaurants: { id: string; name: string }[];
  databasePath: string;
  /** The address the HTTP API is bound to (127.0.0.1, or 0.0.0.0 with LAN access on). */
  host: string;
  /** Set when the configured port was taken and another one was picked. */
  portFallback: { wanted: number; got: number } | null;
  lanUrls(): string[];
  close(): Promise<void>;
}

/** Whether `port` can be bound on `host` right now. */
export function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

export function lanAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a): a is NonNullable<typeof a> => a !== undefined && a.family === 'IPv4' && !a.internal)
    .map((a) => a.address);
}

export async function startEngineHost(options: EngineHostOptions): Promise<EngineHost> {
  const { settings } = options;
  const databasePath = join(options.dataDir, 'comanda.db');
  const host = settings.http.lan ? LAN_HOST : LOOPBACK_HOST;
  const wanted = settings.http.port;
  // A busy port must not keep the kitchen from opening: take a free one and say so.
  const port = (await portIsFree(host, wanted)) ? wanted : 0;
  const server = await startEngineServer({
    database: databasePath,
    host,
    port,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logger !== undefined ? { logger: options.logger } : { logger: false }),
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
  });
  try {
    // First start: an empty database gets the demo restaurants, so the screen has something real.
    importDemoRestaurants(server.engine, server.payments);
    const restaurants = server.engine.restaurants.list().map((r) => ({ id: r.id, name: r.name }));
    const chosen = restaurants.find((r) => r.id === settings.restaurant_id) ?? restaurants[0];
    if (!chosen) throw new Error('the database has no restaurant');
    return {
      server,
      jobs: server.jobs,
      restaurantId: chosen.id,
      restaurants,
      databasePath,
      host,
      portFallback: port === wanted ? null : { wanted, got: server.port },
      lanUrls: () => (host === LAN_HOST ? lanAddresses().map((a) => `http://${a}:${server.port}/v1`) : []),
      async close() {
        await server.close();
      },
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}
