import type { FastifyBaseLogger } from 'fastify';
import { closeSync, openSync } from 'node:fs';
import type { Clock } from '../engine/clock.ts';
import type { CourierRegistry } from '../engine/couriers/courier-registry.ts';
import { Engine } from '../engine/engine.ts';
import { buildHttpApi, type RateLimits } from '../engine/http/build-http-api.ts';
import type { KitchenDoorOptions } from '../engine/http/kitchen/kitchen-door.ts';
import type { ApiServer, ReplicaDoor } from '../engine/http/http-context.ts';
import type { PaymentProviders } from '../engine/payments/payment-provider.ts';
import { localCommands, type EngineCommands } from '../engine/services/engine-commands.ts';
import { assembleProviders, type Providers } from '../engine/providers.ts';
import type { PaymentCredentialsSource } from '../engine/payments/payment-credentials-source.ts';
import { startJobs, type JobsRunner } from '../engine/jobs/start-jobs.ts';
import { createSmtpSender, type SmtpSettings } from '../engine/mail/smtp-sender.ts';
import type { MailSender } from '../engine/mail/mail-sender.ts';
import type { PrinterPort } from '../engine/printers/printer-port.ts';
import { acquireServingLock, type ServingLock } from '../engine/serving-lock.ts';
import { startWalCheckpointer } from '../engine/store/wal-checkpointer.ts';
import { checkIntegrityInBackground, lowSpaceRefusal, quickCheckAtOpen, type StorageRefusal } from '../engine/store/database-checks.ts';
import { MIN_FREE_BYTES_TO_START } from '../engine/domain/free-space.ts';
import { postgresNodeHealth, type PostgresNodeHealth } from '../engine/postgres/postgres-health.ts';
import { createPostgresClient } from '../engine/postgres/postgres-pool.ts';

export interface EngineServerOptions {
  /** Refuse to start with less free beside the database (default 64 MB; tests on a tiny tmpfs say 0). */
  minFreeBytes?: number;
  /**
   * A path to the SQLite file, or an engine already opened on it (a replica opens its own) or on a
   * PostgreSQL node (issue 34: no file, so no serving lock, free-space or file checks; several nodes
   * serve one database).
   */
  database: string | Engine;
  clock?: Clock;
  host?: string;
  port?: number;
  rateLimits?: RateLimits;
  logger?: FastifyBaseLogger | boolean;
  /** Payment providers by world (engine/providers.ts's defaults for what is left out). */
  payments?: Partial<PaymentProviders>;
  /**
   * Restaurants' payment credentials kept by the host (the desktop's safeStorage), asked before the
   * database's table (`npm run payments`) on every use.
   */
  paymentCredentials?: PaymentCredentialsSource;
  /** Courier adapters by provider name; the simulated courier by default. */
  couriers?: CourierRegistry;
  /** How writes are applied (default: the services, with the assembled couriers); a replica passes commands that also queue them for the upstream. */
  commands?: (engine: Engine, providers: Providers) => EngineCommands;
  /** Set when the engine is a replica: what only its upstream can do, and its sync status. */
  replica?: ReplicaDoor;
  /** Where customer mails are sent; without it they stay queued (and visible) until configureMail. */
  smtp?: SmtpSettings | null;
  /** false answers order reads without the kept response bytes (http/order-responses.ts); default true. */
  keepOrderResponses?: boolean;
  /** Who serves, for the message a second engine on the same file prints ("npm run serve", "the Comanda app"). */
  servingAs?: string;
  /**
   * Serve without taking the file's serving lock (serving-lock.ts): only for tests of two engine
   * processes on one file, which SQLite keeps consistent but which no restaurant should run.
   */
  shareDatabase?: boolean;
  /** The file's serving lock, already taken by the caller (a replica takes it before its first write); closed with the server. */
  servingLock?: ServingLock;
  /**
   * How often (ms) `PRAGMA data_version` is read to notice commits of other processes on the file
   * (a CLI, or a second engine under --share-file), which wake long-polls and the live feed; default 250.
   */
  externalChangesPollMs?: number;
  /** Files up to this size are quick_checked before serving, larger ones right after (default 32 MiB). */
  quickCheckMaxBytes?: number;
  /** Real-time period of the jobs' tick in ms (default 1000); with a ManualClock they also run on every move. */
  jobsIntervalMs?: number;
  /** The kitchen screen served to paired tablets at /kitchen/: where the built page is, heartbeat, pairing limits. */
  kitchen?: KitchenDoorOptions;
  /** How long (real time) a payment provider may take to open a session; default 10 s. */
  paymentTimeoutMs?: number;
  /**
   * The engine's public origin (scheme, host, port) behind a reverse proxy: payment pages and the
   * `notification_url` given to payment providers use it instead of the request's Host.
   */
  publicOrigin?: string;
  /** How long (real time) one courier call may take; default 10 s. */
  courierTimeoutMs?: number;
  /** How long sending one print job may take (real time); default 10 s. */
  printTimeoutMs?: number;
  /** How tickets reach the kitchen printers; the network printer (raw TCP) by default. */
  printers?: PrinterPort;
}

export interface EngineServer {
  engine: Engine;
  commands: EngineCommands;
  app: ApiServer;
  /** Payments, couriers, the starting mail sender and the printer port, assembled once here (engine/providers.ts). */
  providers: Providers;
  /** The background jobs (payment expiry, scheduled release, couriers, mail), stopped by close(). */
  jobs: JobsRunner;
  /** Sets or clears the SMTP server for customer mails at runtime (the app's settings); throws SmtpSettingsError when unusable. */
  configureMail(settings: SmtpSettings | null): void;
  /** Resolves once the file's quick_check is done (at once when it ran before serving): the refusal when damaged, else null. */
  integrityChecked: Promise<StorageRefusal | null>;
  /** http://host:port/v1 */
  baseUrl: string;
  /** http://host:port, where the kitchen screen (/kitchen/) and its pairing URLs live. */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** The engine with its HTTP API listening: what `npm run serve`, the desktop app and the tests start. */
export async function startEngineServer(options: EngineServerOptions): Promise<EngineServer> {
  // Checked before anything opens, so a bad URL fails the start with its reason.
  const mailSender = options.smtp ? createSmtpSender(options.smtp) : null;
  // Taken before the file is opened, so a second engine stops at once, before any check or write.
  // A replica takes it itself, before its first write (sync/start-replica-server.ts), and hands it over.
  if (options.servingLock) return await serveEngine(options, mailSender, options.servingLock, null);
  if (options.database instanceof Engine && options.database.kind === 'postgres') return await serveEngine(options, mailSender, null, null);
  const databasePath = options.database instanceof Engine ? options.database.db.name : options.database;
  const servingLock =
    options.shareDatabase || databasePath === ':memory:' ? null : acquireServingLock(databasePath, options.servingAs ?? 'an engine');
  let opened: Engine | null = null;
  try {
    // Before the file is opened: with less than this free, writes would soon stop (api-v1-decisions.md).
    const lowSpace = databasePath === ':memory:' ? null : lowSpaceRefusal(databasePath, options.minFreeBytes ?? MIN_FREE_BYTES_TO_START);
    if (lowSpace) throw lowSpace;
    opened =
      options.database instanceof Engine
        ? options.database
        : new Engine({
            database: options.database,
            ...(options.clock ? { clock: options.clock } : {}),
            ...(options.quickCheckMaxBytes !== undefined ? { quickCheckMaxBytes: options.quickCheckMaxBytes } : {}),
          });
    // A file this start created has an inode only now: the same file under another name is caught from here on.
    servingLock?.coverFile();
    return await serveEngine(options, mailSender, servingLock, opened);
  } catch (error) {
    if (opened && opened !== options.database && opened.db.open) opened.close();
    // A refused start leaves nothing behind: what it created beside the file goes with the lock.
    servingLock?.abandon();
    throw error;
  }
}

async function serveEngine(
  options: EngineServerOptions,
  mailSender: MailSender | null,
  servingLock: ServingLock | null,
  opened: Engine | null,
): Promise<EngineServer> {
  const engine = opened ?? (options.database as Engine);
  // Assembled once, here: the HTTP door, the commands and the jobs get the same providers.
  const providers = assembleProviders(engine, {
    ...(options.payments ? { payments: options.payments } : {}),
    ...(options.paymentCredentials ? { paymentCredentials: options.paymentCredentials } : {}),
    ...(options.couriers ? { couriers: options.couriers } : {}),
    ...(options.printers ? { printers: options.printers } : {}),
    mail: mailSender,
  });
  const commands = options.commands ? options.commands(engine, providers) : localCommands(engine, providers.couriers);
  const health = engine.postgres ? postgresHealthProbe(engine.postgres.pool, engine.postgres.nodeId) : null;
  const app = await buildHttpApi({
    engine,
    commands,
    providers,
    ...(health ? { health } : {}),
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
    ...(options.replica ? { replica: options.replica } : {}),
    ...(options.keepOrderResponses !== undefined ? { keepOrderResponses: options.keepOrderResponses } : {}),
    ...(options.kitchen ? { kitchen: options.kitchen } : {}),
    ...(options.paymentTimeoutMs !== undefined ? { paymentTimeoutMs: options.paymentTimeoutMs } : {}),
    ...(options.publicOrigin !== undefined ? { publicOrigin: options.publicOrigin } : {}),
  });
  // Issue 35: the health probe's connection made before the first request can ask (postgres-health.ts).
  await health?.open();
  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const jobs = await startJobs(engine, providers, {
    logger: app.log,
    ...(options.jobsIntervalMs !== undefined ? { intervalMs: options.jobsIntervalMs } : {}),
    ...(options.courierTimeoutMs !== undefined ? { courierTimeoutMs: options.courierTimeoutMs } : {}),
    ...(options.paymentTimeoutMs !== undefined ? { paymentTimeoutMs: options.paymentTimeoutMs } : {}),
    ...(options.printTimeoutMs !== undefined ? { printTimeoutMs: options.printTimeoutMs } : {}),
  });
  const baseUrl = `http://${shownHost}:${port}/v1`;
  const file = engine.kind === 'sqlite' ? watchSqliteFile(engine, options, app) : null;
  servingLock?.setBaseUrl(baseUrl);
  let closed = false;
  return {
    engine,
    commands,
    app,
    providers,
    jobs,
    configureMail(settings: SmtpSettings | null) {
      jobs.setMailSender(settings ? createSmtpSender(settings) : null);
    },
    integrityChecked: file?.integrityChecked ?? Promise.resolve(null),
    baseUrl,
    origin: `http://${shownHost}:${port}`,
    port,
    async close() {
      if (closed) return;
      closed = true;
      // Issue 35: first no new requests, then the jobs (their passes under way finish), then the
      // database: closed under a pass, the pool would fail it ("Cannot use a pool after calling end").
      await app.close();
      file?.stopWatching();
      await jobs.stop();
      await health?.close();
      await file?.stopCheckpoints();
      await engine.shutdown();
      // Only now: closing it with a connection still open would drop SQLite's locks (store/wal-checkpointer.ts).
      file?.closeDescriptor();
      servingLock?.release();
    },
  };
}

/**
 * Issue 35: `/v1/health` on PostgreSQL asks on a connection of its own, to the pool's database: a
 * pool busy with orders would queue the probe, and a node that writes would say it cannot.
 */
function postgresHealthProbe(pool: { options: { connectionString?: string | undefined } }, nodeId: string): PostgresNodeHealth {
  const connectionString = pool.options.connectionString;
  if (connectionString === undefined) throw new Error('the PostgreSQL pool has no connection string for the health probe');
  return postgresNodeHealth(
    // Its errors are its answers ("cannot write"), so they are not logged again.
    () => createPostgresClient({ connectionString, applicationName: 'comanda health', onError: () => {} }),
    { nodeId },
  );
}

/**
 * What an engine on a SQLite file runs beside it: the watch for other processes' commits, the
 * file's integrity check when it was too large to check before serving, and the WAL checkpointer.
 */
function watchSqliteFile(engine: Engine, options: EngineServerOptions, app: ApiServer) {
  // Commits made by other processes wake this engine's waiters too (its own wake them at once).
  const stopWatching = engine.dataVersion.onChange(() => engine.notifier.notifyAll());
  const watcher = setInterval(() => {
    if (engine.db.open) engine.dataVersion.check();
  }, options.externalChangesPollMs ?? 250);
  watcher.unref();
  // A file too large to check before serving is checked now, off the event loop; damaged, it
  // takes no more writes (503 storage_damaged) and says so in the log.
  const databaseFile = engine.db.name;
  const integrityChecked: Promise<StorageRefusal | null> = quickCheckAtOpen(databaseFile, options.quickCheckMaxBytes)
    ? Promise.resolve(null)
    : checkIntegrityInBackground(databaseFile).then((refusal) => {
        if (refusal) {
          engine.refuseWrites(refusal.message);
          app.log.error({ file: databaseFile }, refusal.message);
        }
        return refusal;
      });
  // Checkpoints off the event loop (store/wal-checkpointer.ts); started after listening, it costs start-up nothing.
  const syncDescriptor = databaseFile === ':memory:' || databaseFile === '' ? null : openSync(databaseFile, 'r+');
  const checkpointer = syncDescriptor === null ? null : startWalCheckpointer(engine.db, syncDescriptor);
  const stopWaking = checkpointer ? engine.onCommit(checkpointer.wake) : () => {};
  return {
    integrityChecked,
    stopWatching() {
      clearInterval(watcher);
      stopWatching();
    },
    async stopCheckpoints() {
      stopWaking();
      await checkpointer?.stop();
    },
    closeDescriptor() {
      if (syncDescriptor !== null) closeSync(syncDescriptor);
    },
  };
}
