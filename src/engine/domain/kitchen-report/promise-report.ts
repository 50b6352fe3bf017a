// Promises (issue 33): of the orders given a promise, the share ready by it, how late or early they
// were against it (a histogram), whether the promised quantile held (asked p90, got N %), by channel,
// local hour of the order and station. Pure.
import { quantiles } from '../prep-times.ts';

export interface PromiseRecord {
  order_id: string;
  channel: string | null;
  created_at: number;
  expected_ready_at: number;
  promised_ready_at: number;
  /** When the order went listo; null: not yet (or cancelled). */
  ready_at: number | null;
  /** The stations its lines went to. */
  stations: readonly string[];
}

export interface PromiseShare {
  key: string;
  /** Orders ready, and of them those ready by their promise. */
  ready: number;
  kept: number;
  /** kept / ready, 0–1; null for none ready. */
  share: number | null;
}

export interface LatenessBin {
  /** Minutes after the promise (negative: before), from inclusive; null: open below. */
  from_minutes: number | null;
  /** To exclusive; null: open above. */
  to_minutes: number | null;
  orders: number;
}

export interface PromiseReport {
  orders: number;
  ready: number;
  /** Given a promise, never ready (cancelled, or still open). */
  not_ready: number;
  kept: number;
  /** The quantile the promise is asked to cover (the restaurant file's promise_quantile) and the share that got it. */
  asked_quantile: number;
  kept_share: number | null;
  /** Median and p90 of (ready − promised as told), seconds: negative is early. */
  lateness_p50_seconds: number | null;
  lateness_p90_seconds: number | null;
  histogram: LatenessBin[];
  by_channel: PromiseShare[];
  by_hour: PromiseShare[];
  by_station: PromiseShare[];
}

/** The histogram's edges, minutes after the promise: below −10, 2-minute bins to +20, then above. */
export const LATENESS_EDGES = [-10, -8, -6, -4, -2, 0, 2, 4, 6, 8, 10, 15, 20];

/** The promise as the customer was told it: to the second (the API writes whole seconds). */
export const toldAt = (p: PromiseRecord): number => Math.floor(p.promised_ready_at / 1000) * 1000;

/** Ready by the promise: at or before the second it was told for. */
export const keptPromise = (p: PromiseRecord): boolean => p.ready_at !== null && p.ready_at <= toldAt(p);

function shares(records: readonly PromiseRecord[], keysOf: (p: PromiseRecord) => readonly string[]): PromiseShare[] {
  const groups = new Map<string, { ready: number; kept: number }>();
  for (const record of records) {
    if (record.ready_at === null) continue;
    for (const key of keysOf(record)) {
      const group = groups.get(key) ?? { ready: 0, kept: 0 };
      groups.set(key, group);
      group.ready += 1;
      if (keptPromise(record)) group.kept += 1;
    }
  }
  return [...groups.entries()]
    .map(([key, g]) => ({ key, ready: g.ready, kept: g.kept, share: g.ready ? g.kept / g.ready : null }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export function promiseReport(records: readonly PromiseRecord[], askedQuantile: number, hourOf: (ms: number) => number): PromiseReport {
  const ready = records.filter((r) => r.ready_at !== null);
  const kept = ready.filter(keptPromise).length;
  const lateness = ready.map((r) => (r.ready_at! - toldAt(r)) / 1000);
  const histogram: LatenessBin[] = [null, ...LATENESS_EDGES].map((from, i) => ({ from_minutes: from, to_minutes: LATENESS_EDGES[i] ?? null, orders: 0 }));
  for (const seconds of lateness) {
    const minutes = seconds / 60;
    const index = LATENESS_EDGES.findIndex((edge) => minutes < edge);
    histogram[index === -1 ? LATENESS_EDGES.length : index]!.orders += 1;
  }
  const [p50, p90] = quantiles(lateness, [0.5, 0.9]);
  return {
    orders: records.length,
    ready: ready.length,
    not_ready: records.length - ready.length,
    kept,
    asked_quantile: askedQuantile,
    kept_share: ready.length ? kept / ready.length : null,
    lateness_p50_seconds: lateness.length ? Math.round(p50!) : null,
    lateness_p90_seconds: lateness.length ? Math.round(p90!) : null,
    histogram,
    by_channel: shares(records, (r) => [r.channel ?? '']),
    by_hour: shares(records, (r) => [String(hourOf(r.created_at)).padStart(2, '0')]),
    by_station: shares(records, (r) => r.stations),
  };
}
