// `npm run simulate:gap-causes -- --profile FILE --orders FILE`: where the simulator's finish-together
// gap comes from (issue 32), from an `npm run simulate -- --orders FILE` run's line traces. For the
// orders of several lines taken and ready, the median gap between the first and last line's true
// finish, and the same gap had one thing been otherwise:
// - every line started as it reached its station (no wait for a cook);
// - every line taking its true mean (each started when it was);
// - every held line started exactly when the order's slowest line fired at once (by its real start
//   plus its true mean) says it should (the firing's own error out, the cooks' spread left);
// and, of the held lines, how late they started against that, split by what made them late: fired
// late, or fired in time and then waiting for a cook.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { quantile } from '../../src/engine/domain/prep-times.ts';
import type { SimulatedOrder } from './kitchen-sim.ts';
import { readProfile, type Profile } from './profile.ts';

const MIN = 60_000;

export interface GapCauses {
  orders: number;
  median_gap: number;
  p90_gap: number;
  /** Median gap had every line started as it reached its station. */
  no_wait: number;
  /** Median gap had every line taken its true mean. */
  true_means: number;
  /** Median gap had every held line started on the slowest line's real start plus its mean, less its own. */
  held_aligned: number;
  held_lines: number;
  /** Held lines started more than 2 minutes later than that. */
  held_late: number;
  /** Of those, fired more than a minute late. */
  held_fired_late: number;
  /** Of those, fired in time and then waiting for a cook. */
  held_waited: number;
}

type Traced = SimulatedOrder['lines'][number] & { trace: NonNullable<SimulatedOrder['lines'][number]['trace']>; finished_at: number };

export function gapCauses(profile: Profile, all: readonly SimulatedOrder[]): GapCauses {
  const menu = new Map(profile.menu.map((m) => [m.slug, m]));
  const mean = (line: Traced) => menu.get(line.slug)!.true_minutes * MIN * (1 + 0.5 * (line.quantity - 1));
  const orders = all.filter((o) => o.refused === null && o.ready_at !== null && o.lines.length > 1 && o.lines.every((l) => l.trace && l.trace.started_at !== null && l.finished_at !== null));
  const spread = (times: number[]) => (Math.max(...times) - Math.min(...times)) / MIN;
  const gaps: number[] = [];
  const noWait: number[] = [];
  const trueMeans: number[] = [];
  const aligned: number[] = [];
  let heldLines = 0;
  let late = 0;
  let firedLate = 0;
  let waited = 0;
  for (const order of orders) {
    const lines = order.lines as Traced[];
    gaps.push(spread(lines.map((l) => l.finished_at)));
    noWait.push(spread(lines.map((l) => l.trace.fired_at! + l.trace.seconds * 1000)));
    trueMeans.push(spread(lines.map((l) => l.trace.started_at! + mean(l))));
    const atOnce = lines.filter((l) => l.trace.held_until === null);
    if (atOnce.length === 0) {
      aligned.push(gaps.at(-1)!);
      continue;
    }
    const slowEnd = Math.max(...atOnce.map((l) => l.trace.started_at! + mean(l)));
    aligned.push(spread(lines.map((l) => (l.trace.held_until === null ? l.finished_at : slowEnd - mean(l) + l.trace.seconds * 1000))));
    for (const line of lines.filter((l) => l.trace.held_until !== null)) {
      heldLines++;
      const firing = (line.trace.fired_at! + mean(line) - slowEnd) / MIN;
      const wait = (line.trace.started_at! - line.trace.fired_at!) / MIN;
      if (firing + wait <= 2) continue;
      late++;
      if (firing > 1) firedLate++;
      else waited++;
    }
  }
  const median = (xs: number[]) => quantile(xs, 0.5);
  return {
    orders: orders.length,
    median_gap: median(gaps),
    p90_gap: quantile(gaps, 0.9),
    no_wait: median(noWait),
    true_means: median(trueMeans),
    held_aligned: median(aligned),
    held_lines: heldLines,
    held_late: late,
    held_fired_late: firedLate,
    held_waited: waited,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { profile: { type: 'string' }, orders: { type: 'string' } } });
  if (!values.profile || !values.orders) throw new Error('--profile FILE and --orders FILE (from npm run simulate -- --orders FILE) are required');
  const orders = readFileSync(values.orders, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as SimulatedOrder);
  const c = gapCauses(readProfile(values.profile), orders);
  const f = (x: number) => `${x.toFixed(2)} min`;
  console.log(`${c.orders} pedidos de varias líneas: brecha mediana ${f(c.median_gap)}, p90 ${f(c.p90_gap)}`);
  console.log(`  si cada línea empezara al llegar a su estación (sin esperar cocinero): mediana ${f(c.no_wait)}`);
  console.log(`  si cada línea tardara su media verdadera: mediana ${f(c.true_means)}`);
  console.log(`  si cada línea retenida empezara justo según el inicio real de la más lenta: mediana ${f(c.held_aligned)}`);
  console.log(`  líneas retenidas ${c.held_lines}; empezaron más de 2 min tarde ${c.held_late}: disparadas tarde ${c.held_fired_late}, disparadas a tiempo y esperando cocinero ${c.held_waited}`);
}
