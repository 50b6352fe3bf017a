// A PostgreSQL started on a data folder pgBackRest restored (scripts/platform/pgbackrest.ts), beside
// the platform and apart from it: its own free loopback port and socket folder, no archiving (a
// restored copy must never push its WAL into the cluster's repository), no synchronous standby to
// wait for. Recovery runs with the settings pgBackRest wrote; the server is ready once it has
// reached its target and promoted. Our own child process: `stop()` ends it.
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { POSTGRES_BIN_DIR } from '../../scripts/platform/configs.ts';
import type { RunAs } from '../../scripts/platform/processes.ts';
import { eventually } from './eventually.ts';

const HOST = '127.0.0.1';

export interface RestoredServer {
  port: number;
  /** The superuser's connection (the password is the cluster's, restored with it). */
  connection(database: string): pg.ClientConfig;
  /** The server's output so far (recovery's progress, or why it stopped). */
  log(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function ask(config: pg.ClientConfig, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client(config);
  client.on('error', () => {});
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end().catch(() => {});
  }
}

export async function startRestoredServer(options: { dataDir: string; runAs: RunAs | undefined; superuserPassword: string; timeoutMs: number }): Promise<RestoredServer> {
  const socketDir = `${options.dataDir}-socket`;
  mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  if (options.runAs) chownSync(socketDir, options.runAs.uid, options.runAs.gid);
  const port = await freePort();
  const args = [
    '-D', options.dataDir, '-p', String(port), '-k', socketDir, '-c', `listen_addresses=${HOST}`,
    // Command-line settings win over the restored postgresql.conf (Patroni's, from the backed-up node).
    '-c', 'archive_mode=off', '-c', "synchronous_standby_names=", '-c', 'cluster_name=restored',
    '-c', `hba_file=${join(options.dataDir, 'pg_hba.conf')}`, '-c', `ident_file=${join(options.dataDir, 'pg_ident.conf')}`,
  ];
  let output = '';
  const child: ChildProcess = spawn(join(POSTGRES_BIN_DIR, 'postgres'), args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: options.dataDir, ...(options.runAs ?? {}) });
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  let exited: number | null | undefined;
  child.on('exit', (code) => {
    exited = code;
  });
  const connection = (database: string): pg.ClientConfig => ({ host: HOST, port, user: 'postgres', password: options.superuserPassword, database, connectionTimeoutMillis: 5000 });
  const server: RestoredServer = {
    port,
    connection,
    log: () => output,
    async stop() {
      if (exited !== undefined) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT'); // fast shutdown
      await gone;
    },
  };
  try {
    await eventually(
      async () => {
        if (exited !== undefined) throw new Error(`the restored server exited (${exited}): ${output.slice(-2000)}`);
        return (await ask(connection('postgres'), 'SELECT pg_is_in_recovery() AS recovering')).rows[0]?.recovering as boolean;
      },
      'the restored server to reach its target and promote',
      { until: (recovering) => recovering === false, timeoutMs: options.timeoutMs },
    );
  } catch (error) {
    await server.stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- restored server output\n${output.slice(-3000)}`, { cause: error });
  }
  return server;
}
