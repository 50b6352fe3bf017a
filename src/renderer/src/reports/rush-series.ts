// The rush strip's data as the chart draws it (issue 33). Pure: no uPlot here.
//
// Bars and ticket times belong to a slot: drawn from its start. Orders in progress are a count taken
// at an instant: each slot's end, and `now` in the slot that holds it (the engine's rush strip). They
// are drawn at those instants and joined by a line. Drawn at the slot's start as a step, today's count
// (taken now) stood at the start of the open slot with nothing after it: a vertical spike from the
// last slot's count to now's, at a time when fewer orders were in the kitchen.
import type { KitchenReport } from '../../../shared/schemas/kitchen-report.ts';

type Slot = KitchenReport['rush'][number];

/**
 * uPlot's aligned columns. A slot's values stand at its start; at an instant that is no slot's start
 * (now, the last slot's end) they are `undefined`: uPlot sizes bars by the instants that have a value
 * and joins lines across `undefined`, while `null` is a gap (a slot not begun).
 */
export interface RushSeries {
  /** Instants, seconds since the epoch (uPlot's time scale), ascending. */
  x: number[];
  finished: (number | null | undefined)[];
  /** Minutes. */
  p50: (number | null | undefined)[];
  p90: (number | null | undefined)[];
  /** Tickets in the kitchen and not finished at that instant; null where not counted (the future, or before the period). */
  inProgress: (number | null)[];
}

const busy = (s: Slot): boolean => s.finished > 0 || (s.in_progress ?? 0) > 0;

/** Whether any slot has a ticket finished or in progress: without one the strip would be axes only, and the page says so instead. */
export const hasRush = (rush: readonly Slot[]): boolean => rush.some(busy);

/** The slots drawn: from the one before the first with anything to the one after the last (a day's service, not its night). */
export function visibleRange(rush: readonly Slot[]): [first: number, last: number] {
  const first = rush.findIndex(busy);
  if (first < 0) return [0, rush.length - 1];
  const last = rush.findLastIndex(busy);
  return [Math.max(0, first - 1), Math.min(rush.length - 1, last + 1)];
}

const minutesOf = (seconds: number | null): number | null => (seconds === null ? null : seconds / 60);

/** The chart's columns for a report's rush strip, `generatedAt` being the instant the report was computed (its `now`). */
export function rushSeries(rush: readonly Slot[], generatedAt: string): RushSeries {
  if (rush.length === 0) return { x: [], finished: [], p50: [], p90: [], inProgress: [] };
  const now = Date.parse(generatedAt);
  const [first, last] = visibleRange(rush);
  type Point = { finished?: number | null; p50?: number | null; p90?: number | null; inProgress?: number | null };
  const points = new Map<number, Point>();
  const at = (ms: number): Point => {
    let point = points.get(ms);
    if (!point) points.set(ms, (point = {}));
    return point;
  };
  for (let i = first; i <= last; i++) {
    const slot = rush[i]!;
    const start = Date.parse(slot.start);
    const begun = slot.in_progress !== null;
    const point = at(start);
    point.finished = begun ? slot.finished : null;
    point.p50 = minutesOf(slot.p50_seconds);
    point.p90 = minutesOf(slot.p90_seconds);
    // Each slot's count at the instant it was taken: its end, or now inside it (the next slot's start holds the count at its end).
    if (begun) at(Math.min(Date.parse(slot.end), now)).inProgress = slot.in_progress;
  }
  // The line starts at the first slot drawn, from the count taken at the end of the slot before it (none before the period).
  const start = Date.parse(rush[first]!.start);
  if (first > 0 && start <= now) at(start).inProgress = rush[first - 1]!.in_progress;
  const instants = [...points.keys()].sort((a, b) => a - b);
  const column = <K extends keyof Point>(key: K) => instants.map((ms) => points.get(ms)![key]);
  return {
    x: instants.map((ms) => ms / 1000),
    finished: column('finished'),
    p50: column('p50'),
    p90: column('p90'),
    inProgress: column('inProgress').map((v) => v ?? null),
  };
}
