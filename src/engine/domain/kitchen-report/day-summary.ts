// A day's report inputs (issue 33, long ranges): what the figures need of the tickets fired on one
// local day, read once from the item timing log around that day, so that a range of 90 days reads
// 90 rows instead of ~460,000 log rows. It keeps facts only: each ticket's times and stations, each
// line's cook sample (its unit's seconds exact, not bucketed) and whether its station swept it in a
// mass bump. What depends on the moment of reading is applied when a report is read, by the same
// rules as before: "too fast" and "left open" against the learned time of that moment
// (prep-times.ts, sampleVerdict), a ticket still open 2 hours after firing, cancellations. Pure.
import { massBumpedSamples, sampleVerdict, type CookSample, type Implausible } from '../prep-times.ts';
import type { PromiseRecord } from './promise-report.ts';
import { byFiring, judgeTicket, ticketFactsFromLog, type LogEntry, type Ticket, type TicketFacts } from './tickets.ts';

/** A line's cook sample as a day keeps it. */
export interface DaySample {
  order_id: string;
  item_index: number;
  station_id: string;
  product_id: string;
  quantity: number;
  done_at: number;
  seconds: number;
  /** The bump's log row: orders bumps at one instant as the log does. */
  seq: number;
  mass_bump: boolean;
}

/** A recall of one of the day's tickets. */
export interface DayRecall {
  order_id: string;
  at: number;
  seq: number;
}

/** An order's promise as a day keeps it (the stations are its ticket's, added when read). */
export type DayPromise = Omit<PromiseRecord, 'stations'>;

/**
 * The tickets fired on one day (by firing), their samples and their recalls (each in the log's
 * order), and the promises made that day (by when, then order id).
 */
export interface DaySummary {
  tickets: TicketFacts[];
  samples: DaySample[];
  recalls: DayRecall[];
  promises: DayPromise[];
}

/** A log row as the summary reads it (the report's read, with its `seq`). */
export type SummaryLogRow = LogEntry & { seq: number };

/**
 * The summary of the tickets fired in `range` (a local day), from the log rows read around it (the
 * report's look-before and look-after), the cook samples computed over the same rows
 * (services/kitchen/learn-prep-times.ts, cookSamples, which carries each bump's `seq`) and the day's promises.
 */
export function summarizeDay(rows: readonly SummaryLogRow[], samples: readonly CookSample[], promises: readonly DayPromise[], range: { from: number; to: number }): DaySummary {
  const tickets = ticketFactsFromLog(rows, range);
  const inDay = new Set(tickets.map((t) => t.order_id));
  const massBumped = massBumpedSamples(samples);
  const daySamples: DaySample[] = [];
  samples.forEach((s, i) => {
    if (!inDay.has(s.order_id!)) return;
    daySamples.push({
      order_id: s.order_id!,
      item_index: s.item_index!,
      station_id: s.station_id,
      product_id: s.product_id,
      quantity: s.quantity,
      done_at: s.done_at,
      seconds: s.seconds,
      seq: s.seq!,
      mass_bump: massBumped.has(i),
    });
  });
  const recalls = rows.filter((r) => r.kind === 'recalled' && inDay.has(r.order_id)).map((r) => ({ order_id: r.order_id, at: r.at, seq: r.seq }));
  const dayPromises = promises.map((p) => ({
    order_id: p.order_id,
    channel: p.channel,
    created_at: p.created_at,
    expected_ready_at: p.expected_ready_at,
    promised_ready_at: p.promised_ready_at,
    ready_at: p.ready_at,
  }));
  return { tickets, samples: daySamples, recalls, promises: dayPromises };
}

/**
 * Where each kept value sits in the stored form: compact arrays, station and product ids by their
 * index in `k`, instants in ms after `b` (the day's start). A day of 500 orders is ~100 KB.
 */
type StoredTicket = [string, string | null, number, number | null, (number | null)[], number[]];
type StoredSample = [number, number, number, number, number, number, number, number, 0 | 1];
type StoredRecall = [number, number, number];
type StoredPromise = [string, string | null, number, number, number, number | null];
/** The stored form's version: a summary stored in another is computed again. */
export const DAY_SUMMARY_FORMAT = 2;

interface StoredSummary {
  v: typeof DAY_SUMMARY_FORMAT;
  b: number;
  k: string[];
  t: StoredTicket[];
  s: StoredSample[];
  r: StoredRecall[];
  p: StoredPromise[];
}

/** The summary as stored (JSON text); `base`: the day's start. */
export function encodeDaySummary(summary: DaySummary, base: number): string {
  const ticketOf = new Map(summary.tickets.map((t, i) => [t.order_id, i]));
  const keys: string[] = [];
  const keyOf = new Map<string, number>();
  const key = (id: string) => {
    let index = keyOf.get(id);
    if (index === undefined) {
      index = keys.push(id) - 1;
      keyOf.set(id, index);
    }
    return index;
  };
  const rel = (ms: number | null) => (ms === null ? null : ms - base);
  const stored: StoredSummary = {
    v: DAY_SUMMARY_FORMAT,
    b: base,
    k: keys,
    t: summary.tickets.map((t) => [t.order_id, t.channel, t.fired_at - base, rel(t.ready_at), [...t.stations].flatMap(([station, done]) => [key(station), rel(done)]), t.line_indexes]),
    s: summary.samples.map((s) => [ticketOf.get(s.order_id)!, s.item_index, key(s.station_id), key(s.product_id), s.quantity, s.done_at - base, s.seconds, s.seq, s.mass_bump ? 1 : 0]),
    r: summary.recalls.map((r) => [ticketOf.get(r.order_id)!, r.at - base, r.seq]),
    p: summary.promises.map((p) => [p.order_id, p.channel, p.created_at - base, p.expected_ready_at - base, p.promised_ready_at - base, rel(p.ready_at)]),
  };
  return JSON.stringify(stored);
}

/** A stored summary read back; null when it is not one this code wrote (it is then computed again). */
export function decodeDaySummary(text: string): DaySummary | null {
  const stored = JSON.parse(text) as StoredSummary;
  if (stored.v !== DAY_SUMMARY_FORMAT) return null;
  const { b: base, k: keys } = stored;
  const abs = (ms: number | null) => (ms === null ? null : ms + base);
  const tickets: TicketFacts[] = stored.t.map(([orderId, channel, firedAt, readyAt, flat, lineIndexes]) => {
    const stations = new Map<string, number | null>();
    for (let i = 0; i < flat.length; i += 2) stations.set(keys[flat[i]!]!, abs(flat[i + 1]!));
    return { order_id: orderId, channel, fired_at: firedAt + base, ready_at: abs(readyAt), stations, line_indexes: lineIndexes };
  });
  const samples = stored.s.map(([ticket, itemIndex, station, product, quantity, doneAt, seconds, seq, mass]) => ({
    order_id: tickets[ticket]!.order_id,
    item_index: itemIndex,
    station_id: keys[station]!,
    product_id: keys[product]!,
    quantity,
    done_at: doneAt + base,
    seconds,
    seq,
    mass_bump: mass === 1,
  }));
  const recalls = stored.r.map(([ticket, at, seq]) => ({ order_id: tickets[ticket]!.order_id, at: at + base, seq }));
  const promises = stored.p.map(([orderId, channel, createdAt, expected, promised, readyAt]) => ({
    order_id: orderId,
    channel,
    created_at: createdAt + base,
    expected_ready_at: expected + base,
    promised_ready_at: promised + base,
    ready_at: abs(readyAt),
  }));
  return { tickets, samples, recalls, promises };
}

/** What a report's figures are computed from, for a run of days. */
export interface JudgedDays {
  /** The days' tickets, by firing. */
  tickets: Ticket[];
  /** Their line samples in the log's order (by bump, then row), each with its verdict. */
  samples: DaySample[];
  verdicts: (Implausible | null)[];
  /** Their recalls in the log's order, one per ticket and instant. */
  recalls: { order_id: string; at: number }[];
  /** The days' promises, by when they were made, then order id. */
  promises: DayPromise[];
}


/**
 * The days' tickets and samples judged now: each sample by sampleVerdict against `expectedUnit`
 * (the learned median where learned, else the typed time, per product), each ticket by judgeTicket
 * with its lines' last verdicts, `cancelledAt` and `asOf`.
 */
export function judgeDays(days: readonly DaySummary[], expectedUnit: (productId: string) => number, cancelledAt: ReadonlyMap<string, number>, asOf: number): JudgedDays {
  const tickets: Ticket[] = [];
  const judged: { sample: DaySample; verdict: Implausible | null }[] = [];
  const recalls: DayRecall[] = [];
  const promises: DayPromise[] = [];
  const expected = new Map<string, number>();
  for (const day of days) {
    promises.push(...day.promises);
    // Each line's last verdict, per order (a line bumped, un-bumped and bumped again is judged by its last bump).
    const lineVerdicts = new Map<string, Map<number, Implausible | null>>();
    for (const sample of day.samples) {
      let unit = expected.get(sample.product_id);
      if (unit === undefined) expected.set(sample.product_id, (unit = expectedUnit(sample.product_id)));
      const verdict = sampleVerdict(sample, unit, sample.mass_bump);
      let lines = lineVerdicts.get(sample.order_id);
      if (!lines) lineVerdicts.set(sample.order_id, (lines = new Map()));
      lines.set(sample.item_index, verdict);
      judged.push({ sample, verdict });
    }
    for (const facts of day.tickets) {
      const lines = lineVerdicts.get(facts.order_id);
      tickets.push(judgeTicket(facts, (index) => lines?.get(index) ?? null, cancelledAt, asOf));
    }
    recalls.push(...day.recalls);
  }
  // Days are disjoint runs of firings, but a line bumped after midnight falls among the next day's bumps.
  judged.sort((a, b) => a.sample.done_at - b.sample.done_at || a.sample.seq - b.sample.seq);
  recalls.sort((a, b) => a.at - b.at || a.seq - b.seq);
  const seen = new Set<string>();
  return {
    tickets: tickets.sort(byFiring),
    samples: judged.map(({ sample }) => sample),
    verdicts: judged.map(({ verdict }) => verdict),
    recalls: recalls
      .filter((r) => {
        const key = `${r.order_id}\u001f${r.at}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .map((r) => ({ order_id: r.order_id, at: r.at })),
    promises,
  };
}
