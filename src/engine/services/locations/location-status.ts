import { DateTime } from 'luxon';
import {
  evaluateLocationStatus,
  localDate,
  type LocationOpenState,
  type ScheduleException,
  type WeeklySchedule,
} from '../../domain/location-schedule.ts';
import { formatNullableInstant } from '../../domain/time.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import type { LocationExceptionRow, LocationRow } from '../../store/locations-store.ts';
import type { RestaurantRow } from '../../store/restaurants-store.ts';

/** What a replica keeps of a location's status: the upstream's word, as of when it said it. */
export interface KnownLocationStatus {
  open_now: boolean;
  reason: LocationOpenState['reason'];
  next_opening_at: number | null;
}

export interface LocationStatusView {
  location_id: string;
  name: string;
  address: string;
  is_active: boolean;
  open_now: boolean;
  reason: LocationOpenState['reason'];
  next_opening_at: string | null;
}

/** How far around "now" exceptions matter: a range started yesterday, next opening up to 14 days ahead. */
const EXCEPTION_WINDOW_DAYS_BEFORE = 1;
const EXCEPTION_WINDOW_DAYS_AFTER = 15;

/** The local dates that bound the exceptions window, by zone, for the last minute asked. */
const exceptionWindows = new Map<string, { minute: number; from: string; to: string }>();

/**
 * The first and last local dates whose exceptions can matter at `now`. Luxon's calendar arithmetic
 * is slow and, zone offsets being whole minutes, its answer is the same all through one minute:
 * it is worked out once per minute and zone.
 */
function exceptionWindow(now: number, zone: string): { from: string; to: string } {
  const minute = Math.floor(now / 60_000);
  const known = exceptionWindows.get(zone);
  if (known?.minute === minute) return known;
  const today = DateTime.fromMillis(now, { zone });
  const window = {
    minute,
    from: localDate(today.minus({ days: EXCEPTION_WINDOW_DAYS_BEFORE }).toMillis(), zone),
    to: localDate(today.plus({ days: EXCEPTION_WINDOW_DAYS_AFTER }).toMillis(), zone),
  };
  exceptionWindows.set(zone, window);
  return window;
}

/** The exceptions that can matter at `now`: from yesterday (a range past midnight) to the next-opening horizon. */
export async function exceptionsAround(engine: Engine, tx: ReadTransaction, restaurant: RestaurantRow, location: LocationRow, now: number): Promise<ScheduleException[]> {
  const { from, to } = exceptionWindow(now, restaurant.time_zone);
  return (await tx.stores.locations.exceptions(location.id, from, to)).map(toScheduleException);
}

export function toScheduleException(row: LocationExceptionRow): ScheduleException {
  return { date: row.local_date, closed: row.closed === 1, hours: JSON.parse(row.hours) as [string, string][] };
}

export async function locationOpenState(
  engine: Engine, tx: ReadTransaction,
  restaurant: RestaurantRow,
  location: LocationRow,
  now: number,
  overrides: { registerOpen?: boolean; exceptions?: ScheduleException[] } = {},
): Promise<LocationOpenState> {
  if (location.known_status !== null && overrides.exceptions === undefined && overrides.registerOpen === undefined) {
    // A replica has no schedule of its own: the upstream's last report stands, offline too.
    const known = JSON.parse(location.known_status) as KnownLocationStatus;
    return { openNow: known.open_now, reason: known.reason, nextOpeningAt: known.next_opening_at };
  }
  const zone = restaurant.time_zone;
  // Only a schedule-mode location that is active reads its exceptions (evaluateLocationStatus).
  const schedule = restaurant.register_mode === 'schedule' && location.is_active === 1;
  const exceptions = overrides.exceptions ?? (schedule ? await exceptionsAround(engine, tx, restaurant, location, now) : []);
  return evaluateLocationStatus(
    {
      registerMode: restaurant.register_mode,
      isActive: location.is_active === 1,
      registerOpen: overrides.registerOpen ?? location.register_open === 1,
      weeklySchedule: JSON.parse(location.weekly_schedule) as WeeklySchedule,
      exceptions,
      timeZone: zone,
    },
    now,
  );
}

export function toLocationStatusView(location: LocationRow, state: LocationOpenState, zone: string): LocationStatusView {
  return {
    location_id: location.id,
    name: location.name,
    address: location.address,
    is_active: location.is_active === 1,
    open_now: state.openNow,
    reason: state.reason,
    next_opening_at: state.openNow ? null : formatNullableInstant(state.nextOpeningAt, zone),
  };
}
