// A day's report inputs (issue 33, long ranges): what the figures need of the tickets fired on one
// local day, read once from the item timing log around that day, so that a range of 90 days reads
// 90 rows instead of ~460,000 log rows. It keeps facts only: each ticket's times and stations, each
// line's cook sample (its unit's seconds exact, not bucketed) and whether its station swept it in a
// mass bump. What depends on the moment of reading is applied when a report is read, by the same
// rules as before: "too fast" and "left open" against the learned time of that moment
// (prep-times.ts, sampleVerdict), a ticket still open 2 hours after firing, cancellations. Pure.
import { massBumpedSamples, sampleVerdict, type CookSample, type Implausible } from '../prep-times.ts';
import { byFiring, judgeTicket, lineKey, ticketFactsFromLog, type LogEntry, type Ticket, type TicketFacts } from './tickets.ts';

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

/** The tickets fired on one day (by firing), their samples and their recalls (each in the log's order). */
export interface DaySummary {
  tickets: TicketFacts[];
  samples: DaySample[];
  recalls: DayRecall[];
}

/** A log row as the summary reads it (the report's read, with its `seq`). */
export type SummaryLogRow = LogEntry & { seq: number };

/**
 * The summary of the tickets fired in `range` (a local day), from the log rows read around it (the
 * report's look-before and look-after) and the cook samples computed over the same rows
 * (services/learn-prep-times.ts, cookSamples, which carries each bump's `seq`).
 */
export function summarizeDay(rows: readonly SummaryLogRow[], samples: readonly CookSample[], range: { from: number; to: number }): DaySummary {
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
  return { tickets, samples: daySamples, recalls };
}

/** Where each kept value sits in a stored ticket and sample (compact arrays: a day of 500 tickets is ~150 KB). */
type StoredTicket = [string, string | null, number, number | null, (string | number | null)[], number[]];
type StoredSample = [number, number, string, string, number, number, number, number, 0 | 1];
type StoredRecall = [number, number, number];
interface StoredSummary {
  v: 1;
  t: StoredTicket[];
  s: StoredSample[];
  r: StoredRecall[];
}

/** The summary as stored (JSON text). */
export function encodeDaySummary(summary: DaySummary): string {
  const ticketOf = new Map(summary.tickets.map((t, i) => [t.order_id, i]));
  const stored: StoredSummary = {
    v: 1,
    t: summary.tickets.map((t) => [t.order_id, t.channel, t.fired_at, t.ready_at, [...t.stations].flat(), t.line_indexes]),
    s: summary.samples.map((s) => [ticketOf.get(s.order_id)!, s.item_index, s.station_id, s.product_id, s.quantity, s.done_at, s.seconds, s.seq, s.mass_bump ? 1 : 0]),
    r: summary.recalls.map((r) => [ticketOf.get(r.order_id)!, r.at, r.seq]),
  };
  return JSON.stringify(stored);
}

/** A stored summary read back; null when it is not one this code wrote (it is then computed again). */
export function decodeDaySummary(text: string): DaySummary | null {
  const stored = JSON.parse(text) as StoredSummary;
  if (stored.v !== 1) return null;
  const tickets: TicketFacts[] = stored.t.map(([orderId, channel, firedAt, readyAt, flat, lineIndexes]) => {
    const stations = new Map<string, number | null>();
    for (let i = 0; i < flat.length; i += 2) stations.set(flat[i] as string, flat[i + 1] as number | null);
    return { order_id: orderId, channel, fired_at: firedAt, ready_at: readyAt, stations, line_indexes: lineIndexes };
  });
  const samples = stored.s.map(([ticket, itemIndex, stationId, productId, quantity, doneAt, seconds, seq, mass]) => ({
    order_id: tickets[ticket]!.order_id,
    item_index: itemIndex,
    station_id: stationId,
    product_id: productId,
    quantity,
    done_at: doneAt,
    seconds,
    seq,
    mass_bump: mass === 1,
  }));
  const recalls = stored.r.map(([ticket, at, seq]) => ({ order_id: tickets[ticket]!.order_id, at, seq }));
  return { tickets, samples, recalls };
}

/** What a report's figures are computed from, for a run of days. */
export interface JudgedDays {
  /** The days' tickets, by firing. */
  tickets: Ticket[];
  /** Their line samples in the log's order (by bump, then row), each with its verdict. */
  samples: CookSample[];
  verdicts: (Implausible | null)[];
  /** Their recalls in the log's order, one per ticket and instant. */
  recalls: { order_id: string; at: number }[];
}

const byLogOrder = (a: { at: number; seq: number }, b: { at: number; seq: number }) => a.at - b.at || a.seq - b.seq;

/**
 * The days' tickets and samples judged now: each sample by sampleVerdict against `expectedUnit`
 * (the learned median where learned, else the typed time, per product), each ticket by judgeTicket
 * with its lines' last verdicts, `cancelledAt` and `asOf`.
 */
export function judgeDays(days: readonly DaySummary[], expectedUnit: (productId: string) => number, cancelledAt: ReadonlyMap<string, number>, asOf: number): JudgedDays {
  const tickets: Ticket[] = [];
  const judged: { sample: DaySample; verdict: Implausible | null }[] = [];
  const recalls: DayRecall[] = [];
  for (const day of days) {
    const lineVerdicts = new Map<string, Implausible | null>();
    for (const sample of day.samples) {
      const verdict = sampleVerdict(sample, expectedUnit(sample.product_id), sample.mass_bump);
      lineVerdicts.set(lineKey(sample.order_id, sample.item_index), verdict);
      judged.push({ sample, verdict });
    }
    for (const facts of day.tickets) tickets.push(judgeTicket(facts, lineVerdicts, cancelledAt, asOf));
    recalls.push(...day.recalls);
  }
  // Days are disjoint runs of firings, but a line bumped after midnight falls among the next day's bumps.
  judged.sort((a, b) => byLogOrder({ at: a.sample.done_at, seq: a.sample.seq }, { at: b.sample.done_at, seq: b.sample.seq }));
  recalls.sort(byLogOrder);
  const seen = new Set<string>();
  return {
    tickets: tickets.sort(byFiring),
    samples: judged.map(({ sample: s }) => ({
      station_id: s.station_id,
      product_id: s.product_id,
      quantity: s.quantity,
      done_at: s.done_at,
      seconds: s.seconds,
      order_id: s.order_id,
      item_index: s.item_index,
      seq: s.seq,
    })),
    verdicts: judged.map(({ verdict }) => verdict),
    recalls: recalls
      .filter((r) => {
        const key = `${r.order_id}\u001f${r.at}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .map((r) => ({ order_id: r.order_id, at: r.at })),
  };
}
