// The engine inside the desktop app: its SQLite file in the user data folder, the demo restaurant on
// first start, its jobs (started by startEngineServer), and the local HTTP API; in connected mode,
// the engine as a replica of the platform. Plain Node (no Electron import), so tests boot it.
import { listRestaurants } from '../engine/services/keys/restaurant-context.ts';
import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../engine/clock.ts';
import { importDemoRestaurants } from '../engine/demo/seed-demo.ts';
import { StorageRefusal } from '../engine/store/database-checks.ts';
import type { RateLimits } from '../engine/http/build-http-api.ts';
import type { KitchenDoorOptions } from '../engine/http/kitchen/kitchen-door.ts';
import { STANDALONE_STATUS } from '../engine/screen/live-hub.ts';
import type { JobsRunner } from '../engine/jobs/start-jobs.ts';
import type { PaymentCredentialsSource } from '../engine/payments/payment-credentials-source.ts';
import { startEngineServer, type EngineServer } from '../host/start-engine-server.ts';
import type { ConnectionStatus } from '../shared/screen-contract/kitchen.ts';
import type { AppSettings } from '../shared/screen-contract/settings.ts';
import type { SyncStatus } from '../shared/sync-status.ts';
import { startReplicaServer, type ReplicaServer } from '../host/start-replica-server.ts';

export const LOOPBACK_HOST = '127.0.0.1';
export const LAN_HOST = '0.0.0.0';
const STANDALONE_DATABASE = 'comanda.db';
const REPLICA_DATABASE = 'comanda-replica.db';

export interface EngineHostOptions {
  dataDir: string;
  settings: AppSettings;
  /** Connected mode: the platform and its key (decrypted by main; never logged). */
  connection?: { platformUrl: string; apiKey: string } | null;
  clock?: Clock;
  logger?: FastifyBaseLogger | boolean;
  rateLimits?: RateLimits;
  /**
   * The restaurants' payment credentials the app keeps (safeStorage), read by the standalone engine
   * on every order and webhook. A replica takes no online payments itself: its platform does.
   */
  paymentCredentials?: PaymentCredentialsSource;
  /** The kitchen screen for paired tablets at /kitchen/ (its heartbeat reports this host's connection status). */
  kitchen?: Omit<KitchenDoorOptions, 'connectionStatus'>;
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
  /** Where a tablet opens its pairing URL: the first LAN address with LAN access on, loopback otherwise. */
  pairingOrigin(): { origin: string; lan: boolean };
  /** How this app reaches the world, for the status bar. */
  connectionStatus(): ConnectionStatus | Promise<ConnectionStatus>;
  /** The replica's sync status with its conflicts; null when standalone. */
  syncStatus(): Promise<SyncStatus | null>;
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

interface Served {
  server: EngineServer;
  replica: ReplicaServer | null;
  connectionError: string | null;
}

/**
 * Connected mode runs the engine as a replica on its own file (the standalone restaurant is kept
 * apart, untouched). When the platform refuses the key, or cannot be reached before a first copy
 * exists, the kitchen still opens on the standalone engine and the status bar says why.
 */
async function serve(options: EngineHostOptions, host: string, port: number, connectionStatus: () => ConnectionStatus | Promise<ConnectionStatus>): Promise<Served> {
  const common = {
    kitchen: { ...options.kitchen, connectionStatus },
    host,
    port,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logger !== undefined ? { logger: options.logger } : { logger: false }),
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
  };
  let connectionError: string | null = null;
  if (options.connection) {
    try {
      const replica = await startReplicaServer({
        database: join(options.dataDir, REPLICA_DATABASE),
        upstreamUrl: options.connection.platformUrl,
        apiKey: options.connection.apiKey,
        ...common,
      });
      return { server: replica.server, replica, connectionError: null };
    } catch (error) {
      connectionError = `${(error as Error).message}; showing the local restaurant instead`;
    }
  }
  const databasePath = join(options.dataDir, STANDALONE_DATABASE);
  // Demo data goes only into a file this start creates: an existing one, even empty (a failed
  // copy, a restore gone wrong), is the restaurant's and must never open on demo restaurants.
  const firstStart = !existsSync(databasePath);
  if (!firstStart && statSync(databasePath).size === 0) {
    throw new StorageRefusal(databasePath, 'it is empty (0 bytes), which Comanda never leaves: a failed copy or restore? It was left as it is, with no demo data put in it');
  }
  const server = await startEngineServer({
    database: databasePath,
    servingAs: 'the Comanda app',
    ...(options.paymentCredentials ? { paymentCredentials: options.paymentCredentials } : {}),
    ...common,
  });
  try {
    // First start: the new database gets the demo restaurants, so the screen has something real.
    // Without the API demo's POS-managed order: the board a new user opens has nothing stuck on it.
    if (firstStart) await importDemoRestaurants(server.engine, server.providers.payments, { managedOrder: false });
    if ((await listRestaurants(server.engine)).length === 0) {
      throw new StorageRefusal(
        databasePath,
        'it holds no restaurant (no demo data is put into an existing file); import yours with npm run restaurant -- import FILE --db ' +
          `${databasePath}, or delete the file to start again with the demo restaurants`,
      );
    }
  } catch (error) {
    await server.close();
    throw error;
  }
  return { server, replica: null, connectionError };
}

async function replicaConnectionStatus(replica: ReplicaServer): Promise<ConnectionStatus> {
  const status = await replica.replica.status();
  return {
    mode: 'connected',
    online: status.online,
    last_sync_at: status.last_pull_at === null ? null : Date.parse(status.last_pull_at),
    queued: status.outbox_pending,
    conflicts: status.conflicts.length,
    error: status.last_error,
  };
}

export async function startEngineHost(options: EngineHostOptions): Promise<EngineHost> {
  const { settings } = options;
  const host = settings.http.lan ? LAN_HOST : LOOPBACK_HOST;
  const wanted = settings.http.port;
  // A busy port must not keep the kitchen from opening: take a free one and say so.
  const port = (await portIsFree(host, wanted)) ? wanted : 0;
  // The tablets' heartbeat says what the status bar says; it is known once the engine is up.
  let status: () => Promise<ConnectionStatus> = async () => STANDALONE_STATUS;
  const { server, replica, connectionError } = await serve(options, host, port, () => status());
  const close = async () => {
    if (replica) await replica.close();
    else await server.close();
  };
  try {
    const restaurants = await listRestaurants(server.engine);
    const chosen = replica
      ? restaurants.find((r) => r.id === replica.replica.identity.restaurantId)
      : (restaurants.find((r) => r.id === settings.restaurant_id) ?? restaurants[0]);
    if (!chosen) throw new Error('the database has no restaurant');
    status = async () => {
      const current: ConnectionStatus = replica
        ? await replicaConnectionStatus(replica)
        : connectionError !== null
          ? { mode: 'connected', online: false, last_sync_at: null, queued: 0, conflicts: 0, error: connectionError }
          : STANDALONE_STATUS;
      const damaged = server.engine.writesRefused;
      if (damaged) return { ...current, error: damaged };
      // Asked with every heartbeat: a full disk is tried again, so "disco lleno" goes away once space is freed.
      return await server.engine.recheckStorage() ? { ...current, storage_full: true } : current;
    };
    return {
      server,
      jobs: server.jobs,
      restaurantId: chosen.id,
      restaurants,
      databasePath: join(options.dataDir, replica ? REPLICA_DATABASE : STANDALONE_DATABASE),
      host,
      portFallback: port === wanted ? null : { wanted, got: server.port },
      lanUrls: () => (host === LAN_HOST ? lanAddresses().map((a) => `http://${a}:${server.port}/v1`) : []),
      pairingOrigin: () => {
        const lan = host === LAN_HOST ? lanAddresses()[0] : undefined;
        return lan ? { origin: `http://${lan}:${server.port}`, lan: true } : { origin: server.origin, lan: false };
      },
      connectionStatus: () => status(),
      syncStatus: async () => await replica?.replica.status() ?? null,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
