import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import BetterSqlite3 from 'better-sqlite3';
import { median } from './stats.ts';

/** One measured figure: ours, the ceiling measured in the same run, and how close we are. */
export interface Figure {
  /** The issue's row number (1–6). */
  row: number;
  /** What is measured, e.g. "GET /orders/{id} throughput". */
  name: string;
  unit: string;
  /** Whether more is better (throughput) or less (latency, time, memory). */
  better: 'higher' | 'lower';
  /** The median over the runs; null when not measured. */
  ours: number | null;
  ceiling: number | null;
  /** The fraction of the ceiling reached: ours/ceiling for rates, ceiling/ours for costs (1 = at the ceiling). */
  ratio: number | null;
  target?: { text: string; met: boolean | null };
  /** Every run's value, for the JSON. */
  runs?: { ours: number[]; ceiling: number[] };
  note?: string;
  /** Further measurements behind the figure, for the JSON. */
  details?: Record<string, unknown>;
}

function ratioOf(better: Figure['better'], ours: number | null, ceiling: number | null): number | null {
  if (ours === null || ceiling === null || !Number.isFinite(ours) || !Number.isFinite(ceiling) || ours <= 0 || ceiling <= 0) return null;
  return better === 'higher' ? ours / ceiling : ceiling / ours;
}

/** A figure from the runs' values: medians and their ratio. */
export function figure(
  base: Omit<Figure, 'ours' | 'ceiling' | 'ratio' | 'runs' | 'target'>,
  runs: { ours: number[]; ceiling: number[] },
  target?: (ours: number, ratio: number | null) => { text: string; met: boolean | null },
): Figure {
  const ours = runs.ours.length > 0 ? median(runs.ours) : null;
  const ceiling = runs.ceiling.length > 0 ? median(runs.ceiling) : null;
  const ratio = ratioOf(base.better, ours, ceiling);
  return { ...base, ours, ceiling, ratio, runs, ...(target && ours !== null ? { target: target(ours, ratio) } : {}) };
}

export function notMeasured(row: number, name: string, unit: string, better: Figure['better'], note: string, target?: string): Figure {
  return { row, name, unit, better, ours: null, ceiling: null, ratio: null, note, ...(target ? { target: { text: target, met: null } } : {}) };
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  sqlite: string;
  betterSqlite3: string;
  fastify: string;
  autocannon: string;
  chromium?: string;
  loadAverageAtStart: number[];
  loadAverageAtEnd?: number[];
}

const require = createRequire(import.meta.url);
const versionOf = (name: string): string => (require(`${name}/package.json`) as { version: string }).version;

export function describeMachine(): Machine {
  const db = new BetterSqlite3(':memory:');
  const sqlite = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  db.close();
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${osType()} ${release()}`,
    node: process.version,
    sqlite,
    betterSqlite3: versionOf('better-sqlite3'),
    fastify: versionOf('fastify'),
    autocannon: versionOf('autocannon'),
    ...chromiumVersion(),
    loadAverageAtStart: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

function chromiumVersion(): { chromium?: string } {
  try {
    const text = execFileSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ['--version'], { timeout: 15_000, stdio: ['ignore', 'pipe', 'ignore'] });
    return { chromium: text.toString().trim() };
  } catch {
    return {};
  }
}

function formatValue(value: number | null, unit: string): string {
  if (value === null || !Number.isFinite(value)) return '—';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${unit}`;
}

/** The table printed on stdout. */
export function renderTable(machine: Machine, figures: Figure[], header: string[]): string {
  const rows = figures.map((f) => [
    String(f.row),
    f.name,
    f.ours === null ? (f.note ?? 'not measured') : formatValue(f.ours, f.unit),
    f.ours === null ? '' : formatValue(f.ceiling, f.unit),
    f.ratio === null ? '—' : `${(f.ratio * 100).toFixed(f.ratio < 0.1 ? 1 : 0)}%`,
    f.target?.text ?? '',
    f.target ? (f.target.met === null ? '—' : f.target.met ? 'yes' : 'NO') : '',
  ]);
  const head = ['#', 'Measure', 'Ours', 'Ceiling', 'Ratio', 'Target', 'Met'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const out = [
    ...header,
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}`,
    `Node ${machine.node}, SQLite ${machine.sqlite} (better-sqlite3 ${machine.betterSqlite3}), Fastify ${machine.fastify}, autocannon ${machine.autocannon}${machine.chromium ? `, ${machine.chromium}` : ''}`,
    `Load average at start ${machine.loadAverageAtStart.join(' ')}${machine.loadAverageAtEnd ? `, at end ${machine.loadAverageAtEnd.join(' ')}` : ''}`,
    '',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
  ];
  const notes = figures.filter((f) => f.ours !== null && f.note).map((f) => `  ${f.row} ${f.name}: ${f.note}`);
  if (notes.length > 0) out.push('', 'Notes:', ...notes);
  return out.join('\n');
}
