import { parseArgs } from 'node:util';
import pino from 'pino';
import { seedDemo } from '../demo/seed-demo.ts';
import { startEngineServer } from '../start-engine-server.ts';
import { defaultDatabasePath } from './data-dir.ts';

const USAGE = `usage: npm run serve -- [--port N] [--host H] [--db PATH] [--demo]
  --port N    port to listen on (default 4750; 0 picks a free one)
  --host H    address to bind (default 127.0.0.1)
  --db PATH   SQLite file (default ${defaultDatabasePath()})
  --demo      seed the two demo restaurants on an empty database and print their keys`;

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
        db: { type: 'string' },
        demo: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
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

  // stdout carries exactly one JSON line (a contract other tools read); logs go to stderr.
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination(2));
  const server = await startEngineServer({ database: values.db ?? defaultDatabasePath(), host: values.host, port, logger });
  const restaurants = values.demo ? seedDemo(server.engine, server.payments) : [];
  process.stdout.write(`${JSON.stringify({ base_url: server.baseUrl, restaurants })}\n`);

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
}

main().catch((error: unknown) => {
  process.stderr.write(`comanda serve: ${(error as Error).message}\n`);
  process.exit(1);
});
