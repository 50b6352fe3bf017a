// A throwaway PostgreSQL for the probes that ask the server what its statements cost:
// `pg_stat_statements` must be loaded when the server starts (shared_preload_libraries), which the
// tests' cluster (test/support/postgres-cluster.ts) does not do. Same settings as that cluster
// otherwise (no fsync, 300 connections, 32 MB of shared buffers), its own initdb in a temp folder,
// removed by stop(). As root the server runs as the `postgres` user, as the tests' cluster does.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresBinDir } from '../../test/support/postgres-cluster.ts';

export interface StatsCluster {
  /** A new database with the pg_stat_statements extension created in it. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';

function serverUser(): { uid: number; gid: number } | object {
  if (process.getuid?.() !== 0) return {};
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, HOST, resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export async function startStatsCluster(): Promise<StatsCluster> {
  const bin = postgresBinDir();
  const user = serverUser();
  const dir = mkdtempSync(join(tmpdir(), 'comanda-probe-pgss-'));
  if ('uid' in user) execFileSync('chown', [`${String(user.uid)}:${String(user.gid)}`, dir]);
  const data = join(dir, 'data');
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'], {
    stdio: ['ignore', 'ignore', 'pipe'], cwd: tmpdir(), ...user,
  });
  const port = await freePort();
  const server = spawn(join(bin, 'postgres'), [
    '-D', data, '-p', String(port), '-k', dir, '-c', `listen_addresses=${HOST}`,
    '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
    '-c', 'max_connections=300', '-c', 'shared_buffers=32MB', '-c', 'log_min_messages=warning',
    '-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all',
    '-c', 'pg_stat_statements.max=5000', '-c', 'pg_stat_statements.track_planning=on', '-c', 'track_io_timing=on',
  ], { stdio: ['ignore', 'ignore', 'pipe'], cwd: tmpdir(), ...user });
  let log = '';
  server.stderr!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const admin = `postgres://postgres@${HOST}:${port}/postgres`;
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: admin });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      break;
    } catch {
      if (server.exitCode !== null || attempt > 300) throw new Error(`PostgreSQL did not start: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const stopOnExit = () => server.kill('SIGQUIT');
  process.once('exit', stopOnExit);
  return {
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name} TEMPLATE template0`);
      } finally {
        await client.end();
      }
      const url = `postgres://postgres@${HOST}:${port}/${name}`;
      const inIt = new pg.Client({ connectionString: url });
      await inIt.connect();
      await inIt.query('CREATE EXTENSION pg_stat_statements');
      await inIt.end();
      return url;
    },
    async stop() {
      process.removeListener('exit', stopOnExit);
      const gone = new Promise((resolve) => server.once('exit', resolve));
      if (server.exitCode === null) {
        server.kill('SIGINT');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
