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
  /** The stations its lines went to (iterated once: a report passes its ticket's map's keys). */
  stations: Iterable<string>;
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

type Groups<K> = Map<K, { ready: number; kept: number }>;

function count<K>(groups: Groups<K>, key: K, kept: boolean): void {
  let group = groups.get(key);
  if (!group) groups.set(key, (group = { ready: 0, kept: 0 }));
  group.ready += 1;
  if (kept) group.kept += 1;
}

function shares(groups: Groups<string>): PromiseShare[] {
  return [...groups.entries()]
    .map(([key, g]) => ({ key, ready: g.ready, kept: g.kept, share: g.ready ? g.kept / g.ready : null }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The report over `records`, in one pass (a 90-day report has ~45,000). */
export function promiseReport(records: readonly PromiseRecord[], askedQuantile: number, hourOf: (ms: number) => number): PromiseReport {
  const histogram: LatenessBin[] = [null, ...LATENESS_EDGES].map((from, i) => ({ from_minutes: from, to_minutes: LATENESS_EDGES[i] ?? null, orders: 0 }));
  const lateness: number[] = [];
  const byChannel: Groups<string> = new Map();
  const byHour: Groups<number> = new Map();
  const byStation: Groups<string> = new Map();
  let kept = 0;
  for (const record of records) {
    if (record.ready_at === null) continue;
    const isKept = keptPromise(record);
    if (isKept) kept += 1;
    const seconds = (record.ready_at - toldAt(record)) / 1000;
    lateness.push(seconds);
    const minutes = seconds / 60;
    const index = LATENESS_EDGES.findIndex((edge) => minutes < edge);
    histogram[index === -1 ? LATENESS_EDGES.length : index]!.orders += 1;
    count(byChannel, record.channel ?? '', isKept);
    count(byHour, hourOf(record.created_at), isKept);
    for (const station of record.stations) count(byStation, station, isKept);
  }
  const [p50, p90] = quantiles(lateness, [0.5, 0.9]);
  const ready = lateness.length;
  return {
    orders: records.length,
    ready,
    not_ready: records.length - ready,
    kept,
    asked_quantile: askedQuantile,
    kept_share: ready ? kept / ready : null,
    lateness_p50_seconds: ready ? Math.round(p50!) : null,
    lateness_p90_seconds: ready ? Math.round(p90!) : null,
    histogram,
    by_channel: shares(byChannel),
    by_hour: shares(new Map([...byHour].map(([hour, group]) => [String(hour).padStart(2, '0'), group]))),
    by_station: shares(byStation),
  };
}
