// Starts "an engine node" of the failover test: `serve --database postgres://…` (src/cli/serve.ts) in
// a process of its own on the platform's write port (HAProxy): the whole Engine over HTTP, with its
// own pool, LISTEN connection and jobs runner, as on an engine machine. The one module that starts a
// node; the test kills one with SIGKILL (a machine gone) or stops it with SIGTERM.
// Nothing left behind: each node is a process group of its own, recorded in the platform's state
// folder (so `down` and the folder's reaper, scripts/platform/reaper.ts, stop it with the rest), and
// killed by this process's exit hook if the test that started it never stopped it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordOf } from '../../../../scripts/platform/processes.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const SERVE = join(ROOT, 'src', 'cli', 'serve.ts');

export interface EngineNode {
  /** The test's name for the node (a, b). */
  name: string;
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  /** The JSON line serve printed (with `--demo`, the demo restaurants and their keys too). */
  printed: Record<string, unknown>;
  /** Whether the process still runs. */
  running(): boolean;
  /** SIGKILL, as a machine that dies: no close, no goodbye to PostgreSQL. Resolves once it exited. */
  kill9(): Promise<void>;
  /** Ends the node (SIGTERM) and waits for its exit. */
  stop(): Promise<void>;
}

/**
 * The connection string goes through the environment's PGPASSWORD, not argv (a process list shows
 * argv): the URL given to serve names the role, host, port and database only.
 */
/** The nodes of this process still running: killed, group and all, when this process exits. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone already
    }
  }
});

/**
 * `stateDir`: the platform's state folder, where the node's pid is recorded (as engine-NAME) for
 * `down` and the reaper. `args`: more of serve's options (`--nodes 2`, `--demo`).
 */
export async function startEngineNode(
  name: string,
  database: { url: string; password: string },
  stateDir?: string,
  args: string[] = [],
): Promise<EngineNode> {
  const child: ChildProcess = spawn(NODE, ['--import', 'tsx', SERVE, '--database', database.url, '--port', '0', '--host', '127.0.0.1', ...args], {
    cwd: ROOT,
    env: { ...process.env, PGPASSWORD: database.password, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true, // a process group of its own, killed whole
  });
  running.add(child);
  const recordFile = stateDir ? join(stateDir, 'pids', `engine-${name}.json`) : undefined;
  const record = child.pid === undefined ? undefined : recordOf(`engine-${name}`, child.pid);
  if (recordFile && record) {
    mkdirSync(join(stateDir!, 'pids'), { recursive: true });
    writeFileSync(recordFile, JSON.stringify(record));
  }
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      if (recordFile) rmSync(recordFile, { force: true });
      resolve();
    }),
  );
  const printed = await new Promise<{ base_url: string }>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      // Whole lines only: with --demo the line is long enough to come in several chunks.
      const line = out.split('\n').slice(0, -1).find((candidate) => candidate.startsWith('{"base_url"'));
      if (line) resolve(JSON.parse(line) as { base_url: string });
    });
    child.once('exit', (code, signal) => reject(new Error(`engine node ${name} exited (${code ?? signal}) before it listened`)));
  });
  const isRunning = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    baseUrl: printed.base_url,
    printed,
    running: isRunning,
    async kill9() {
      if (isRunning()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (isRunning()) child.kill('SIGTERM');
      await exited;
    },
  };
}
