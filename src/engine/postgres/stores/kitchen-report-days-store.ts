// Issue 34: KitchenReportDaysStore (store/kitchen-report-days-store.ts) on PostgreSQL. A stored day
// is deleted by a late log row or promise inside its span, by triggers as on SQLite (migration
// 0008). Days are `YYYY-MM-DD` text compared byte by byte (COLLATE "C"), as SQLite does, whatever
// the database's collation.
import type { AsyncStore } from '../../store/async-store.ts';
import type { KitchenReportDaysStore, ReportDayRow } from '../../store/kitchen-report-days-store.ts';
import { rowsOf, type PostgresQueryable } from './queryable.ts';
import { testColumn, type World } from '../../../shared/world.ts';

const COLUMNS = [
  'restaurant_id', 'location_id', 'test', 'day', 'time_zone', 'read_from', 'read_to', 'cooks', 'format', 'summary', 'computed_at',
] as const satisfies readonly (keyof ReportDayRow)[];

const IN_RANGE = 'restaurant_id = $1 AND location_id = $2 AND test = $3 AND day COLLATE "C" >= $4 AND day COLLATE "C" <= $5';

const SQL = {
  range: `SELECT * FROM kitchen_report_days WHERE ${IN_RANGE} ORDER BY day COLLATE "C"`,
  days: `SELECT day, time_zone, cooks, format FROM kitchen_report_days WHERE ${IN_RANGE}`,
  upsert: `INSERT INTO kitchen_report_days (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
    ON CONFLICT (restaurant_id, location_id, test, day) DO UPDATE SET time_zone = excluded.time_zone, read_from = excluded.read_from,
      read_to = excluded.read_to, cooks = excluded.cooks, format = excluded.format, summary = excluded.summary, computed_at = excluded.computed_at`,
};

export class PostgresKitchenReportDaysStore implements AsyncStore<KitchenReportDaysStore> {
  constructor(private readonly db: PostgresQueryable) {}

  get(restaurantId: string, locationId: string, world: World, fromDay: string, toDay: string): Promise<ReportDayRow[]> {
    return rowsOf<ReportDayRow>(this.db, SQL.range, [restaurantId, locationId, testColumn(world), fromDay, toDay]);
  }

  stored(restaurantId: string, locationId: string, world: World, fromDay: string, toDay: string): Promise<{ day: string; time_zone: string; cooks: string; format: number }[]> {
    return rowsOf<{ day: string; time_zone: string; cooks: string; format: number }>(this.db, SQL.days, [restaurantId, locationId, testColumn(world), fromDay, toDay]);
  }

  async put(row: ReportDayRow): Promise<void> {
    await this.db.query(SQL.upsert, COLUMNS.map((c) => row[c]));
  }
}
