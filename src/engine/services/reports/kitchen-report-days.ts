// Informes' long ranges (issue 33): a report reads each day of its period as a summary of the
// tickets fired that day (domain/kitchen-report/day-summary.ts). A closed day's summary is stored the
// by the jobs runner once it closes, in each world (keep-report-days.ts), or else the first time a report covers it (keepClosedDays, one short write transaction per day, so the
// kitchen's writes never wait long behind it) and read back after; today, and a day whose stored
// summary is missing or was computed with other cooks or another time zone, is summarized from the
// log on the spot, inside the report's read.
import { DateTime } from 'luxon';
import { DAY_SUMMARY_FORMAT, dayColumns, decodeDayColumns, encodeDayColumns, type DayColumns } from '../../domain/kitchen-report/day-columns.ts';
import { summarizeDay, type DaySummary } from '../../domain/kitchen-report/day-summary.ts';
import { LEFT_OPEN_TICKET_MS } from '../../domain/prep-times.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import { cooksOnShift } from '../kitchen/kitchen-promise.ts';
import { readKitchenSettings } from '../kitchen/kitchen-settings.ts';
import { cookSamples } from '../kitchen/learn-prep-times.ts';
import { testColumn, type World } from '../../../shared/world.ts';

/** A day's log is read from this long before it (a station's cooks were busy with earlier lines)... */
export const LOOK_BEFORE_MS = 2 * 3_600_000;
/** ...and after it (a ticket fired at its end is done within this, or left open). */
export const LOOK_AFTER_MS = LEFT_OPEN_TICKET_MS;
/** Bound on the log rows one day reads (a very busy kitchen logs a few thousand). */
const MAX_DAY_LOG_ROWS = 1_000_000;
/** At most this many days are stored by one report (the rest are summarized on the spot, and stored by the next one). */
const MAX_DAYS_STORED_PER_READ = 92;

/** What a run of days is read for: one location and one world, in the restaurant's zone. */
export interface DaysScope {
  restaurant_id: string;
  location_id: string;
  world: World;
  zone: string;
  from_day: string;
  to_day: string;
}

/** One local day of a scope: its instants, and the span of the log its summary reads. */
export interface LocalDay {
  day: string;
  from: number;
  to: number;
}

/** The scope's local days, in order. */
export function localDays(scope: Pick<DaysScope, 'zone' | 'from_day' | 'to_day'>): LocalDay[] {
  const days: LocalDay[] = [];
  // By date, not by instant: where a day starts at 01:00 (a clock moved forward at midnight), a day
  // plus one is 01:00 the next day, past that day's midnight.
  for (let from = DateTime.fromISO(scope.from_day, { zone: scope.zone }).startOf('day'); from.toISODate()! <= scope.to_day; ) {
    const next = from.plus({ days: 1 }).startOf('day');
    days.push({ day: from.toISODate()!, from: from.toMillis(), to: next.toMillis() });
    from = next;
  }
  return days;
}

/** The cooks a summary is computed with, as stored: each station's, by station id. */
function cooksText(cooks: ReadonlyMap<string, number>): string {
  return JSON.stringify([...cooks].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

async function stationCooks(engine: Engine, tx: ReadTransaction, restaurantId: string): Promise<ReadonlyMap<string, number>> {
  return await cooksOnShift(engine, restaurantId, await readKitchenSettings(engine, restaurantId, tx), undefined, tx);
}

/** Whether a stored day holds what would be computed now: the same zone, cooks and stored form. */
const usable = (row: { time_zone: string; cooks: string; format: number }, scope: DaysScope, cooks: string) =>
  row.time_zone === scope.zone && row.cooks === cooks && row.format === DAY_SUMMARY_FORMAT;

/** A day summarized from the log as it is now (its span: the day, LOOK_BEFORE_MS before, LOOK_AFTER_MS after) and its promises. */
async function summarizeFromLog(engine: Engine, tx: ReadTransaction, scope: DaysScope, day: LocalDay, cooks: ReadonlyMap<string, number>): Promise<DaySummary> {
  const reports = tx.stores.kitchenReports;
  const rows = await reports.log(scope.restaurant_id, scope.location_id, scope.world, day.from - LOOK_BEFORE_MS, day.to + LOOK_AFTER_MS, MAX_DAY_LOG_ROWS);
  const promises = await reports.promises(scope.location_id, scope.world, day.from, day.to, MAX_DAY_LOG_ROWS);
  return summarizeDay(rows, cookSamples(rows, cooks), promises, day);
}

/**
 * Each day of the scope, read from its stored summary where one was computed with the same cooks and
 * zone, else from the log. Runs inside the caller's read transaction.
 */
export async function daySummaries(engine: Engine, tx: ReadTransaction, scope: DaysScope): Promise<DayColumns[]> {
  const cooks = await stationCooks(engine, tx, scope.restaurant_id);
  const current = cooksText(cooks);
  const stored = new Map(
    (await tx.stores.kitchenReportDays
      .get(scope.restaurant_id, scope.location_id, scope.world, scope.from_day, scope.to_day))
      .filter((row) => usable(row, scope, current))
      .map((row) => [row.day, row.summary]),
  );
  // A plain loop: a stored day is decoded without a turn of the event loop (90 of them in a long range).
  const days: DayColumns[] = [];
  for (const day of localDays(scope)) {
    const text = stored.get(day.day);
    days.push((text === undefined ? null : decodeDayColumns(text)) ?? dayColumns(await summarizeFromLog(engine, tx, scope, day, cooks)));
  }
  return days;
}

/**
 * Stores the summary of each closed day of the scope (its span over: nothing logged now can fall in
 * it, but a late bump, which deletes it) not stored yet, or stored with other cooks or another zone:
 * at most `limit`, oldest first, and with `activeOnly` only days the location logged something or made
 * a promise in (an empty day costs a report nothing to read from the log). One write transaction per
 * day. Returns how many it stored. Does nothing while writes are refused (the report then reads
 * those days from the log).
 */
export async function keepClosedDays(engine: Engine, scope: DaysScope, limit = MAX_DAYS_STORED_PER_READ, activeOnly = false): Promise<number> {
  // Called outside any transaction (a report before its read, the jobs): another use case's open
  // transaction is no reason to skip, its reads and writes wait their turn on the lock.
  if (engine.writesRefused) return 0;
  const missing = await engine.read(async (tx) => {
    const current = cooksText(await stationCooks(engine, tx, scope.restaurant_id));
    const kept = new Set(
      (await tx.stores.kitchenReportDays
        .stored(scope.restaurant_id, scope.location_id, scope.world, scope.from_day, scope.to_day))
        .filter((row) => usable(row, scope, current))
        .map((row) => row.day),
    );
    const now = engine.clock.now();
    const closed = localDays(scope).filter((day) => !kept.has(day.day) && day.to + LOOK_AFTER_MS <= now);
    if (!activeOnly) return closed;
    // Every day asked at once (one statement on PostgreSQL, where this ran one per day).
    const active = await tx.stores.kitchenReports.activeIn(scope.restaurant_id, scope.location_id, scope.world, closed);
    return closed.filter((_, index) => active[index]);
  });
  let stored = 0;
  for (const day of missing.slice(0, Math.max(0, limit))) {
    await engine.transaction(async (tx) => {
      const now = tx.clock.now();
      if (day.to + LOOK_AFTER_MS > now) return;
      const cooks = await stationCooks(engine, tx, scope.restaurant_id);
      await tx.stores.kitchenReportDays.put({
        restaurant_id: scope.restaurant_id,
        location_id: scope.location_id,
        test: testColumn(scope.world),
        day: day.day,
        time_zone: scope.zone,
        read_from: day.from - LOOK_BEFORE_MS,
        read_to: day.to + LOOK_AFTER_MS,
        cooks: cooksText(cooks),
        format: DAY_SUMMARY_FORMAT,
        summary: encodeDayColumns(dayColumns(await summarizeFromLog(engine, tx, scope, day, cooks))),
        computed_at: now,
      });
      stored += 1;
    });
  }
  return stored;
}
