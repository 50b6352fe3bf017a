// A throwaway PostgreSQL for the tests: Debian's server binaries (PostgreSQL 15, `apt-get install
// postgresql`; .ci/run installs it), never a shared or system cluster.
//
// - initdb runs once per machine and server version, into a template data directory in the OS temp
//   folder (built in a temp folder and renamed into place, so parallel test processes never see half
//   of one);
// - each process copies it into a temp folder of its own and starts `postgres` there on a free
//   loopback port, without fsync (a test's data need not survive a power cut);
// - each test file gets a database of its own (`CREATE DATABASE … TEMPLATE`), empty or migrated;
// - `release()` stops the server and removes its folder; so does the process's exit, a failing test
//   included, and a later run sweeps what a killed one (SIGKILL) left behind.
//
// PostgreSQL refuses to run as root: as root (CI, this machine) initdb and the server run as the
// `postgres` user (the spawn's uid and gid, so the server is our direct child and gets our signals),
// their folders chowned to it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { eventually } from './eventually.ts';

export interface PostgresCluster {
  host: string;
  port: number;
  /** How long copying the template and starting the server took, in milliseconds. */
  startedInMs: number;
  /** Whether this start had to run initdb first (the machine's first run for this version). */
  ranInitdb: boolean;
  /** A connection string to a new, empty database of this cluster (one per test file). */
  createDatabase(name: string): Promise<string>;
  /** Drops a hold on the cluster; the last one stops the server and removes its folder. */
  release(): Promise<void>;
}

const BIN_DIRS = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];
const RUN_PREFIX = 'comanda-pg-run-';
const HOST = '127.0.0.1';

let shared: { cluster: Promise<RunningCluster>; holds: number } | null = null;

/**
 * The process's cluster, started on first use. Every caller calls `release()` when done (a test
 * file's `after`); the last release stops it.
 */
export async function usePostgresCluster(): Promise<PostgresCluster> {
  if (!shared) shared = { cluster: startCluster(), holds: 0 };
  shared.holds += 1;
  const running = await shared.cluster;
  let released = false;
  return {
    host: HOST,
    port: running.port,
    startedInMs: running.startedInMs,
    ranInitdb: running.ranInitdb,
    createDatabase: (name) => running.createDatabase(name),
    release: async () => {
      if (released || !shared) return;
      released = true;
      shared.holds -= 1;
      if (shared.holds > 0) return;
      shared = null;
      await running.stop();
    },
  };
}

/** The directory of the server binaries, or a message saying what to install. */
export function postgresBinDir(): string {
  const found = BIN_DIRS.find((dir) => existsSync(join(dir, 'postgres')));
  if (!found) throw new Error(`PostgreSQL server binaries not found in ${BIN_DIRS.join(', ')}: apt-get install postgresql`);
  return found;
}

interface RunningCluster {
  port: number;
  startedInMs: number;
  ranInitdb: boolean;
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

/** The `postgres` user's ids when we are root (the server's processes run as it), else none. */
function serverUser(): { uid: number; gid: number } | null {
  if (!asRoot) return null;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

function giveToServerUser(path: string): void {
  const user = serverUser();
  if (user) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, path]);
}

/** The template data directory for this server version, made by initdb the first time. */
function templateDataDir(binDir: string): { dir: string; ranInitdb: boolean } {
  const version = /\d+(\.\d+)+/.exec(execFileSync(join(binDir, 'postgres'), ['--version']).toString())?.[0] ?? 'unknown';
  const dir = join(tmpdir(), `comanda-pg-template-${version}-${asRoot ? 'root' : process.getuid?.()}`);
  if (existsSync(join(dir, 'PG_VERSION'))) return { dir, ranInitdb: false };
  const building = mkdtempSync(join(tmpdir(), 'comanda-pg-template-building-'));
  const data = join(building, 'data');
  mkdirSync(data, { mode: 0o700 });
  giveToServerUser(building);
  const initdb = ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'];
  execFileSync(join(binDir, 'initdb'), initdb, { stdio: ['ignore', 'ignore', 'pipe'], cwd: tmpdir(), ...serverUser() });
  try {
    renameSync(data, dir);
  } catch (error) {
    // Another process finished first: its template is as good as ours.
    if (!existsSync(join(dir, 'PG_VERSION'))) throw error;
  }
  rmSync(building, { recursive: true, force: true });
  return { dir, ranInitdb: true };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, HOST, resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Stops the servers of runs whose test process is gone (killed before its clean-up) and removes their folders. */
function sweepAbandonedRuns(): void {
  for (const name of readdirSync(tmpdir())) {
    const match = /^comanda-pg-run-(\d+)-/.exec(name);
    if (!match) continue;
    const owner = Number(match[1]);
    if (isAlive(owner)) continue;
    const dir = join(tmpdir(), name);
    const postmaster = readPostmasterPid(join(dir, 'data'));
    if (postmaster !== null && isAlive(postmaster)) {
      try {
        process.kill(postmaster, 'SIGQUIT');
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPostmasterPid(dataDir: string): number | null {
  try {
    const first = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0];
    const pid = Number(first);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

async function startCluster(): Promise<RunningCluster> {
  const binDir = postgresBinDir();
  sweepAbandonedRuns();
  const startedAt = performance.now();
  const template = templateDataDir(binDir);
  const copiedAt = performance.now();
  const runDir = mkdtempSync(join(tmpdir(), `${RUN_PREFIX}${process.pid}-`));
  const data = join(runDir, 'data');
  execFileSync('cp', ['-a', template.dir, data]);
  giveToServerUser(runDir);
  let server: ChildProcess | null = null;
  let port = 0;
  let log = '';
  // A free port can be taken between our probe and the server's bind: a few tries.
  for (let attempt = 0; attempt < 5 && !server; attempt += 1) {
    port = await freePort();
    const args = [
      '-D', data, '-p', String(port), '-k', runDir, '-c', `listen_addresses=${HOST}`,
      '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
      '-c', 'max_connections=300', '-c', 'shared_buffers=32MB', '-c', 'log_min_messages=warning',
    ];
    const child = spawn(join(binDir, 'postgres'), args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: tmpdir(), ...serverUser() });
    child.stderr!.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    if ((await waitUntilAcceptingOrExited(child, port)) === 'accepting') server = child;
  }
  if (!server) {
    rmSync(runDir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start (${binDir}): ${log}`);
  }
  const startedInMs = Math.round(performance.now() - (template.ranInitdb ? copiedAt : startedAt));
  const running = server;
  const onExit = () => {
    // The process is ending without release() (a failed test run, an uncaught error): stop the
    // server at once; the next run's sweep removes the folder if this process cannot.
    try {
      running.kill('SIGQUIT');
    } catch {
      // already gone
    }
  };
  process.once('exit', onExit);
  const admin = `postgres://postgres@${HOST}:${port}/postgres`;
  return {
    port,
    startedInMs,
    ranInitdb: template.ranInitdb,
    async createDatabase(name) {
      if (!/^[a-z][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a database name: ${name}`);
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name} TEMPLATE template0`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@${HOST}:${port}/${name}`;
    },
    async stop() {
      process.removeListener('exit', onExit);
      const gone = new Promise((resolve) => running.once('exit', resolve));
      if (running.exitCode === null && running.signalCode === null) {
        running.kill('SIGINT'); // fast shutdown: rolls back what is open, then exits
        await gone;
      }
      rmSync(runDir, { recursive: true, force: true });
    },
  };
}

/** Waits until the server answers a query on `port`, or its process has exited (a port taken meanwhile). */
async function waitUntilAcceptingOrExited(child: ChildProcess, port: number): Promise<'accepting' | 'exited'> {
  return eventually(
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) return 'exited' as const;
      const client = new pg.Client({ host: HOST, port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2000 });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.query('SELECT 1');
        return 'accepting' as const;
      } finally {
        await client.end().catch(() => {});
      }
    },
    `PostgreSQL accepting connections on ${HOST}:${port}`,
  );
}
