// `npm run simulate:gap-bound -- --profile FILE [--orders N] [--seed S]`: how close an order's lines
// can finish together in the simulator's model of a kitchen, whatever the firing rule (issue 32).
// The simulator's cook makes one line at a time, so lines beyond a station's cooks finish one after
// another; each line's time is drawn log-normal around its mean. For orders of several lines drawn
// from the profile, on an idle kitchen with no bump noise, it gives the median and p90 gap between
// the first and last line done (the simulator's figure) for two ideal kitchens:
// - `oracle`: every line's true time known in advance; lines assigned to cooks and started so that
//   every cook's last line ends at one instant (the lowest gap any firing rule could reach);
// - `means`: each line's mean known (what the engine can learn); lines sent so that their expected
//   finishes meet, one cook's lines one after another, the longest first;
// - `medians`: the same with each line's median (firing by p50) in place of its mean.
import { parseArgs } from 'node:util';
import { quantile } from '../../src/engine/domain/prep-times.ts';
import { readProfile, type Profile } from './profile.ts';
import { Random } from './random.ts';

interface Drawn {
  station: string;
  cooks: number;
  mean: number;
  /** The log-normal's median: what half the cooks beat. */
  median: number;
  actual: number;
}

/** The gap (minutes) when every cook's last line ends at one instant: the most any cook's other lines take. */
function gapOf(assignment: Drawn[][], time: (line: Drawn) => number, actual: (line: Drawn) => number): number {
  // Each cook makes its lines longest expected first; the cook's start is chosen so its last line is
  // expected to end at the common instant T; the gap is from the first real finish to the last.
  const finishes: number[] = [];
  for (const lines of assignment) {
    if (lines.length === 0) continue;
    const sorted = [...lines].sort((a, b) => time(b) - time(a));
    let t = -sorted.reduce((sum, l) => sum + time(l), 0);
    for (const line of sorted) {
      t += actual(line);
      finishes.push(t);
    }
  }
  return Math.max(...finishes) - Math.min(...finishes);
}

/** The least gap over every way of giving the order's lines to its stations' cooks. */
function bestGap(lines: Drawn[], time: (line: Drawn) => number, actual: (line: Drawn) => number): number {
  const cooksOf = lines.map((l) => l.cooks);
  let best = Number.POSITIVE_INFINITY;
  const choice = new Array<number>(lines.length).fill(0);
  const visit = (i: number) => {
    if (i === lines.length) {
      const byCook = new Map<string, Drawn[]>();
      lines.forEach((line, k) => {
        const key = `${line.station}#${choice[k]}`;
        byCook.set(key, [...(byCook.get(key) ?? []), line]);
      });
      best = Math.min(best, gapOf([...byCook.values()], time, actual));
      return;
    }
    for (let c = 0; c < cooksOf[i]!; c++) {
      choice[i] = c;
      visit(i + 1);
    }
  };
  visit(0);
  return best;
}

export function gapBound(profile: Profile, orders: number, seed: number): { orders: number; oracle: { median: number; p90: number }; means: { median: number; p90: number }; medians: { median: number; p90: number } } {
  const random = new Random(seed);
  const cooks = new Map(profile.stations.map((s) => [s.id, s.cooks]));
  const counts = Object.keys(profile.lines_per_order);
  const oracle: number[] = [];
  const means: number[] = [];
  const medians: number[] = [];
  while (oracle.length < orders) {
    const count = Number(counts[random.pick(counts.map((c) => profile.lines_per_order[c]!))]);
    const lines: Drawn[] = Array.from({ length: count }, () => {
      const item = profile.menu[random.pick(profile.menu.map((m) => m.weight))]!;
      const quantity = random.next() < profile.multi_unit_share ? 1 + Math.floor(random.next() * profile.max_quantity) : 1;
      const factor = 1 + 0.5 * (quantity - 1);
      return { station: item.station, cooks: cooks.get(item.station) ?? 1, mean: item.true_minutes * factor, median: item.true_minutes * Math.exp((-item.spread * item.spread) / 2) * factor, actual: random.logNormal(item.true_minutes, item.spread) * factor };
    });
    if (count < 2) continue;
    oracle.push(bestGap(lines, (l) => l.actual, (l) => l.actual));
    means.push(bestGap(lines, (l) => l.mean, (l) => l.actual));
    medians.push(bestGap(lines, (l) => l.median, (l) => l.actual));
  }
  const figure = (gaps: number[]) => ({ median: quantile(gaps, 0.5), p90: quantile(gaps, 0.9) });
  return { orders, oracle: figure(oracle), means: figure(means), medians: figure(medians) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { profile: { type: 'string' }, orders: { type: 'string', default: '20000' }, seed: { type: 'string', default: '1' } } });
  if (!values.profile) throw new Error('--profile FILE is required');
  const profile = readProfile(values.profile);
  const result = gapBound(profile, Number(values.orders), Number(values.seed));
  const f = (x: number) => `${x.toFixed(2)} min`;
  console.log(`Perfil ${profile.name}, ${result.orders} pedidos de varias líneas, cocina vacía, sin ruido en los bumps:`);
  console.log(`  tiempos reales conocidos de antemano (el mínimo posible): brecha mediana ${f(result.oracle.median)}, p90 ${f(result.oracle.p90)}`);
  console.log(`  tiempos medios conocidos (lo que el motor puede aprender): brecha mediana ${f(result.means.median)}, p90 ${f(result.means.p90)}`);
  console.log(`  medianas conocidas, alineadas en vez de las medias: brecha mediana ${f(result.medians.median)}, p90 ${f(result.medians.p90)}`);
}
