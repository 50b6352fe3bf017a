// A day's report inputs (issue 33, long ranges): what the figures need of the tickets fired on one
// local day, read once from the item timing log around that day, so that a range of 90 days reads
// 90 rows instead of ~460,000 log rows. It keeps facts only: each ticket's times and stations, each
// line's cook sample (its unit's seconds exact, not bucketed) and whether its station swept it in a
// mass bump. What depends on the moment of reading is applied when a report is read, by the same
// rules as before (judge-days.ts): "too fast" and "left open" against the learned time of that moment
// (prep-times.ts, sampleVerdict), a ticket still open 2 hours after firing, cancellations. Stored and
// read in columns (day-columns.ts). Pure.
import { massBumpedSamples, type CookSample } from '../prep-times.ts';
import type { PromiseRecord } from './promise-report.ts';
import { ticketFactsFromLog, type LogEntry, type TicketFacts } from './tickets.ts';

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
