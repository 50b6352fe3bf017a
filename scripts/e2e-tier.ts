// npm run test:e2e: the end-to-end tier (every test/**/*.e2e.test.ts: headless Chromium, the built
// main process, PostgreSQL and Patroni clusters, the hardening soaks), each file in its own process
// as node --test runs them, a few at a time.
//
// Node's runner starts the files it is given in their names' order, so a long file whose name sorts
// last (test/scripts/platform/failover.e2e.test.ts, ~130 s) started when the others were nearly done
// and the tier waited for it alone. Here every file gets an entry file named by its place in a queue
// ordered longest first (by the durations of earlier runs on this machine, kept in
// node_modules/.cache, else by the ones committed in test/support/e2e-tier-durations.json; a file
// measured by neither goes first), which imports it: the runner's order is then the queue's, and the
// short files fill the processes' ends.
//
// Usage: npm run test:e2e [-- [node --test flags] [test files]]
//   npm run test:e2e -- test/renderer/board.e2e.test.ts     only these files
//   COMANDA_E2E_PROCESSES=3 npm run test:e2e                 files at a time (default: 2)
import { spawn } from 'node:child_process';
import { globSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');
/** A safety net against a hang, not a speed limit (a test that needs more says so: `{ timeout }`). */
const PER_TEST_TIMEOUT_MS = 120_000;
const DURATIONS_FILE = join(ROOT, 'node_modules/.cache/comanda/e2e-tier-durations.json');
const COMMITTED_DURATIONS_FILE = join(ROOT, 'test/support/e2e-tier-durations.json');
/**
 * Files at a time: the cores (2). Three were tried on this shared machine (load average 25–38 from
 * other work): the Patroni failover file, started first beside the PostgreSQL suite and the Informes
 * replay, ran its subtests into their own 300-s timeouts; two is what CI has passed with.
 */
const DEFAULT_PROCESSES = 2;

const args = process.argv.slice(2);
const isTestFile = (arg: string) => !arg.startsWith('-') && arg.endsWith('.test.ts');
const named = args.filter(isTestFile).map((file) => resolve(file));
const nodeFlags = args.filter((arg) => !isTestFile(arg));

const all = globSync('test/**/*.e2e.test.ts', { cwd: ROOT }).map((file) => join(ROOT, file));
const files = named.length > 0 ? named : all;
if (files.length === 0) {
  console.error('e2e tier: no test files');
  process.exit(1);
}

const durations = { ...readDurations(COMMITTED_DURATIONS_FILE), ...readDurations(DURATIONS_FILE) };
// Longest first; files without a measure (new ones, or a first run) before the measured ones.
const ordered = [...files].sort((a, b) => (durations[key(b)] ?? Infinity) - (durations[key(a)] ?? Infinity) || a.localeCompare(b));

const processes = Math.max(1, Math.min(files.length, Number(process.env.COMANDA_E2E_PROCESSES) || DEFAULT_PROCESSES));
const queueDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-tier-'));
const timesDir = join(queueDir, 'times');
mkdirSync(timesDir);
// One entry per file, named by its place in the queue (the runner sorts names) and the file's own
// path (what the runner's report shows). Each notes its process's wall time when it exits.
const width = String(ordered.length).length;
const entries = ordered.map((file, i) => {
  const entry = join(queueDir, `${String(i + 1).padStart(width, '0')}-${key(file).replaceAll('/', '~')}.mjs`);
  const time = join(timesDir, `${i}.json`);
  writeFileSync(
    entry,
    `import { writeFileSync } from 'node:fs';\n` +
      `process.on('exit', () => writeFileSync(${JSON.stringify(time)}, JSON.stringify({ file: ${JSON.stringify(key(file))}, ms: performance.now() })));\n` +
      `await import(${JSON.stringify(pathToFileURL(file).href)});\n`,
  );
  return entry;
});

const started = performance.now();
const runner = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${processes}`, `--test-timeout=${PER_TEST_TIMEOUT_MS}`, ...nodeFlags, ...entries],
  { cwd: ROOT, stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => runner.kill(signal));

runner.on('exit', (code, signal) => {
  const times = readTimes();
  rmSync(queueDir, { recursive: true, force: true });
  for (const { file, ms } of times) durations[file] = Math.round(ms);
  saveDurations();
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const longest = [...times].sort((a, b) => b.ms - a.ms).slice(0, 5).map(({ file, ms }) => `${file} ${(ms / 1000).toFixed(0)} s`);
  console.error(`e2e tier: ${times.length} of ${ordered.length} files in ${processes} processes, ${seconds} s; the longest: ${longest.join(', ')}`);
  process.exitCode = code !== 0 || signal !== null ? code || 1 : 0;
});

function key(file: string): string {
  return relative(ROOT, file);
}

function readTimes(): { file: string; ms: number }[] {
  const times: { file: string; ms: number }[] = [];
  for (const name of readdirSync(timesDir)) {
    try {
      times.push(JSON.parse(readFileSync(join(timesDir, name), 'utf8')) as { file: string; ms: number });
    } catch {
      // a process that ended before writing its time: its file keeps its earlier measure
    }
  }
  return times;
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
    console.warn(`e2e tier: durations not kept (${(error as Error).message})`);
  }
}
