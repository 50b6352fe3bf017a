import { flatMapInOrder } from '../../../shared/in-order.ts';
// Informes (issue 33): the jobs runner stores each closed day's report inputs (kitchen-report-days.ts)
// once the day is over, so that the first report over a long range reads stored days instead of
// computing each from the log while the manager waits (bench row 12: 89 days in 6–97 s on the
// shared machine). A few days per tick: a backlog (after an upgrade, or after the cooks on shift
// changed) never holds the writer long, and drains over the next ticks.
import { DateTime } from 'luxon';
import { MAX_REPORT_DAYS } from '../../../shared/schemas/kitchen-report.ts';
import type { Engine } from '../../engine.ts';
import { listRestaurants, restaurantTimeZone } from '../keys/restaurant-context.ts';
import { keepClosedDays } from './kitchen-report-days.ts';
import { WORLDS } from '../../../shared/world.ts';

/**
 * Stores up to `budget` closed days not stored yet (or stored with other cooks or another zone),
 * among the last MAX_REPORT_DAYS days of every location, oldest first, days without activity in
 * that world skipped: the live orders' days, then the sandbox's test orders' days. A manager who
 * tries Informes in the sandbox (training, an integration's test orders) gets a long range as fast
 * as a live one, and a day of only test orders is never stored as an empty live day, nor the reverse.
 * Returns how many it stored, and whether the budget ran out (more may be waiting).
 */
export async function keepRecentReportDays(engine: Engine, budget: number): Promise<{ stored: number; more: boolean }> {
  const scopes = await engine.read(async (tx) =>
    (await flatMapInOrder((await listRestaurants(engine, tx)), async ({ id }) => {
      const zone = await restaurantTimeZone(engine, id, tx);
      const today = DateTime.fromMillis(engine.clock.now(), { zone }).startOf('day');
      const fromDay = today.minus({ days: MAX_REPORT_DAYS }).toISODate()!;
      const toDay = today.minus({ days: 1 }).toISODate()!;
      const locations = await tx.stores.locations.list(id);
      return WORLDS.flatMap((world) => locations.map((location) => ({ restaurant_id: id, location_id: location.id, world, zone, from_day: fromDay, to_day: toDay })));
    })),
  );
  let stored = 0;
  for (const scope of scopes) {
    stored += await keepClosedDays(engine, scope, budget - stored, true);
    if (stored >= budget) return { stored, more: true };
  }
  return { stored, more: false };
}
