import { mapInOrder } from '../shared/in-order.ts';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { demoRushKey, startDemoRush } from '../engine/demo/demo-rush.ts';
import { seedDemo } from '../engine/demo/seed-demo.ts';
import { checkSmtpSettings, type SmtpSettings } from '../engine/mail/smtp-sender.ts';
import { startEngineServer } from '../host/start-engine-server.ts';
import { DEFAULT_RATE_LIMITS } from '../engine/http/build-http-api.ts';
import { perNodeRateLimit } from '../engine/storage/per-node-rate-limit.ts';
import { isPostgresUrl, openPostgresEngine } from '../host/open-postgres-engine.ts';
import { UpstreamRefusedKey } from '../sync/first-pull.ts';
import { startReplicaServer, type ReplicaServer } from '../host/start-replica-server.ts';
import { defaultDatabasePath } from '../engine/data-dir.ts';
import { stopWhenNpmEnds } from './stop-with-npm.ts';
import { resolve } from 'node:path';
import { ensureKitchenBuilt } from './kitchen-build.ts';
import { createPairingCode } from '../engine/services/kitchen/kitchen-devices.ts';

/** The kitchen screen as `npm run build` leaves it; served to paired tablets at /kitchen/. */
const RENDERER_DIR = resolve(import.meta.dirname, '../../out/renderer');

const USAGE = `usage: npm run serve -- [--port N] [--host H] [--db PATH | --database postgres://… [--nodes N]] [--demo [--demo-rush [--demo-rush-pace N]]] [--smtp URL [--smtp-from ADDRESS]] [--public-origin URL]
       COMANDA_UPSTREAM_KEY=KEY npm run serve -- --upstream BASE_URL [--port N] [--host H] [--db PATH]
  --port N    port to listen on (default 4750; 0 picks a free one)
  --host H    address to bind (default 127.0.0.1)
  --kitchen-host NAME  a name tablets use to reach this machine (e.g. cocina.local), besides its
              addresses, localhost and its host name; repeat for more. Kitchen requests naming any
              other Host are refused (no DNS rebinding)
  --db PATH   SQLite file (default ${defaultDatabasePath()})
  --database postgres://USER@HOST:PORT/NAME  serve the platform from PostgreSQL instead (docs/running-the-platform.md):
              the schema is migrated first; several nodes on one database behave as one engine. The
              password may come from PGPASSWORD; the URL is never printed
  --nodes N   with --database: the number of nodes behind the load balancer (default 1). Each node's
              rate limits are its share, the API's limits divided by N (each node counts alone, in
              memory: N nodes would otherwise allow N times the limit)
  --demo      seed the two demo restaurants on an empty database and print their keys and a
              kitchen_pairing_url each (open it in a tablet's browser: single use, 10 minutes)
  --demo-rush  with --demo: post the project's rush (docs/performance.md, "The rush") to the first
              demo restaurant over this API, with a key of its own, until stopped (Ctrl-C)
  --demo-rush-pace N  orders per minute for --demo-rush (default 12; 1 to 120)
  --smtp URL  send customer mails through this server: smtp://user:pass@host:port (smtps:// for TLS);
              without it, mails stay queued in the database until a server is configured
  --smtp-from ADDRESS  sender address (default: the SMTP user when it is an address, else no-reply@host)
  --public-origin URL  the engine's public origin behind a reverse proxy (https://pedidos.example.cl):
              payment pages and the notification_url given to Mercado Pago use it (docs/payments.md)
  --share-file  tests only: serve even when another engine serves the file (by default a second
              engine on a file exits at once, naming the one that serves it)
  --upstream BASE_URL  run as a replica of the restaurant that COMANDA_UPSTREAM_KEY belongs to on that
              platform (e.g. https://platform.example/v1); the key is read from the environment only`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '4750' },
        host: { type: 'string', default: '127.0.0.1' },
        'kitchen-host': { type: 'string', multiple: true, default: [] },
        db: { type: 'string' },
        database: { type: 'string' },
        nodes: { type: 'string' },
        demo: { type: 'boolean', default: false },
        'demo-rush': { type: 'boolean', default: false },
        'demo-rush-pace': { type: 'string', default: '12' },
        smtp: { type: 'string' },
        'smtp-from': { type: 'string' },
        upstream: { type: 'string' },
        'share-file': { type: 'boolean', default: false },
        'public-origin': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be an integer from 0 to 65535, got ${values.port}`);

  let publicOrigin: string | undefined;
  if (values['public-origin'] !== undefined) {
    let url: URL | null = null;
    try {
      url = new URL(values['public-origin']);
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search || url.hash) {
      fail(`--public-origin must be a scheme, host and optional port (https://pedidos.example.cl), got ${values['public-origin']}`);
    }
    publicOrigin = url.origin;
  }

  let smtp: SmtpSettings | null = null;
  if (values['smtp-from'] !== undefined && values.smtp === undefined) fail('--smtp-from needs --smtp');
  if (values['demo-rush'] && !values.demo) fail('--demo-rush needs --demo: the rush is posted to the demo restaurant');
  const rushPace = Number(values['demo-rush-pace']);
  if (!Number.isInteger(rushPace) || rushPace < 1 || rushPace > 120) fail(`--demo-rush-pace must be an integer from 1 to 120 orders a minute, got ${values['demo-rush-pace']}`);
  if (values.smtp !== undefined) {
    smtp = { url: values.smtp, ...(values['smtp-from'] !== undefined ? { from: values['smtp-from'] } : {}) };
    try {
      checkSmtpSettings(smtp);
    } catch (error) {
      fail(`--smtp: ${(error as Error).message}`);
    }
  }

  // stdout carries exactly one JSON line (a contract other tools read); logs go to stderr.
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination(2));
  if (values.upstream !== undefined) {
    if (values.demo) fail('--demo and --upstream exclude each other: a replica takes its data from the upstream');
    if (smtp) fail('--smtp and --upstream exclude each other: the upstream sends the customer mails');
    await serveReplica(values.upstream, { database: values.db ?? defaultDatabasePath(), host: values.host, port, logger });
    return;
  }
  const postgresUrl = values.database;
  if (postgresUrl !== undefined) {
    if (!isPostgresUrl(postgresUrl)) fail('--database takes a postgres:// URL (a SQLite file is --db PATH)');
    if (values.db !== undefined) fail('--database and --db exclude each other: one database is served');
    if (values.upstream !== undefined) fail('--database and --upstream exclude each other: a replica keeps its restaurant on SQLite');
    if (values['share-file']) fail('--share-file is for a SQLite file; nodes on one PostgreSQL database share it by design');
  }
  let nodes = 1;
  if (values.nodes !== undefined) {
    if (postgresUrl === undefined) fail('--nodes needs --database: a SQLite file has one node');
    nodes = Number(values.nodes);
    if (!/^[0-9]+$/.test(values.nodes) || !Number.isSafeInteger(nodes) || nodes < 1 || nodes > 1000) fail(`--nodes must be an integer from 1 to 1000, got ${values.nodes}`);
  }
  let database: string | Awaited<ReturnType<typeof openPostgresEngine>>;
  try {
    database = postgresUrl !== undefined
      ? await openPostgresEngine({ connectionString: postgresUrl, onError: (error) => logger.warn({ err: error.message }, 'PostgreSQL connection error') })
      : values.db ?? defaultDatabasePath();
  } catch (error) {
    // pg's errors name neither the URL nor the password.
    process.stderr.write(`comanda serve: cannot use the PostgreSQL database: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const server = await startEngineServer({
    database,
    host: values.host,
    port,
    logger,
    smtp,
    kitchen: { rendererDir: RENDERER_DIR, hostNames: values['kitchen-host'] },
    servingAs: 'npm run serve',
    // Issue 34: each node's buckets are its share of the platform's limits (per-node-rate-limit.ts).
    ...(nodes > 1
      ? {
          rateLimits: {
            perKey: perNodeRateLimit(DEFAULT_RATE_LIMITS.perKey, nodes),
            perHubKey: perNodeRateLimit(DEFAULT_RATE_LIMITS.perHubKey, nodes),
            unauthenticated: perNodeRateLimit(DEFAULT_RATE_LIMITS.unauthenticated, nodes),
          },
        }
      : {}),
    shareDatabase: values['share-file'],
    ...(publicOrigin ? { publicOrigin } : {}),
  });
  await buildKitchen(logger);
  void server.integrityChecked.then((refusal) => {
    if (refusal) process.stderr.write(`comanda serve: ${refusal.message}; reads go on, writes are refused (503 storage_damaged)\n`);
  });
  if (server.jobs.mailSender) logger.info({ smtp: server.jobs.mailSender.description }, 'customer mails go through SMTP');
  else logger.info('no --smtp: customer mails stay queued in the database');
  // Each demo restaurant comes with a pairing URL, so a tablet's browser shows its board at once.
  const restaurants = values.demo
    ? (await mapInOrder((await seedDemo(server.engine, server.providers.payments)), async (r) => ({
        ...r,
        kitchen_pairing_url: (await createPairingCode(server.engine, { restaurantId: r.id, origin: server.origin })).pairing_url,
      })))
    : [];
  process.stdout.write(`${JSON.stringify({ base_url: server.baseUrl, restaurants, ...(values['demo-rush'] ? { demo_rush: { orders_per_minute: rushPace } } : {}) })}\n`);
  const rush = values['demo-rush']
    ? startDemoRush(await demoRushKey(server.engine), {
        baseUrl: server.baseUrl,
        perMinute: rushPace,
        onOrder: ({ index, number, error }) => (error === null ? logger.info({ index, number }, 'demo rush: order posted') : logger.warn({ index, error }, 'demo rush: order refused')),
      })
    : null;
  closeOnSignals({ close: () => (rush?.stop(), server.close()) }, logger);
}

async function serveReplica(
  upstream: string,
  options: { database: string; host: string; port: number; logger: pino.Logger },
): Promise<void> {
  const apiKey = process.env.COMANDA_UPSTREAM_KEY;
  if (!apiKey) fail('--upstream needs the platform key in the COMANDA_UPSTREAM_KEY environment variable');
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    fail(`--upstream must be the platform's base URL, e.g. https://platform.example/v1; got ${upstream}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('--upstream must be an http or https URL');
  let replica: ReplicaServer;
  try {
    replica = await startReplicaServer({ upstreamUrl: upstream, apiKey, ...options, kitchen: { rendererDir: RENDERER_DIR } });
  } catch (error) {
    if (error instanceof UpstreamRefusedKey) fail(`the platform refused COMANDA_UPSTREAM_KEY: ${error.message}`);
    throw error;
  }
  await buildKitchen(options.logger);
  const status = await replica.replica.status();
  if (!status.online) options.logger.warn({ error: status.last_error }, 'upstream unreachable: serving the local copy');
  process.stdout.write(`${JSON.stringify({ base_url: replica.server.baseUrl, upstream, world: replica.replica.identity.world })}\n`);
  closeOnSignals(replica, options.logger);
}

/**
 * Called once the database passed its start-up checks (a refused file says one line and nothing
 * else) and before the line that hands out the pairing URL (which must then open a working board).
 */
function buildKitchen(logger: pino.Logger): Promise<boolean> {
  return ensureKitchenBuilt(RENDERER_DIR, { info: (m) => logger.info(m), warn: (m) => logger.warn(m) });
}

function closeOnSignals(server: { close(): Promise<void> }, logger: pino.Logger): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Under `npm run serve` a signal may reach npm and not this process (stop-with-npm.ts).
  stopWhenNpmEnds('serve', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`comanda serve: ${(error as Error).message}\n`);
  process.exit(1);
});
