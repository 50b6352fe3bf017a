// A run of days judged now (issue 33): each line sample by sampleVerdict against the learned time of
// the moment of reading, each ticket by its lines' last verdicts (tickets.ts, ticketExclusion). Works
// on the days' columns (day-columns.ts): the samples stay in columns, one object per ticket. Pure.
import { sampleVerdict, type Implausible } from '../prep-times.ts';
import { dayPromises, dayRecalls, type DayColumns } from './day-columns.ts';
import type { DayPromise, DayRecall, DaySample } from './day-summary.ts';
import { EXCLUSION_ORDER, ticketExclusion, type Ticket } from './tickets.ts';

/** The period's line samples by column; `keys` holds the station and product ids. */
export interface JudgedSamples {
  length: number;
  keys: string[];
  /** The sample's ticket: an index into JudgedDays.tickets. */
  ticket: Int32Array;
  item: Float64Array;
  station: Int32Array;
  product: Int32Array;
  quantity: Float64Array;
  done: Float64Array;
  seconds: Float64Array;
  seq: Float64Array;
  mass: Uint8Array;
  /** 0: plausible; else the reason's index in EXCLUSION_ORDER + 1. */
  verdict: Uint8Array;
}

/** What a report's figures are computed from, for a run of days. */
export interface JudgedDays {
  /** The days' tickets, by firing. */
  tickets: Ticket[];
  /** Their line samples, day by day, each day's in the log's order (logOrder sorts them across days). */
  samples: JudgedSamples;
  /** Their recalls in the log's order, one per ticket and instant. */
  recalls: { order_id: string; at: number }[];
  /** The days' promises, by when they were made, then order id. */
  promises: DayPromise[];
}

/** A verdict code as the reason it stands for. */
export const verdictReason = (code: number): Implausible | null => (code === 0 ? null : EXCLUSION_ORDER[code - 1]!);

/**
 * The days' tickets and samples judged now: each sample against `expectedUnit` (the learned median
 * where learned, else the typed time, per product), each ticket by its lines' last verdicts,
 * `cancelledAt` and `asOf`.
 */
export function judgeDays(days: readonly DayColumns[], expectedUnit: (productId: string) => number, cancelledAt: ReadonlyMap<string, number>, asOf: number): JudgedDays {
  const total = days.reduce((n, d) => n + d.samples, 0);
  const samples: JudgedSamples = {
    length: total,
    keys: [],
    ticket: new Int32Array(total),
    item: new Float64Array(total),
    station: new Int32Array(total),
    product: new Int32Array(total),
    quantity: new Float64Array(total),
    done: new Float64Array(total),
    seconds: new Float64Array(total),
    seq: new Float64Array(total),
    mass: new Uint8Array(total),
    verdict: new Uint8Array(total),
  };
  const keyOf = new Map<string, number>();
  const expected = new Map<string, number>();
  const tickets: Ticket[] = [];
  const recalls: DayRecall[] = [];
  const promises: DayPromise[] = [];
  let k = 0;
  for (const day of days) {
    const key = Int32Array.from(day.keys, (id) => keyOf.get(id) ?? (keyOf.set(id, samples.keys.push(id) - 1), samples.keys.length - 1));
    const unit = new Float64Array(day.keys.length).fill(Number.NaN);
    const first = tickets.length;
    // Each ticket line's last verdict (a line bumped, un-bumped and bumped again is judged by its last bump).
    const lineVerdict = new Uint8Array(day.lineIndex.length);
    for (let s = 0; s < day.samples; s++, k++) {
      const product = day.sampleProduct[s]!;
      if (Number.isNaN(unit[product]!)) {
        const id = day.keys[product]!;
        let expectedSeconds = expected.get(id);
        if (expectedSeconds === undefined) expected.set(id, (expectedSeconds = expectedUnit(id)));
        unit[product] = expectedSeconds;
      }
      const reason = sampleVerdict({ seconds: day.sampleSeconds[s]!, quantity: day.sampleQuantity[s]! }, unit[product]!, day.sampleMass[s] === 1);
      const code = reason === null ? 0 : EXCLUSION_ORDER.indexOf(reason) + 1;
      const ticket = day.sampleTicket[s]!;
      const item = day.sampleItem[s]!;
      for (let j = day.lineStart[ticket]!, end = day.lineStart[ticket + 1]!; j < end; j++)
        if (day.lineIndex[j] === item) {
          lineVerdict[j] = code;
          break;
        }
      samples.ticket[k] = first + ticket;
      samples.item[k] = item;
      samples.station[k] = key[day.sampleStation[s]!]!;
      samples.product[k] = key[product]!;
      samples.quantity[k] = day.sampleQuantity[s]!;
      samples.done[k] = day.sampleDone[s]!;
      samples.seconds[k] = day.sampleSeconds[s]!;
      samples.seq[k] = day.sampleSeq[s]!;
      samples.mass[k] = day.sampleMass[s]!;
      samples.verdict[k] = code;
    }
    for (let t = 0; t < day.tickets; t++) {
      let reasons = 0;
      for (let j = day.lineStart[t]!, end = day.lineStart[t + 1]!; j < end; j++) reasons |= 1 << lineVerdict[j]!;
      const stations = new Map<string, number | null>();
      for (let j = day.stationStart[t]!, end = day.stationStart[t + 1]!; j < end; j++) stations.set(day.keys[day.stationKey[j]!]!, nullable(day.stationDone[j]!));
      const orderId = day.orders[t]!;
      const channel = day.ticketChannel[t]!;
      const fired = day.ticketFired[t]!;
      const ready = nullable(day.ticketReady[t]!);
      const cancelled = cancelledAt.get(orderId) ?? null;
      tickets.push({
        order_id: orderId,
        channel: channel < 0 ? null : day.keys[channel]!,
        fired_at: fired,
        ready_at: ready,
        seconds: ready === null ? null : (ready - fired) / 1000,
        cancelled_at: cancelled,
        stations,
        lines: day.lineStart[t + 1]! - day.lineStart[t]!,
        excluded: ticketExclusion((reason) => (reasons & (1 << (EXCLUSION_ORDER.indexOf(reason) + 1))) !== 0, fired, ready, cancelled, asOf),
      });
    }
    recalls.push(...dayRecalls(day));
    promises.push(...dayPromises(day));
  }
  // A line bumped after midnight falls among the next day's bumps.
  recalls.sort((a, b) => a.at - b.at || a.seq - b.seq);
  const seen = new Set<string>();
  return {
    // Days are disjoint runs of firings, each by firing: together, by firing.
    tickets,
    samples,
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

const nullable = (value: number): number | null => (Number.isNaN(value) ? null : value);

/** The given samples (all by default) in the log's order: by bump, then log row. */
export function logOrder(samples: JudgedSamples, indexes?: number[]): number[] {
  const order = indexes ?? Array.from({ length: samples.length }, (_, i) => i);
  return order.sort((a, b) => samples.done[a]! - samples.done[b]! || samples.seq[a]! - samples.seq[b]!);
}

/** One sample as an object (the lists of bumps left out, the tests). */
export function sampleRow(judged: JudgedDays, i: number): DaySample {
  const s = judged.samples;
  return {
    order_id: judged.tickets[s.ticket[i]!]!.order_id,
    item_index: s.item[i]!,
    station_id: s.keys[s.station[i]!]!,
    product_id: s.keys[s.product[i]!]!,
    quantity: s.quantity[i]!,
    done_at: s.done[i]!,
    seconds: s.seconds[i]!,
    seq: s.seq[i]!,
    mass_bump: s.mass[i] === 1,
  };
}
