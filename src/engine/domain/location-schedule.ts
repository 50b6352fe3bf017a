/**
 * Open/closed status of a location (sucursal), pure: no I/O, the current time is passed in as epoch ms.
 *
 * Two register modes (spec "GET /locations"):
 * - `manual`: the location is open while the day's cash register is open.
 * - `schedule`: a weekly schedule of local-time ranges, with per-date exceptions.
 *
 * Schedule rules:
 * - A range ["HH:mm", "HH:mm"] is [opens, closes) in local wall time of the location's zone.
 *   `closes` may be "24:00" (the next day's local midnight). `closes <= opens` means the range runs
 *   past midnight into the next day; it belongs to the day it starts on, so that day's exception
 *   governs it, also after midnight. (`opens == closes` is therefore a 24-hour range.)
 * - An exception for a date replaces that date's weekly ranges entirely: closed → no ranges,
 *   otherwise its `hours`. Several exceptions for one date: any closed one wins, otherwise the union
 *   of their hours.
 * - Local times are resolved per local calendar day with Luxon, never by adding 24h to an instant.
 *   A local time that does not exist (skipped by a DST jump) is the first instant after the gap; a
 *   local time that occurs twice (DST fall-back) is its first occurrence.
 * - Ranges that are not valid "HH:mm" pairs are ignored when evaluating (validate config with
 *   {@link isValidTimeRange}).
 */
import { DateTime } from 'luxon';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = typeof WEEKDAYS[number];
/** Local wall time "HH:mm"; `closes` may be "24:00". */
export type TimeRange = [opens: string, closes: string];
export type WeeklySchedule = Partial<Record<Weekday, TimeRange[]>>;
export interface ScheduleException {
  /** YYYY-MM-DD, local date in the location's zone. */
  date: string;
  closed: boolean;
  hours: TimeRange[];
}
export type RegisterMode = 'manual' | 'schedule';
export type LocationReason =
  | 'caja_abierta'
  | 'caja_cerrada'
  | 'dentro_del_horario'
  | 'fuera_del_horario'
  | 'sucursal_desactivada';

export interface LocationScheduleInput {
  registerMode: RegisterMode;
  isActive: boolean;
  /** manual mode: the day's cash register is open. */
  registerOpen: boolean;
  weeklySchedule: WeeklySchedule;
  exceptions: ScheduleException[];
  /** IANA zone, normally 'America/Santiago'. */
  timeZone: string;
}

export interface LocationOpenState {
  openNow: boolean;
  reason: LocationReason;
  /** epoch ms; only in schedule mode while closed, null otherwise or when none within 14 days. */
  nextOpeningAt: number | null;
}

/** How many local days after the current one `nextOpening` looks at. */
const NEXT_OPENING_HORIZON_DAYS = 14;

const MINUTES_PER_DAY = 24 * 60;
const TIME_SHAPE = /^(\d{2}):(\d{2})$/;
const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Minutes after local midnight of "HH:mm" (00:00–23:59, or 1440 for "24:00"); null when malformed. */
function parseClock(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const match = TIME_SHAPE.exec(text);
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  if (hour === 24 && minute === 0) return MINUTES_PER_DAY;
  if (hour > 23 || minute > 59) return null;
  return hour * 60 + minute;
}

/** True for ["HH:mm","HH:mm"] with opens in 00:00–23:59 and closes in 00:00–23:59 or "24:00". */
export function isValidTimeRange(range: TimeRange): boolean {
  if (!Array.isArray(range) || range.length !== 2) return false;
  const opens = parseClock(range[0]);
  const closes = parseClock(range[1]);
  return opens !== null && opens < MINUTES_PER_DAY && closes !== null;
}

function parseDate(text: string): CalendarDate | null {
  const match = DATE_SHAPE.exec(text);
  if (!match) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  return DateTime.fromObject(date, { zone: 'utc' }).isValid ? date : null;
}

/** True for a real calendar date written YYYY-MM-DD (for validating exception dates). */
export function isValidLocalDate(text: string): boolean {
  return typeof text === 'string' && parseDate(text) !== null;
}

/** Calendar arithmetic on a date (zone-free, so DST cannot interfere). */
function addDays(date: CalendarDate, days: number): CalendarDate {
  const moved = DateTime.fromObject(date, { zone: 'utc' }).plus({ days });
  return { year: moved.year, month: moved.month, day: moved.day };
}

function dateKey(date: CalendarDate): string {
  return DateTime.fromObject(date, { zone: 'utc' }).toISODate()!;
}

function weekdayOf(date: CalendarDate): Weekday {
  return WEEKDAYS[DateTime.fromObject(date, { zone: 'utc' }).weekday - 1]!;
}

function zonedNow(at: number, timeZone: string): DateTime {
  const dt = DateTime.fromMillis(at, { zone: timeZone });
  if (!dt.isValid) throw new RangeError(`invalid time zone or instant: ${timeZone} ${at}`);
  return dt;
}

function localCalendarDate(at: number, timeZone: string): CalendarDate {
  const dt = zonedNow(at, timeZone);
  return { year: dt.year, month: dt.month, day: dt.day };
}

/** YYYY-MM-DD of the instant `at` in `timeZone`. */
export function localDate(at: number, timeZone: string): string {
  return zonedNow(at, timeZone).toISODate()!;
}

/** Local wall time as a sortable string, to compare wall times without offset arithmetic. */
function wallKey(dt: DateTime): string {
  return dt.toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS");
}

/**
 * The instant of local wall time `minutes` after midnight of `date` in `timeZone`.
 * 1440 ("24:00") is the next day's 00:00. A wall time occurring twice resolves to the first
 * occurrence (Luxon's choice). A wall time skipped by a DST jump resolves to the first instant after
 * the gap: Luxon shifts it forward by the gap's length (00:30 in a 00:00→01:00 jump gives 01:30), so
 * the gap's end is searched for explicitly.
 */
function localInstant(date: CalendarDate, minutes: number, timeZone: string): number {
  if (minutes >= MINUTES_PER_DAY) return localInstant(addDays(date, 1), minutes - MINUTES_PER_DAY, timeZone);
  const wanted = { ...date, hour: Math.floor(minutes / 60), minute: minutes % 60 };
  const dt = DateTime.fromObject(wanted, { zone: timeZone });
  if (!dt.isValid) throw new RangeError(`invalid time zone: ${timeZone}`);
  if (
    dt.year === wanted.year &&
    dt.month === wanted.month &&
    dt.day === wanted.day &&
    dt.hour === wanted.hour &&
    dt.minute === wanted.minute
  ) {
    return dt.toMillis();
  }
  // Non-existent wall time: find the smallest instant whose local wall time is at or past it.
  // Luxon's result lies after the gap; two days earlier lies before it.
  const target = wallKey(DateTime.fromObject(wanted, { zone: 'utc' }));
  let low = dt.toMillis() - 48 * 60 * 60 * 1000; // local wall time before target
  let high = dt.toMillis(); // local wall time after target
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (wallKey(DateTime.fromMillis(mid, { zone: timeZone })) >= target) high = mid;
    else low = mid;
  }
  return high;
}

type Interval = [start: number, end: number];

function indexExceptions(exceptions: ScheduleException[]): Map<string, ScheduleException[]> {
  const byDate = new Map<string, ScheduleException[]>();
  for (const exception of exceptions) {
    const list = byDate.get(exception.date);
    if (list) list.push(exception);
    else byDate.set(exception.date, [exception]);
  }
  return byDate;
}

/** The ranges that start on local `date`, honouring that date's exceptions. */
function rangesStartingOn(
  date: CalendarDate,
  weekly: WeeklySchedule,
  exceptionsByDate: Map<string, ScheduleException[]>,
): TimeRange[] {
  const dayExceptions = exceptionsByDate.get(dateKey(date));
  if (dayExceptions && dayExceptions.length > 0) {
    if (dayExceptions.some((exception) => exception.closed)) return [];
    return dayExceptions.flatMap((exception) => exception.hours ?? []);
  }
  return weekly[weekdayOf(date)] ?? [];
}

/** Instants [start, end) of the ranges that start on local `date`. */
function intervalsStartingOn(
  date: CalendarDate,
  weekly: WeeklySchedule,
  exceptionsByDate: Map<string, ScheduleException[]>,
  timeZone: string,
): Interval[] {
  const intervals: Interval[] = [];
  for (const range of rangesStartingOn(date, weekly, exceptionsByDate)) {
    if (!isValidTimeRange(range)) continue;
    const opens = parseClock(range[0])!;
    const closes = parseClock(range[1])!;
    const start = localInstant(date, opens, timeZone);
    const end = closes <= opens ? localInstant(addDays(date, 1), closes, timeZone) : localInstant(date, closes, timeZone);
    // A range lying entirely inside a DST gap never happens.
    if (end > start) intervals.push([start, end]);
  }
  return intervals;
}

/** True when `at` falls inside [opens, closes) of a range, per the weekly schedule and exceptions. */
export function isWithinSchedule(
  weekly: WeeklySchedule,
  exceptions: ScheduleException[],
  timeZone: string,
  at: number,
): boolean {
  const today = localCalendarDate(at, timeZone);
  const exceptionsByDate = indexExceptions(exceptions);
  // A range lasts at most until the local midnight after the day following its start day,
  // so only ranges starting yesterday or today can contain `at`.
  for (const offset of [-1, 0]) {
    for (const [start, end] of intervalsStartingOn(addDays(today, offset), weekly, exceptionsByDate, timeZone)) {
      if (start <= at && at < end) return true;
    }
  }
  return false;
}

/**
 * The smallest range start strictly after `after`, looking at ranges that start on the local day
 * before `after`'s through 14 local days after it; null when there is none.
 */
export function nextOpening(
  weekly: WeeklySchedule,
  exceptions: ScheduleException[],
  timeZone: string,
  after: number,
): number | null {
  const today = localCalendarDate(after, timeZone);
  const exceptionsByDate = indexExceptions(exceptions);
  let best: number | null = null;
  for (let offset = -1; offset <= NEXT_OPENING_HORIZON_DAYS; offset++) {
    for (const [start] of intervalsStartingOn(addDays(today, offset), weekly, exceptionsByDate, timeZone)) {
      if (start > after && (best === null || start < best)) best = start;
    }
  }
  return best;
}

/** Live open/closed status of a location at `now` (epoch ms). */
export function evaluateLocationStatus(input: LocationScheduleInput, now: number): LocationOpenState {
  if (!input.isActive) return { openNow: false, reason: 'sucursal_desactivada', nextOpeningAt: null };
  if (input.registerMode === 'manual') {
    return input.registerOpen
      ? { openNow: true, reason: 'caja_abierta', nextOpeningAt: null }
      : { openNow: false, reason: 'caja_cerrada', nextOpeningAt: null };
  }
  if (isWithinSchedule(input.weeklySchedule, input.exceptions, input.timeZone, now)) {
    return { openNow: true, reason: 'dentro_del_horario', nextOpeningAt: null };
  }
  return {
    openNow: false,
    reason: 'fuera_del_horario',
    nextOpeningAt: nextOpening(input.weeklySchedule, input.exceptions, input.timeZone, now),
  };
}
