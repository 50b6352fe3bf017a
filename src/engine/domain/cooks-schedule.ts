// Cooks on shift by the hour (issue 32): each station has a default count in the restaurant file and
// may have a schedule of hours (local to the restaurant) with another count, e.g. 3 at the grill from
// 12 to 15. The hub's "+ / −" sets a count during service; it holds until the station's schedule
// next changes its count (a manager who adds a cook at 14:10 is not undone at 14:11, but the 15:00
// change of shift is still the schedule's). A station with no schedule keeps the hub's count. Pure.
import { DateTime } from 'luxon';

/** Hours [from, to) of the restaurant's day in which a station has `cooks` cooks. */
export interface CooksShift {
  from_hour: number;
  to_hour: number;
  cooks: number;
}

/** The hub's count for a station, and when it was set. */
export interface CooksOverride {
  station_id: string;
  cooks: number;
  set_at: number;
}

/** The scheduled count at a local hour (0–23): the shift covering it, else the default. */
export function scheduledCooks(defaultCooks: number, shifts: readonly CooksShift[] | undefined, hour: number): number {
  for (const shift of shifts ?? []) if (hour >= shift.from_hour && hour < shift.to_hour) return shift.cooks;
  return defaultCooks;
}

/**
 * When the station's scheduled count last changed at or before `now` (the start of that local hour),
 * looking back a day at most; null when the schedule gives the same count all day.
 */
export function lastScheduleChange(defaultCooks: number, shifts: readonly CooksShift[], now: number, timeZone: string): number | null {
  let hourStart = DateTime.fromMillis(now, { zone: timeZone }).startOf('hour');
  for (let step = 0; step < 24; step++) {
    const before = hourStart.minus({ hours: 1 });
    if (scheduledCooks(defaultCooks, shifts, hourStart.hour) !== scheduledCooks(defaultCooks, shifts, before.hour)) return hourStart.toMillis();
    hourStart = before;
  }
  return null;
}

/**
 * The cooks on shift per station at `now`: the hub's count where it was set since the station's
 * schedule last changed, else the schedule's count for the local hour, else the default (absent: 1
 * is the caller's).
 */
export function cooksAt(
  defaults: Readonly<Record<string, number>>,
  schedules: Readonly<Record<string, readonly CooksShift[]>>,
  overrides: readonly CooksOverride[],
  now: number,
  timeZone: string,
): Map<string, number> {
  const hour = Object.keys(schedules).length > 0 ? DateTime.fromMillis(now, { zone: timeZone }).hour : 0;
  const cooks = new Map<string, number>();
  for (const [station, count] of Object.entries(defaults)) cooks.set(station, scheduledCooks(count, schedules[station], hour));
  for (const [station, shifts] of Object.entries(schedules)) if (!cooks.has(station)) cooks.set(station, scheduledCooks(1, shifts, hour));
  for (const override of overrides) {
    const shifts = schedules[override.station_id];
    const changed = shifts ? lastScheduleChange(defaults[override.station_id] ?? 1, shifts, now, timeZone) : null;
    if (changed === null || override.set_at >= changed) cooks.set(override.station_id, override.cooks);
  }
  return cooks;
}
