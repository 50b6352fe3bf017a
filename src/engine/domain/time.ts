import { DateTime, IANAZone } from 'luxon';

import { DEFAULT_TIME_ZONE } from '../../shared/locale.ts';
import { DATE_TIME_IN_PATTERN } from '../../shared/schemas/common.ts';

export { DEFAULT_TIME_ZONE };

const HOUR_MS = 3_600_000;
/** Hours whose offset is remembered per zone before the memory is cleared. */
const MAX_REMEMBERED_HOURS = 50_000;

interface ZoneOffsets {
  zone: IANAZone;
  /** Offset in minutes of each hour (by its start) with one offset throughout; null for an hour with a transition. */
  hours: Map<number, number | null>;
}

/** IANA zones by name; null for any other zone (UTC, fixed offsets, invalid), which luxon formats itself. */
const zoneOffsets = new Map<string, ZoneOffsets | null>();

function offsetsOf(name: string): ZoneOffsets | null {
  let offsets = zoneOffsets.get(name);
  if (offsets === undefined) {
    const zone = DateTime.fromMillis(0, { zone: name }).zone;
    offsets = zone instanceof IANAZone && zone.isValid ? { zone, hours: new Map() } : null;
    zoneOffsets.set(name, offsets);
  }
  return offsets;
}

/**
 * The zone's offset at `ms` in whole minutes, as luxon computes it, or null where luxon must
 * format the instant itself. Asking Intl for the offset is slow, so it is asked once per hour
 * of time: an hour that starts and ends on the same offset has that offset throughout (zones
 * change offset at most once an hour); an hour with a transition is asked instant by instant.
 */
function offsetMinutes(offsets: ZoneOffsets, ms: number): number | null {
  const hour = Math.floor(ms / HOUR_MS) * HOUR_MS;
  let offset = offsets.hours.get(hour);
  if (offset === undefined) {
    const first = offsets.zone.offset(hour);
    offset = first === offsets.zone.offset(hour + HOUR_MS - 1) && Number.isInteger(first) ? first : null;
    if (offsets.hours.size >= MAX_REMEMBERED_HOURS) offsets.hours.clear();
    offsets.hours.set(hour, offset);
  }
  return offset;
}

const two = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** ISO 8601 with seconds and the zone's offset at that instant, e.g. 2026-11-21T20:52:19-03:00. */
export function formatInstant(ms: number, zone: string = DEFAULT_TIME_ZONE): string {
  const at = Math.floor(ms / 1000) * 1000;
  const offsets = offsetsOf(zone);
  const offset = offsets === null ? null : offsetMinutes(offsets, at);
  if (offset !== null) {
    // What luxon's toISO writes, without its per-call Intl work (see test/engine/domain/time.test.ts).
    const local = new Date(at + offset * 60_000);
    const year = local.getUTCFullYear();
    if (year >= 1000 && year <= 9999) {
      const abs = Math.abs(offset);
      return `${year}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}T${two(local.getUTCHours())}:${two(
        local.getUTCMinutes(),
      )}:${two(local.getUTCSeconds())}${offset < 0 ? '-' : '+'}${two(Math.trunc(abs / 60))}:${two(abs % 60)}`;
    }
  }
  return DateTime.fromMillis(at, { zone }).toISO({ suppressMilliseconds: true })!;
}

export function formatNullableInstant(ms: number | null | undefined, zone: string = DEFAULT_TIME_ZONE): string | null {
  return ms === null || ms === undefined ? null : formatInstant(ms, zone);
}

/** The API's one rule for a date-time it reads, the pattern its OpenAPI document gives. */
const DATE_TIME_IN = new RegExp(DATE_TIME_IN_PATTERN);

/**
 * Reads a date-time the API receives: any offset or `Z`; without one it is local time in `zone`.
 * Returns epoch milliseconds, or null when the text is not a date-time.
 */
export function parseInstant(text: string, zone: string = DEFAULT_TIME_ZONE): number | null {
  if (!DATE_TIME_IN.test(text)) return null;
  const parsed = DateTime.fromISO(text.replace(' ', 'T'), { zone, setZone: true });
  return parsed.isValid ? parsed.toMillis() : null;
}
