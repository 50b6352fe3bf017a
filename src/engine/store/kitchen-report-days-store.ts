import type { Database, Statement } from 'better-sqlite3';
import { testColumn, type World } from '../../shared/world.ts';

/** A closed day's report inputs as stored (issue 33; domain/kitchen-report/day-summary.ts reads `summary`). */
export interface ReportDayRow {
  restaurant_id: string;
  location_id: string;
  test: number;
  day: string;
  time_zone: string;
  read_from: number;
  read_to: number;
  cooks: string;
  format: number;
  summary: string;
  computed_at: number;
}

/**
 * The reports' per-day summaries (issue 33, long ranges): one row per location, world and local
 * day. A late log row inside a row's span deletes it (the migration's trigger).
 */
export class KitchenReportDaysStore {
  private readonly range: Statement<[string, string, number, string, string], ReportDayRow>;
  private readonly days: Statement<[string, string, number, string, string], { day: string; time_zone: string; cooks: string; format: number }>;
  private readonly upsert: Statement<ReportDayRow>;

  constructor(db: Database) {
    this.range = db.prepare('SELECT * FROM kitchen_report_days WHERE restaurant_id = ? AND location_id = ? AND test = ? AND day >= ? AND day <= ? ORDER BY day');
    this.days = db.prepare('SELECT day, time_zone, cooks, format FROM kitchen_report_days WHERE restaurant_id = ? AND location_id = ? AND test = ? AND day >= ? AND day <= ?');
    this.upsert = db.prepare(
      `INSERT INTO kitchen_report_days (restaurant_id, location_id, test, day, time_zone, read_from, read_to, cooks, format, summary, computed_at)
       VALUES (@restaurant_id, @location_id, @test, @day, @time_zone, @read_from, @read_to, @cooks, @format, @summary, @computed_at)
       ON CONFLICT (restaurant_id, location_id, test, day) DO UPDATE SET time_zone = excluded.time_zone, read_from = excluded.read_from,
         read_to = excluded.read_to, cooks = excluded.cooks, format = excluded.format, summary = excluded.summary, computed_at = excluded.computed_at`,
    );
  }

  /** The location's stored days from `fromDay` to `toDay` (local dates, inclusive), by day. */
  get(restaurantId: string, locationId: string, world: World, fromDay: string, toDay: string): ReportDayRow[] {
    return this.range.all(restaurantId, locationId, testColumn(world), fromDay, toDay);
  }

  /** Which of those days are stored, and with what zone, cooks and format (without their summaries). */
  stored(restaurantId: string, locationId: string, world: World, fromDay: string, toDay: string): { day: string; time_zone: string; cooks: string; format: number }[] {
    return this.days.all(restaurantId, locationId, testColumn(world), fromDay, toDay);
  }

  put(row: ReportDayRow): void {
    this.upsert.run(row);
  }
}
