// A line's prep time: what the restaurant file types (the prior) and what the engine learned from
// the item timing log, per station and product. Pure: services/prep-times.ts reads and writes them.
import { allergenKey, type PrepSettings } from './kitchen-settings.ts';
import { lineUnits } from './station-capacity.ts';

export type { PrepSettings };

/** Seconds of a product with no typed prep time that a station prepares. */
export const DEFAULT_PREP_SECONDS = 8 * 60;

/** Learned figures replace the typed ones from this many plausible samples on. */
export const MIN_LEARNED_SAMPLES = 8;

/** A learned time: mean, median and p90 of one unit, in seconds. */
export interface LearnedPrep {
  /** What the schedule adds up: a queue of lines takes the sum of their means, not of their medians. */
  mean: number;
  median: number;
  p90: number;
  samples: number;
}

/** A line to time: its product, quantity and the modifiers it carries (by group and option name). */
export interface PrepLine {
  product_id: string | null;
  quantity: number;
  modifiers: readonly { group: string | null; name: string | null }[];
}

/**
 * A line of several units takes longer than one, not as long as that many one after the other: a
 * cook makes them side by side. Each unit past the first adds half of one.
 */
export function quantityFactor(quantity: number): number {
  return 1 + 0.5 * Math.max(0, quantity - 1);
}

/**
 * The line's expected and p90 seconds: learned when enough samples, else typed (p90 as 1.35× typed).
 * `perLine`: units its station has on at once for one line (domain/station-capacity.ts); its units
 * then cook together, and only the rounds one after the other add time. 1: every unit past the first adds half.
 */
export function linePrepSeconds(line: PrepLine, prep: PrepSettings | undefined, learned: LearnedPrep | undefined, perLine = 1): { mean: number; p90: number } {
  const typedUnit = (line.product_id !== null ? prep?.product_seconds[line.product_id] : undefined) ?? DEFAULT_PREP_SECONDS;
  const adjustments = line.product_id === null ? undefined : prep?.option_seconds[line.product_id];
  const adjustment = adjustments ? line.modifiers.reduce((sum, m) => sum + (adjustments[allergenKey(m.group, m.name)] ?? 0), 0) : 0;
  const factor = quantityFactor(lineUnits(line.quantity, perLine).batches);
  if (learned && learned.samples >= MIN_LEARNED_SAMPLES) {
    return { mean: Math.max(0, learned.mean + adjustment) * factor, p90: Math.max(0, learned.p90 + adjustment) * factor };
  }
  const unit = Math.max(0, typedUnit + adjustment);
  return { mean: unit * factor, p90: unit * 1.35 * factor };
}

/** The q-quantile (0..1) of values, linear between ranks; NaN for none. */
export function quantile(values: ArrayLike<number>, q: number): number {
  return quantiles(values, [q])[0]!;
}

/**
 * Each q-quantile of `qs` (0..1) of values, linear between ranks (NaN for none), from one numeric
 * sort (a typed array's: a report's 90 days sort ~160,000 samples, a comparator sort is 10 times slower).
 */
export function quantiles(values: ArrayLike<number>, qs: readonly number[]): number[] {
  if (values.length === 0) return qs.map(() => Number.NaN);
  const sorted = Float64Array.from(values).sort();
  return qs.map((q) => {
    const rank = (sorted.length - 1) * q;
    const low = Math.floor(rank);
    const high = Math.ceil(rank);
    return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
  });
}

/** One line's cook time as the log tells it. */
export interface CookSample {
  station_id: string;
  product_id: string;
  quantity: number;
  /** When it was bumped done. */
  done_at: number;
  /** Seconds from its known start to its bump. */
  seconds: number;
  /** Which order line it is, where the log says it (the reports list the bumps they leave out). */
  order_id?: string;
  item_index?: number;
  /** The bump's row in the log (its `seq`), where read: orders samples of bumps at the same instant. */
  seq?: number;
}

/** Why a sample was left out. */
export type Implausible = 'mass_bump' | 'too_fast' | 'left_open';

/** Bumps this close together at one station count as one sweep of the screen, not cooking. */
export const MASS_BUMP_WINDOW_MS = 10_000;
/** This many lines bumped within the window at one station is a mass bump. */
export const MASS_BUMP_LINES = 4;
/** A line done in less than this share of its typed (or learned) time was bumped before it was cooked. */
export const TOO_FAST_SHARE = 0.25;
/** A line open longer than this many times its typed time, or over 2 hours, was forgotten on the screen. */
export const LEFT_OPEN_FACTOR = 4;
const LEFT_OPEN_MS = 2 * 3_600_000;

/**
 * The learned median and p90 of one unit per station and product, leaving out bumps that cannot be
 * true: mass bumps (MASS_BUMP_LINES or more lines of one station within MASS_BUMP_WINDOW_MS), bumps
 * long before the expected time (under TOO_FAST_SHARE of it) and lines left open for hours.
 * `expectedUnit` gives each product's typed time (the reference for "too fast" and "left open").
 */
export function learnPrepTimes(
  samples: readonly CookSample[],
  expectedUnit: (productId: string) => number,
): { learned: Map<string, LearnedPrep & { station_id: string; product_id: string; excluded: number }>; excluded: Record<Implausible, number> } {
  const excluded: Record<Implausible, number> = { mass_bump: 0, too_fast: 0, left_open: 0 };
  const verdicts = classifySamples(samples, expectedUnit);
  const groups = new Map<string, { station_id: string; product_id: string; units: number[]; excluded: number }>();
  samples.forEach((sample, i) => {
    const key = `${sample.station_id}\u001f${sample.product_id}`;
    const group = groups.get(key) ?? { station_id: sample.station_id, product_id: sample.product_id, units: [], excluded: 0 };
    groups.set(key, group);
    const unit = sample.seconds / quantityFactor(sample.quantity);
    const reason = verdicts[i]!;
    if (reason) {
      excluded[reason] += 1;
      group.excluded += 1;
    } else group.units.push(unit);
  });
  const learned = new Map<string, LearnedPrep & { station_id: string; product_id: string; excluded: number }>();
  for (const [key, group] of groups) {
    if (group.units.length === 0) continue;
    learned.set(key, {
      station_id: group.station_id,
      product_id: group.product_id,
      mean: Math.round(group.units.reduce((a, b) => a + b, 0) / group.units.length),
      median: Math.round(quantile(group.units, 0.5)),
      p90: Math.round(quantile(group.units, 0.9)),
      samples: group.units.length,
      excluded: group.excluded,
    });
  }
  return { learned, excluded };
}

/**
 * Why each sample cannot be true, or null for a plausible one: a mass bump (MASS_BUMP_LINES or more
 * lines of one station within MASS_BUMP_WINDOW_MS), too fast (one unit under TOO_FAST_SHARE of its
 * expected time) or left open (over LEFT_OPEN_FACTOR times it, or over 2 hours). The one rule the
 * learning and the reports (domain/kitchen-report/) leave bumps out by.
 */
export function classifySamples(samples: readonly CookSample[], expectedUnit: (productId: string) => number): (Implausible | null)[] {
  const massBumped = massBumpedSamples(samples);
  return samples.map((sample, i) => sampleVerdict(sample, expectedUnit(sample.product_id), massBumped.has(i)));
}

/**
 * Why one sample cannot be true, or null: `massBumped` (from massBumpedSamples, which looks at its
 * station's other bumps) first, then too fast and left open against `expected`, one unit's expected
 * seconds. The reports' day summaries keep `massBumped` and apply the rest with the learned time of
 * the day the report is read, as classifySamples does.
 */
export function sampleVerdict(sample: Pick<CookSample, 'seconds' | 'quantity'>, expected: number, massBumped: boolean): Implausible | null {
  const unit = sample.seconds / quantityFactor(sample.quantity);
  return massBumped
    ? 'mass_bump'
    : unit < expected * TOO_FAST_SHARE
      ? 'too_fast'
      : unit > expected * LEFT_OPEN_FACTOR || sample.seconds * 1000 > LEFT_OPEN_MS
        ? 'left_open'
        : null;
}

/** A ticket open longer than this was forgotten on the screen (the reports leave it out). */
export const LEFT_OPEN_TICKET_MS = LEFT_OPEN_MS;

/** Indexes of samples bumped in a sweep: MASS_BUMP_LINES or more at one station within the window. */
export function massBumpedSamples(samples: readonly CookSample[]): Set<number> {
  const byStation = new Map<string, number[]>();
  samples.forEach((s, i) => {
    const list = byStation.get(s.station_id) ?? [];
    list.push(i);
    byStation.set(s.station_id, list);
  });
  const found = new Set<number>();
  for (const indexes of byStation.values()) {
    indexes.sort((a, b) => samples[a]!.done_at - samples[b]!.done_at);
    let first = 0;
    for (let last = 0; last < indexes.length; last++) {
      while (samples[indexes[last]!]!.done_at - samples[indexes[first]!]!.done_at > MASS_BUMP_WINDOW_MS) first++;
      if (last - first + 1 >= MASS_BUMP_LINES) for (let k = first; k <= last; k++) found.add(indexes[k]!);
    }
  }
  return found;
}
