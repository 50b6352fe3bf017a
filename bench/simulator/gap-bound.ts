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
// - `medians`: the same with each line's median (firing by p50) in place of its mean;
// - `watching`: each line's mean and spread known, and the slowest cook's line watched while it cooks
//   (started, not bumped yet): every other cook starts when the slow cook's expected remaining, given
//   how long its line has cooked, meets that cook's own expected time (`expectedRemaining`), or at its
//   bump. Lines given to the cooks as in `means`.
// A rule firing held lines from the slowest line's observed start (what the engine has since the tenth
// round) is the `means` kitchen: observing the start takes the slow line's wait out of the plan, and an
// idle kitchen, where nothing waits, is the best case of that rule.
import { parseArgs } from 'node:util';
import { quantile } from '../../src/engine/domain/prep-times.ts';
import { readProfile, type Profile } from './profile.ts';
import { Random } from './random.ts';

/** The standard normal's distribution function (Abramowitz and Stegun 7.1.26: error under 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * What is left, on average, of a line whose time is log-normal (its mean, and `sigma` the spread of
 * its logarithm) once it has cooked `elapsed` and is not done: E[X − e | X > e]. A line that runs long
 * is likely to run longer, so this shrinks more slowly than the mean minus the elapsed time.
 */
export function expectedRemaining(mean: number, sigma: number, elapsed: number): number {
  if (elapsed <= 0 || sigma <= 0) return Math.max(mean - Math.max(0, elapsed), 0);
  const mu = Math.log(mean) - (sigma * sigma) / 2;
  const above = normalCdf((mu - Math.log(elapsed)) / sigma);
  // Far in the tail the ratio is 0/0; there the remaining grows about as elapsed·σ²/(ln elapsed − μ).
  if (above < 1e-12) return (elapsed * sigma * sigma) / Math.max(Math.log(elapsed) - mu, sigma * sigma);
  return (mean * normalCdf((mu + sigma * sigma - Math.log(elapsed)) / sigma)) / above - elapsed;
}

interface Drawn {
  station: string;
  cooks: number;
  mean: number;
  /** The spread of its time's logarithm. */
  sigma: number;
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

/**
 * The gap (minutes) when the cook whose lines are expected to take longest starts at 0 and is watched:
 * each other cook starts its lines (longest first, back to back) once the watched cook's expected
 * remaining (its current line's, given how long it has cooked, plus its next lines' means) is at most
 * that cook's expected total, or when the watched cook is done. Looked at every `STEP` minutes.
 */
function watchedGap(assignment: Drawn[][]): number {
  const cooks = assignment.filter((lines) => lines.length > 0).map((lines) => [...lines].sort((a, b) => b.mean - a.mean));
  const total = (lines: Drawn[]) => lines.reduce((sum, l) => sum + l.mean, 0);
  cooks.sort((a, b) => total(b) - total(a));
  const [watched, ...others] = cooks as [Drawn[], ...Drawn[][]];
  const finishes: number[] = [];
  let t = 0;
  for (const line of watched) finishes.push((t += line.actual));
  const done = t;
  const remainingAt = (at: number) => {
    let begin = 0;
    for (let j = 0; j < watched.length; j++) {
      const end = begin + watched[j]!.actual;
      if (at < end) return expectedRemaining(watched[j]!.mean, watched[j]!.sigma, at - begin) + total(watched.slice(j + 1));
      begin = end;
    }
    return 0;
  };
  for (const lines of others) {
    const need = total(lines);
    let start = 0;
    while (start < done && remainingAt(start) > need) start = Math.min(done, start + STEP);
    let at = start;
    for (const line of lines) finishes.push((at += line.actual));
  }
  return Math.max(...finishes) - Math.min(...finishes);
}

/** How often the watching kitchen looks (minutes): the simulator's jobs look every 30 s. */
const STEP = 0.5;

/** The least gap over every way of giving the order's lines to its stations' cooks, and the way that gives it. */
function bestGap(lines: Drawn[], time: (line: Drawn) => number, actual: (line: Drawn) => number): { gap: number; assignment: Drawn[][] } {
  const cooksOf = lines.map((l) => l.cooks);
  let best = Number.POSITIVE_INFINITY;
  let bestAssignment: Drawn[][] = [];
  const choice = new Array<number>(lines.length).fill(0);
  const visit = (i: number) => {
    if (i === lines.length) {
      const byCook = new Map<string, Drawn[]>();
      lines.forEach((line, k) => {
        const key = `${line.station}#${choice[k]}`;
        byCook.set(key, [...(byCook.get(key) ?? []), line]);
      });
      const gap = gapOf([...byCook.values()], time, actual);
      if (gap < best) [best, bestAssignment] = [gap, [...byCook.values()]];
      return;
    }
    for (let c = 0; c < cooksOf[i]!; c++) {
      choice[i] = c;
      visit(i + 1);
    }
  };
  visit(0);
  return { gap: best, assignment: bestAssignment };
}

interface GapFigure {
  median: number;
  p90: number;
}

export function gapBound(profile: Profile, orders: number, seed: number): { orders: number; oracle: GapFigure; means: GapFigure; medians: GapFigure; watching: GapFigure } {
  const random = new Random(seed);
  const cooks = new Map(profile.stations.map((s) => [s.id, s.cooks]));
  const counts = Object.keys(profile.lines_per_order);
  const oracle: number[] = [];
  const means: number[] = [];
  const medians: number[] = [];
  const watching: number[] = [];
  while (oracle.length < orders) {
    const count = Number(counts[random.pick(counts.map((c) => profile.lines_per_order[c]!))]);
    const lines: Drawn[] = Array.from({ length: count }, () => {
      const item = profile.menu[random.pick(profile.menu.map((m) => m.weight))]!;
      const quantity = random.next() < profile.multi_unit_share ? 1 + Math.floor(random.next() * profile.max_quantity) : 1;
      const factor = 1 + 0.5 * (quantity - 1);
      return { station: item.station, cooks: cooks.get(item.station) ?? 1, mean: item.true_minutes * factor, sigma: item.spread, median: item.true_minutes * Math.exp((-item.spread * item.spread) / 2) * factor, actual: random.logNormal(item.true_minutes, item.spread) * factor };
    });
    if (count < 2) continue;
    oracle.push(bestGap(lines, (l) => l.actual, (l) => l.actual).gap);
    const byMeans = bestGap(lines, (l) => l.mean, (l) => l.actual);
    means.push(byMeans.gap);
    medians.push(bestGap(lines, (l) => l.median, (l) => l.actual).gap);
    watching.push(watchedGap(byMeans.assignment));
  }
  const figure = (gaps: number[]) => ({ median: quantile(gaps, 0.5), p90: quantile(gaps, 0.9) });
  return { orders, oracle: figure(oracle), means: figure(means), medians: figure(medians), watching: figure(watching) };
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
  console.log(`  (disparar desde el inicio real de la línea más lenta es el caso de las medias: conocer su inicio quita su espera, y en la cocina vacía no espera)`);
  console.log(`  línea más lenta observada mientras se cocina (lo que le queda en promedio): brecha mediana ${f(result.watching.median)}, p90 ${f(result.watching.p90)}`);
}
