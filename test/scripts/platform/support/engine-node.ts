// Starts "an engine node" of the failover test: `serve --database postgres://…` (src/cli/serve.ts) in
// a process of its own on the platform's write port (HAProxy): the whole Engine over HTTP, with its
// own pool, LISTEN connection and jobs runner, as on an engine machine. The one module that starts a
// node; the test kills one with SIGKILL (a machine gone) or stops it with SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const SERVE = join(ROOT, 'src', 'cli', 'serve.ts');

export interface EngineNode {
  /** The test's name for the node (a, b). */
  name: string;
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
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
export async function startEngineNode(name: string, database: { url: string; password: string }): Promise<EngineNode> {
  const child: ChildProcess = spawn(NODE, ['--import', 'tsx', SERVE, '--database', database.url, '--port', '0', '--host', '127.0.0.1'], {
    cwd: ROOT,
    env: { ...process.env, PGPASSWORD: database.password, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let printed = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
      const line = printed.split('\n').find((candidate) => candidate.startsWith('{"base_url"'));
      if (line) resolve((JSON.parse(line) as { base_url: string }).base_url);
    });
    child.once('exit', (code, signal) => reject(new Error(`engine node ${name} exited (${code ?? signal}) before it listened`)));
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    baseUrl,
    running,
    async kill9() {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (running()) child.kill('SIGTERM');
      await exited;
    },
  };
}
