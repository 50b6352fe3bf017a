import { DateTime } from 'luxon';

export const DEFAULT_TIME_ZONE = 'America/Santiago';

/** ISO 8601 with seconds and the zone's offset at that instant, e.g. 2026-11-21T20:52:19-03:00. */
export function formatInstant(ms: number, zone: string = DEFAULT_TIME_ZONE): string {
  return DateTime.fromMillis(Math.floor(ms / 1000) * 1000, { zone }).toISO({ suppressMilliseconds: true })!;
}

export function formatNullableInstant(ms: number | null | undefined, zone: string = DEFAULT_TIME_ZONE): string | null {
  return ms === null || ms === undefined ? null : formatInstant(ms, zone);
}

const DATE_TIME_SHAPE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/**
 * Reads a date-time the API receives: any offset or `Z`; without one it is local time in `zone`.
 * Returns epoch milliseconds, or null when the text is not a date-time.
 */
export function parseInstant(text: string, zone: string = DEFAULT_TIME_ZONE): number | null {
  if (!DATE_TIME_SHAPE.test(text)) return null;
  const parsed = DateTime.fromISO(text.replace(' ', 'T'), { zone, setZone: true });
  return parsed.isValid ? parsed.toMillis() : null;
}
