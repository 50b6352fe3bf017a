// A day's report inputs in columns (issue 33, long ranges): the facts of a DaySummary
// (day-summary.ts) as one typed array per field, so that a report over 90 days reads ~45,000 tickets
// and ~80,000 line samples without building an object for each sample (bench row 12: building them,
// and parsing them from JSON, was most of a 90-day report's 2.2 s). Stored as text: a JSON header
// (the ids) and the numbers as the bytes of typed arrays in base64, which decode at memory speed
// (little-endian, as on every machine the app runs on: x64 and arm64). Exact: every instant, time
// and quantity is kept as the float64 it was. Pure.
import type { DayPromise, DayRecall, DaySummary } from './day-summary.ts';

/** The stored form's version: a day stored in another is computed again. */
export const DAY_SUMMARY_FORMAT = 3;

/**
 * The numeric columns by section (tickets, their offsets, station entries, line entries, samples,
 * recalls, promises) and kind: instants, seconds, quantities and log rows as float64 (exact), indexes
 * as int32, flags as bytes. A null instant is NaN, a missing id index −1.
 */
const F64 = [
  ['ticketFired', 'ticketReady'],
  [],
  ['stationDone'],
  [],
  ['sampleQuantity', 'sampleDone', 'sampleSeconds', 'sampleSeq'],
  ['recallAt', 'recallSeq'],
  ['promiseCreated', 'promiseExpected', 'promisePromised', 'promiseReady'],
] as const;
const I32 = [
  ['ticketChannel'],
  ['stationStart', 'lineStart'],
  ['stationKey'],
  ['lineIndex'],
  ['sampleTicket', 'sampleItem', 'sampleStation', 'sampleProduct'],
  ['recallTicket'],
  ['promiseOrder', 'promiseChannel'],
] as const;
const U8 = [[], [], [], [], ['sampleMass'], [], []] as const;

type F64Name = (typeof F64)[number][number];
type I32Name = (typeof I32)[number][number];
type U8Name = (typeof U8)[number][number];

/**
 * One day's facts by column. Tickets by firing; ticket i's stations are stationKey/stationDone
 * [stationStart[i], stationStart[i + 1]) in the order first logged, its line indexes likewise in
 * lineIndex from lineStart; samples and recalls in the log's order; promises by when made, then order id.
 */
export type DayColumns = Record<F64Name, Float64Array> &
  Record<I32Name, Int32Array> &
  Record<U8Name, Uint8Array> & {
    /** Station, product and channel ids, by the index the columns hold. */
    keys: string[];
    /** Order ids: the tickets' first (ticket i is orders[i]), then those of promises without a ticket that day. */
    orders: string[];
    tickets: number;
    samples: number;
    recalls: number;
    promises: number;
  };

interface Header {
  v: typeof DAY_SUMMARY_FORMAT;
  keys: string[];
  orders: string[];
  /** Tickets, station entries, line entries, samples, recalls, promises. */
  n: [number, number, number, number, number, number];
}

/** The columns of a summary. */
export function dayColumns(summary: DaySummary): DayColumns {
  const keys: string[] = [];
  const keyOf = new Map<string, number>();
  const key = (id: string | null) => {
    if (id === null) return -1;
    let index = keyOf.get(id);
    if (index === undefined) {
      index = keys.push(id) - 1;
      keyOf.set(id, index);
    }
    return index;
  };
  const orders = summary.tickets.map((t) => t.order_id);
  const orderOf = new Map(orders.map((id, i) => [id, i]));
  const order = (id: string) => orderOf.get(id) ?? (orderOf.set(id, orders.push(id) - 1), orders.length - 1);
  const nul = (ms: number | null) => (ms === null ? Number.NaN : ms);
  const stations = summary.tickets.reduce((n, t) => n + t.stations.size, 0);
  const lines = summary.tickets.reduce((n, t) => n + t.line_indexes.length, 0);
  const { all: _all, ...c } = emptyColumns(summary.tickets.length, stations, lines, summary.samples.length, summary.recalls.length, summary.promises.length)!;
  let station = 0;
  let line = 0;
  summary.tickets.forEach((t, i) => {
    c.ticketChannel[i] = key(t.channel);
    c.ticketFired[i] = t.fired_at;
    c.ticketReady[i] = nul(t.ready_at);
    c.stationStart[i] = station;
    c.lineStart[i] = line;
    for (const [id, done] of t.stations) {
      c.stationKey[station] = key(id);
      c.stationDone[station++] = nul(done);
    }
    for (const index of t.line_indexes) c.lineIndex[line++] = index;
  });
  c.stationStart[summary.tickets.length] = station;
  c.lineStart[summary.tickets.length] = line;
  summary.samples.forEach((s, i) => {
    c.sampleTicket[i] = orderOf.get(s.order_id)!;
    c.sampleItem[i] = s.item_index;
    c.sampleStation[i] = key(s.station_id);
    c.sampleProduct[i] = key(s.product_id);
    c.sampleQuantity[i] = s.quantity;
    c.sampleDone[i] = s.done_at;
    c.sampleSeconds[i] = s.seconds;
    c.sampleSeq[i] = s.seq;
    c.sampleMass[i] = s.mass_bump ? 1 : 0;
  });
  summary.recalls.forEach((r, i) => {
    c.recallTicket[i] = orderOf.get(r.order_id)!;
    c.recallAt[i] = r.at;
    c.recallSeq[i] = r.seq;
  });
  summary.promises.forEach((p, i) => {
    c.promiseOrder[i] = order(p.order_id);
    c.promiseChannel[i] = key(p.channel);
    c.promiseCreated[i] = p.created_at;
    c.promiseExpected[i] = p.expected_ready_at;
    c.promisePromised[i] = p.promised_ready_at;
    c.promiseReady[i] = nul(p.ready_at);
  });
  return { ...c, keys, orders };
}

/**
 * Columns of the given lengths, each a view of one buffer (`bytes`, or a new one): the float64
 * columns first, then the int32 ones, then the bytes, so that each starts aligned. Null when `bytes`
 * is not of their size.
 */
function emptyColumns(tickets: number, stations: number, lines: number, samples: number, recalls: number, promises: number, bytes?: Uint8Array) {
  const lengths = [tickets, tickets + 1, stations, lines, samples, recalls, promises];
  const size = (sections: readonly (readonly string[])[]) => sections.reduce((n, names, i) => n + names.length * lengths[i]!, 0);
  const total = size(F64) * 8 + size(I32) * 4 + size(U8);
  if (bytes && bytes.length !== total) return null;
  // A buffer of its own: a Float64Array needs its start aligned to 8 bytes.
  const all = new Uint8Array(total);
  if (bytes) all.set(bytes);
  const columns = {} as Record<F64Name, Float64Array> & Record<I32Name, Int32Array> & Record<U8Name, Uint8Array>;
  let at = 0;
  const lay = <T>(sections: readonly (readonly string[])[], width: number, view: (offset: number, length: number) => T) => {
    sections.forEach((names, i) => {
      for (const name of names) {
        (columns as unknown as Record<string, T>)[name] = view(at, lengths[i]!);
        at += lengths[i]! * width;
      }
    });
  };
  lay(F64, 8, (offset, length) => new Float64Array(all.buffer, offset, length));
  lay(I32, 4, (offset, length) => new Int32Array(all.buffer, offset, length));
  lay(U8, 1, (offset, length) => new Uint8Array(all.buffer, offset, length));
  return { ...columns, all, tickets, samples, recalls, promises };
}

const COLUMN_NAMES = [...F64.flat(), ...I32.flat(), ...U8.flat()];

/** The columns as stored (text). */
export function encodeDayColumns(columns: DayColumns): string {
  const c = emptyColumns(columns.tickets, columns.stationKey.length, columns.lineIndex.length, columns.samples, columns.recalls, columns.promises)!;
  for (const name of COLUMN_NAMES) (c[name] as Float64Array).set(columns[name] as Float64Array);
  const header: Header = {
    v: DAY_SUMMARY_FORMAT,
    keys: columns.keys,
    orders: columns.orders,
    n: [columns.tickets, columns.stationKey.length, columns.lineIndex.length, columns.samples, columns.recalls, columns.promises],
  };
  return `${JSON.stringify(header)}\n${Buffer.from(c.all.buffer, c.all.byteOffset, c.all.byteLength).toString('base64')}`;
}

/** Stored columns read back; null when they are not ones this code wrote (the day is then computed again). */
export function decodeDayColumns(text: string): DayColumns | null {
  const newline = text.indexOf('\n');
  if (newline < 0) return null;
  let header: Header;
  try {
    header = JSON.parse(text.slice(0, newline)) as Header;
  } catch {
    return null;
  }
  if (header?.v !== DAY_SUMMARY_FORMAT || !Array.isArray(header.keys) || !Array.isArray(header.orders) || !Array.isArray(header.n) || header.n.length !== 6) return null;
  const bytes = Buffer.from(text.slice(newline + 1), 'base64');
  const [tickets, stations, lines, samples, recalls, promises] = header.n;
  const c = emptyColumns(tickets, stations, lines, samples, recalls, promises, bytes);
  if (!c) return null;
  const { all: _all, ...columns } = c;
  return { ...columns, keys: header.keys, orders: header.orders };
}

/** The day's recalls as objects (a handful a day). */
export function dayRecalls(c: DayColumns): DayRecall[] {
  const recalls: DayRecall[] = [];
  for (let i = 0; i < c.recalls; i++) recalls.push({ order_id: c.orders[c.recallTicket[i]!]!, at: c.recallAt[i]!, seq: c.recallSeq[i]! });
  return recalls;
}

/** The day's promises as objects. */
export function dayPromises(c: DayColumns): DayPromise[] {
  const promises: DayPromise[] = [];
  for (let i = 0; i < c.promises; i++) {
    const channel = c.promiseChannel[i]!;
    const ready = c.promiseReady[i]!;
    promises.push({
      order_id: c.orders[c.promiseOrder[i]!]!,
      channel: channel < 0 ? null : c.keys[channel]!,
      created_at: c.promiseCreated[i]!,
      expected_ready_at: c.promiseExpected[i]!,
      promised_ready_at: c.promisePromised[i]!,
      ready_at: Number.isNaN(ready) ? null : ready,
    });
  }
  return promises;
}
