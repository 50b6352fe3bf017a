import { DateTime } from 'luxon';

/** "HH:MM", 00:00 to 23:59: the local time at which a kitchen's day ends (restaurant setting). */
export const DAY_END_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

/**
 * When a sold-out mark made at `now` ends by itself: the next `resetsAt` local time in the
 * restaurant's zone (the day's end; "04:00" lets a service past midnight keep its marks), or null
 * when the restaurant keeps marks until they are switched back.
 */
export function soldOutUntil(now: number, zone: string, resetsAt: string | null): number | null {
  if (resetsAt === null || !new RegExp(DAY_END_PATTERN).test(resetsAt)) return null;
  const [hour, minute] = resetsAt.split(':').map(Number) as [number, number];
  const local = DateTime.fromMillis(now, { zone });
  let end = local.set({ hour, minute, second: 0, millisecond: 0 });
  if (end.toMillis() <= now) end = end.plus({ days: 1 }).set({ hour, minute });
  return end.toMillis();
}
