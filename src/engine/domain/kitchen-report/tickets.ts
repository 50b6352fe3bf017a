// A report's tickets (issue 33): each order that reached the kitchen, from its firing to its last
// line done, with the stations it went to, and the reason it is left out of the figures when one of
// its bumps cannot be true (domain/prep-times.ts, classifySamples) or it was left open. Pure.
import { LEFT_OPEN_TICKET_MS, type Implausible } from '../prep-times.ts';

/** What a report reads of one row of the item timing log (store's ItemTimingRow fits it). */
export interface LogEntry {
  order_id: string;
  item_index: number;
  kind: 'fired' | 'started' | 'done' | 'undone' | 'recalled' | 'held';
  station_id: string | null;
  product_id: string | null;
  quantity: number;
  channel: string | null;
  at: number;
}

export interface Ticket {
  order_id: string;
  channel: string | null;
  fired_at: number;
  /** When its last line was done (a bump, or the ticket moved to listo); null while a line is open. */
  ready_at: number | null;
  /** ready_at − fired_at, seconds; null while open. */
  seconds: number | null;
  /** When the order was cancelled (its lines taken off the stations), or null. */
  cancelled_at: number | null;
  /** Station id → when its last line there was done (null: still open there). */
  stations: Map<string, number | null>;
  lines: number;
  /** Why its time is left out of every ticket figure, or null (counted in the figures). */
  excluded: Implausible | null;
}

/** The verdict of each line's final bump, by `lineKey`. */
export type LineVerdicts = ReadonlyMap<string, Implausible | null>;

export const lineKey = (orderId: string, itemIndex: number) => `${orderId}\u001f${itemIndex}`;

/** The reasons a ticket is left out by, first first (a line sample's verdict code is its index + 1; 0: plausible). */
export const EXCLUSION_ORDER: readonly Implausible[] = ['mass_bump', 'too_fast', 'left_open'];

/** What the log says of a ticket, before any verdict: the part a day's summary keeps. */
export interface TicketFacts {
  order_id: string;
  channel: string | null;
  fired_at: number;
  ready_at: number | null;
  /** Station id → when its last line there was done (null: still open there), in the order the lines were first logged. */
  stations: Map<string, number | null>;
  /** The order's line indexes in the log, in the order first logged. */
  line_indexes: number[];
}

/**
 * The tickets fired in [from, to): each order's latest firing to the moment its last line was done
 * (an un-bump opens a line again), in the order of their firing.
 */
export function ticketFactsFromLog(entries: readonly LogEntry[], range: { from: number; to: number }): TicketFacts[] {
  const orders = new Map<string, { channel: string | null; fired_at: number | null; lines: Map<number, { station: string | null; done: number | null }> }>();
  for (const entry of entries) {
    const order = orders.get(entry.order_id) ?? { channel: entry.channel, fired_at: null, lines: new Map() };
    orders.set(entry.order_id, order);
    const line = order.lines.get(entry.item_index) ?? { station: entry.station_id, done: null };
    order.lines.set(entry.item_index, line);
    if (entry.kind === 'fired') {
      if (order.fired_at === null || entry.at > order.fired_at) order.fired_at = entry.at;
      line.done = null;
    } else if (entry.kind === 'done') line.done = entry.at;
    else if (entry.kind === 'undone') line.done = null;
  }
  const tickets: TicketFacts[] = [];
  for (const [orderId, order] of orders) {
    if (order.fired_at === null || order.fired_at < range.from || order.fired_at >= range.to) continue;
    // One pass over the lines (a 90-day report walks ~160,000 of them; no spreads, no sets per ticket).
    let open = false;
    let lastDone = Number.NEGATIVE_INFINITY;
    const stations = new Map<string, number | null>();
    const lineIndexes: number[] = [];
    for (const [index, line] of order.lines) {
      lineIndexes.push(index);
      if (line.done === null) open = true;
      else if (line.done > lastDone) lastDone = line.done;
      if (line.station === null) continue;
      const before = stations.get(line.station);
      stations.set(line.station, line.done === null || before === null ? null : Math.max(before ?? line.done, line.done));
    }
    tickets.push({ order_id: orderId, channel: order.channel, fired_at: order.fired_at, ready_at: open ? null : lastDone, stations, line_indexes: lineIndexes });
  }
  return tickets.sort(byFiring);
}

/** Tickets by their firing, then by order id. */
export const byFiring = (a: { fired_at: number; order_id: string }, b: { fired_at: number; order_id: string }) =>
  a.fired_at - b.fired_at || (a.order_id < b.order_id ? -1 : a.order_id > b.order_id ? 1 : 0);

/**
 * A ticket with its verdict: left out when one of its lines' bumps is implausible (the first of mass
 * bump, too fast, left open), when it took over LEFT_OPEN_TICKET_MS, or when it is still open (not
 * cancelled) that long after its firing at `asOf`.
 */
export function judgeTicket(facts: TicketFacts, verdictOf: (itemIndex: number) => Implausible | null, cancelledAt: ReadonlyMap<string, number>, asOf: number): Ticket {
  const lineReasons = new Set<Implausible | null>();
  for (const index of facts.line_indexes) lineReasons.add(verdictOf(index));
  const ready = facts.ready_at;
  const cancelled = cancelledAt.get(facts.order_id) ?? null;
  return {
    order_id: facts.order_id,
    channel: facts.channel,
    fired_at: facts.fired_at,
    ready_at: ready,
    seconds: ready === null ? null : (ready - facts.fired_at) / 1000,
    cancelled_at: cancelled,
    stations: facts.stations,
    lines: facts.line_indexes.length,
    excluded: ticketExclusion((reason) => lineReasons.has(reason), facts.fired_at, ready, cancelled, asOf),
  };
}

/**
 * Why a ticket is left out, or null: the first of its lines' reasons (`hasLineReason`), then over
 * LEFT_OPEN_TICKET_MS from firing to done, or still open (not cancelled) that long after firing at `asOf`.
 */
export function ticketExclusion(hasLineReason: (reason: Implausible) => boolean, firedAt: number, readyAt: number | null, cancelledAt: number | null, asOf: number): Implausible | null {
  const excluded = EXCLUSION_ORDER.find(hasLineReason) ?? null;
  if (excluded !== null) return excluded;
  if (readyAt !== null && readyAt - firedAt > LEFT_OPEN_TICKET_MS) return 'left_open';
  if (readyAt === null && cancelledAt === null && asOf - firedAt > LEFT_OPEN_TICKET_MS) return 'left_open';
  return null;
}

/** The tickets fired in [from, to), each judged (ticketFactsFromLog, then judgeTicket). */
export function ticketsFromLog(
  entries: readonly LogEntry[],
  range: { from: number; to: number },
  verdicts: LineVerdicts,
  cancelledAt: ReadonlyMap<string, number>,
  asOf: number,
): Ticket[] {
  return ticketFactsFromLog(entries, range).map((facts) => judgeTicket(facts, (index) => verdicts.get(lineKey(facts.order_id, index)) ?? null, cancelledAt, asOf));
}

/** Tickets whose time counts: finished, not cancelled, nothing implausible in them. */
export function countedTickets(tickets: readonly Ticket[]): (Ticket & { ready_at: number; seconds: number })[] {
  return tickets.filter((t): t is Ticket & { ready_at: number; seconds: number } => t.excluded === null && t.ready_at !== null && t.cancelled_at === null);
}
