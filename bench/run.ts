// `npm run bench`: every figure beside its ceiling, measured in the same run on this machine.
// `npm run bench -- --quick` is a short smoke run; see docs/performance.md.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildChildren } from './lib/build-children.ts';
import { useBuiltChildren } from './lib/child.ts';
import type { BenchContext } from './lib/context.ts';
import { prepareDatabase } from './lib/prepare-database.ts';
import { describeMachine, notMeasured, renderTable, type Figure } from './lib/report.ts';
import { benchCreateOrders } from './rows/create-orders.ts';
import { benchListOrders, benchReadOrder } from './rows/http-reads.ts';
import { benchKitchenBoard } from './rows/kitchen-board.ts';
import { benchBoardAtRush } from './rows/kitchen-rush.ts';
import { benchKitchenTablet } from './rows/kitchen-tablet.ts';
import { benchLimiterFlood } from './rows/limiter-flood.ts';
import { benchLiveFanout } from './rows/live-fanout.ts';
import { benchStartup } from './rows/startup.ts';
import { benchSoak } from './rows/soak.ts';
import { benchSync } from './rows/sync.ts';
import { benchKitchenPromise } from './rows/kitchen-promise.ts';
import { benchKitchenReports } from './rows/kitchen-reports.ts';
import { benchPlatformPostgres } from './rows/platform-postgres.ts';

/** The shared database's size in a smoke run: enough history for rows 1–4 and 8 to page and look up, prepared in a few seconds. */
const QUICK_ORDERS = 20_000;

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    runs: { type: 'string' },
    seconds: { type: 'string' },
    orders: { type: 'string' },
    profile: { type: 'boolean', default: false },
  },
});

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const quick = args.quick ?? false;
const only = args.only ? new Set(args.only.split(',').map(Number)) : null;
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const resultsDir = join(root, 'bench-results');
mkdirSync(resultsDir, { recursive: true });
const workDir = mkdtempSync(join(tmpdir(), 'comanda-bench-'));
// The smoke run (`--quick`) only proves each row still runs its real path: smaller sizes, shorter loads.
const orders = Number(args.orders ?? (quick ? QUICK_ORDERS : 100_000));
const runs = Number(args.runs ?? (quick ? 1 : 5));
const log = (message: string) => console.error(message);

const ROWS: { row: number; title: string; run: (context: BenchContext) => Promise<Figure[]>; missing: Figure[] }[] = [
  { row: 1, title: 'GET /orders/{id}', run: benchReadOrder, missing: [] },
  { row: 2, title: 'GET /orders?limit=20', run: benchListOrders, missing: [] },
  { row: 3, title: 'POST /orders', run: benchCreateOrders, missing: [] },
  { row: 4, title: 'start-up and memory', run: benchStartup, missing: [] },
  { row: 5, title: 'kitchen board in Chromium', run: async (context) => [...(await benchKitchenBoard(context)), ...(await benchBoardAtRush(context))], missing: [] },
  { row: 6, title: 'sync', run: benchSync, missing: [] },
  { row: 7, title: 'kitchen board on a paired browser tablet', run: benchKitchenTablet, missing: [] },
  { row: 8, title: 'memory under a steady load (30-min soak; --quick: 6 s)', run: benchSoak, missing: [] },
  { row: 9, title: 'rate limiter under 100,000 client addresses', run: benchLimiterFlood, missing: [] },
  { row: 10, title: 'live fan-out: 500 streams and a tablet toggling', run: benchLiveFanout, missing: [] },
  { row: 11, title: 'the kitchen\'s promise with 200 lines open', run: benchKitchenPromise, missing: [] },
  { row: 12, title: 'Informes over 90 days of 500 orders', run: benchKitchenReports, missing: [] },
  { row: 13, title: 'the platform on PostgreSQL: the order write on one and two nodes, one restaurant alone, the cross-node wake', run: benchPlatformPostgres, missing: [] },
];

const machine = describeMachine();
const started = Date.now();
const figures: Figure[] = [];
const failures: string[] = [];
const buildDir = join(resultsDir, `.build-${stamp}`);
try {
  await buildChildren(buildDir);
  useBuiltChildren(buildDir);
  // Rows 1–4 and 8 share one database of `orders` orders (rows 5 and 6 make their own).
  const needsOrders = ROWS.some(({ row }) => (row <= 4 || row === 8) && (!only || only.has(row)));
  log(needsOrders ? `Preparing a database of ${orders.toLocaleString('en-US')} orders…` : 'Preparing a small database…');
  const prepareStarted = Date.now();
  const prepared = await prepareDatabase(join(workDir, 'prepared'), needsOrders ? orders : 0);
  log(`  done in ${((Date.now() - prepareStarted) / 1000).toFixed(1)} s`);
  const context: BenchContext = {
    quick,
    runs,
    seconds: Number(args.seconds ?? (quick ? 0.5 : 5)),
    // No warm-up runs in a smoke run: its loads prove the path, they measure nothing.
    warmupSeconds: quick ? 0 : 2,
    workDir,
    prepared,
    profileDir: args.profile ? join(resultsDir, `profiles-${stamp}`) : null,
    log,
  };
  for (const { row, title, run } of ROWS) {
    if (only && !only.has(row)) continue;
    log(`Row ${row}: ${title}`);
    const rowStarted = Date.now();
    try {
      const result = await run(row === 6 && !quick ? { ...context, runs: Math.min(context.runs, 3) } : context);
      figures.push(...result);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push(`row ${row}: ${message}`);
      log(`  FAILED: ${message}`);
      figures.push(notMeasured(row, title, '', 'higher', 'failed (see stderr)'));
    }
    log(`  ${((Date.now() - rowStarted) / 1000).toFixed(1)} s`);
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
  // With --profile the bundles stay beside the profiles: their frames' line numbers point into them.
  if (args.profile) {
    mkdirSync(join(resultsDir, `profiles-${stamp}`), { recursive: true });
    renameSync(buildDir, join(resultsDir, `profiles-${stamp}`, 'bundles'));
  }
  else rmSync(buildDir, { recursive: true, force: true });
}

machine.loadAverageAtEnd = loadavg().map((n) => Math.round(n * 100) / 100);
const context = quick
  ? `quick run (--quick: ${runs} run per figure, short loads)`
  : `full run (medians of ${runs} runs per figure, ${Math.min(runs, 3)} for sync)`;
const header = [
  `Comanda benchmarks, ${new Date(started).toISOString()}: ${context}, ${((Date.now() - started) / 1000).toFixed(0)} s.`,
  'Ratio = share of the ceiling reached (ours/ceiling for rates, ceiling/ours for times and memory).',
];
const table = renderTable(machine, figures, header);
console.log(table);
const file = join(resultsDir, `bench-${stamp}${quick ? '-quick' : ''}.json`);
writeFileSync(file, JSON.stringify({ startedAt: new Date(started).toISOString(), quick, machine, figures, failures, table }, null, 2));
console.log(`\nResults: ${relative(process.cwd(), file) || file}`);
if (failures.length > 0) process.exitCode = 1;
