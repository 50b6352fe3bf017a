// The headless engine (`npm run serve`) as a child process: started on a SQLite file with --demo,
// read from its one stdout line, killed however a test likes.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { DemoRestaurant } from '../../src/engine/demo/seed-demo.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const STDERR_KEPT = 4 * 1024 * 1024;

export interface HeadlessEngine {
  child: ChildProcess;
  baseUrl: string;
  port: number;
  restaurants: DemoRestaurant[];
  /** What the engine wrote on stderr (its logs), the last 4 MiB. */
  stderrText(): string;
  /** Sends the signal and waits for the process to be gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startHeadlessEngine(
  dbPath: string,
  options: { env?: Record<string, string>; timeoutMs?: number; args?: string[] } = {},
): Promise<HeadlessEngine> {
  const child = spawn(NODE, ['--import', 'tsx', 'src/cli/serve.ts', '--port', '0', '--db', dbPath, '--demo', ...(options.args ?? [])], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr += chunk;
    if (stderr.length > STDERR_KEPT) stderr = stderr.slice(-STDERR_KEPT);
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      // Not left running: its pipes would keep the test process alive after the failure.
      child.kill('SIGKILL');
      reject(new Error(`the engine did not start in time; stderr:\n${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, newline));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the engine exited (${code ?? signal}) before starting; stderr:\n${stderr}`));
    });
  });
  const started = JSON.parse(line) as { base_url: string; restaurants: DemoRestaurant[] };
  return {
    child,
    baseUrl: started.base_url,
    port: Number(new URL(started.base_url).port),
    restaurants: started.restaurants,
    stderrText: () => stderr,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
