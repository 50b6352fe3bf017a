// npm test: the fast tier (every test/**/*.test.ts but the *.e2e.test.ts ones). Node's test runner
// starts a few processes (one more than the cores), each running test/support/fast-tier-shard.ts, which takes test files
// from a shared queue one after another: starting Node, tsx and the engine's modules (~2 s of CPU)
// is paid once per process instead of once per file, and the runner still gathers every process's
// results into one report with one exit code.
//
// Usage: npm test [-- [node --test flags] [test files]]
//   npm test -- --test-reporter=spec                         any node --test flag is passed on
//   npm test -- test/engine/http/idempotency.test.ts         only these files (still in the queue)
//   COMANDA_TEST_PROCESSES=4 npm test                         processes (default: cores + 1)
//
// The queue is ordered longest first, so that no process is left with a long file at the end: by
// the durations of earlier runs on this machine (kept in node_modules/.cache), else by the ones
// committed in test/support/fast-tier-durations.json (a fresh clone, CI; copy the cache there to
// refresh them). A file measured by neither goes first.
import { spawn } from 'node:child_process';
import { globSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { QUEUE_ENV, type FastTierQueue, type FileRun } from '../test/support/fast-tier-queue.ts';

const ROOT = resolve(import.meta.dirname, '..');
const SHARD = join(ROOT, 'test/support/fast-tier-shard.ts');
/** A safety net against a hang, not a speed limit (a test that needs more says so: `{ timeout }`). */
const PER_TEST_TIMEOUT_MS = 60_000;
const DURATIONS_FILE = join(ROOT, 'node_modules/.cache/comanda/fast-tier-durations.json');
const COMMITTED_DURATIONS_FILE = join(ROOT, 'test/support/fast-tier-durations.json');

const args = process.argv.slice(2);
const isTestFile = (arg: string) => !arg.startsWith('-') && arg.endsWith('.test.ts');
const named = args.filter(isTestFile).map((file) => resolve(file));
const nodeFlags = args.filter((arg) => !isTestFile(arg));

const all = globSync('test/**/*.test.ts', { cwd: ROOT })
  .filter((file) => !file.endsWith('.e2e.test.ts'))
  .map((file) => join(ROOT, file));
const files = named.length > 0 ? named : all;
if (files.length === 0) {
  console.error('fast tier: no test files');
  process.exit(1);
}

const durations = { ...readDurations(COMMITTED_DURATIONS_FILE), ...readDurations(DURATIONS_FILE) };
// Longest first; files without a measure (new ones, or a first run) before the measured ones.
const ordered = [...files].sort((a, b) => (durations[key(b)] ?? Infinity) - (durations[key(a)] ?? Infinity) || a.localeCompare(b));

// One more process than cores: a test waiting on a child process or a timeout leaves its core to
// another (measured on 2 cores: 3 processes ran the tier in 385 s where 2 took 611 s, machine loaded).
const processes = Math.max(1, Math.min(files.length, Number(process.env.COMANDA_TEST_PROCESSES) || availableParallelism() + 1));
const queueDir = mkdtempSync(join(tmpdir(), 'comanda-fast-tier-'));
const queue: FastTierQueue = { root: ROOT, files: ordered };
writeFileSync(join(queueDir, 'queue.json'), JSON.stringify(queue));
mkdirSync(join(queueDir, 'claimed'));
// One entry file per process: node's runner starts a process per file it is given.
const entries = Array.from({ length: processes }, (_, i) => {
  const entry = join(queueDir, `process-${i + 1}.mjs`);
  writeFileSync(entry, `import ${JSON.stringify(pathToFileURL(SHARD).href)};\n`);
  return entry;
});

const started = performance.now();
const runner = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${processes}`, `--test-timeout=${PER_TEST_TIMEOUT_MS}`, ...nodeFlags, ...entries],
  { cwd: ROOT, env: { ...process.env, [QUEUE_ENV]: queueDir }, stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => runner.kill(signal));

runner.on('exit', (code, signal) => {
  const runs = readRuns();
  rmSync(queueDir, { recursive: true, force: true });
  const unfinished = ordered.filter((file) => !runs.has(file));
  for (const [file, run] of runs) durations[key(file)] = run.ms;
  saveDurations();

  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const perProcess = new Map<number, { ms: number; cpuMs: number }>();
  for (const run of runs.values()) {
    const sum = perProcess.get(run.pid) ?? { ms: 0, cpuMs: 0 };
    perProcess.set(run.pid, { ms: sum.ms + run.ms, cpuMs: sum.cpuMs + run.cpuMs });
  }
  const busy = [...perProcess.values()].map(({ ms, cpuMs }) => `${(ms / 1000).toFixed(0)} s (CPU ${(cpuMs / 1000).toFixed(0)} s)`).join(', ');
  console.error(`fast tier: ${runs.size} of ${ordered.length} files in ${processes} processes, ${seconds} s; each process ran files for ${busy}`);
  if (unfinished.length > 0) {
    console.error(`fast tier: ${unfinished.length} files did not finish (a process ended early): ${unfinished.map(key).join(', ')}`);
  }
  process.exitCode = code !== 0 || signal !== null || unfinished.length > 0 ? code || 1 : 0;
});

function key(file: string): string {
  return relative(ROOT, file);
}

function readRuns(): Map<string, FileRun> {
  const runs = new Map<string, FileRun>();
  for (const index of readdirSync(join(queueDir, 'claimed'))) {
    try {
      const run = JSON.parse(readFileSync(join(queueDir, 'claimed', index, 'run.json'), 'utf8')) as FileRun;
      runs.set(run.file, run);
    } catch {
      // claimed, never finished: counted as unfinished
    }
  }
  return runs;
}

function readDurations(file: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

function saveDurations(): void {
  try {
    mkdirSync(resolve(DURATIONS_FILE, '..'), { recursive: true });
    writeFileSync(DURATIONS_FILE, JSON.stringify(durations, null, 1));
  } catch (error) {
    console.warn(`fast tier: durations not kept (${(error as Error).message})`);
  }
}
