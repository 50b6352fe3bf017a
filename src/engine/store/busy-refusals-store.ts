import type { Database, Statement } from 'better-sqlite3';
import { mergeRefusals, type RefusalMinute, type RefusedOrder } from '../domain/busy-refusals.ts';
import { testColumn, type World } from '../../shared/world.ts';

interface RefusalRow {
  restaurant_id: string;
  location_id: string;
  test: number;
  minute: number;
  refused: number;
  listed: string;
}

/** Busy mode's refused orders (issue 33, domain/busy-refusals.ts): one row per location, world and minute. */
export class BusyRefusalsStore {
  private readonly one: Statement<[string, number, number], RefusalRow>;
  private readonly upsert: Statement<RefusalRow>;
  private readonly range: Statement<[string, string, number, number, number, number], RefusalRow>;

  constructor(db: Database) {
    this.one = db.prepare('SELECT * FROM busy_refusals WHERE location_id = ? AND test = ? AND minute = ?');
    this.upsert = db.prepare(
      `INSERT INTO busy_refusals (restaurant_id, location_id, test, minute, refused, listed) VALUES (@restaurant_id, @location_id, @test, @minute, @refused, @listed)
       ON CONFLICT (location_id, test, minute) DO UPDATE SET refused = excluded.refused, listed = excluded.listed`,
    );
    this.range = db.prepare('SELECT * FROM busy_refusals WHERE restaurant_id = ? AND location_id = ? AND test = ? AND minute >= ? AND minute < ? ORDER BY minute LIMIT ?');
  }

  /** Adds a minute's tally to what is written of that minute (a minute may be flushed in parts). */
  add(entry: RefusalMinute): void {
    const row = this.one.get(entry.location_id, entry.test, entry.minute);
    const merged = row ? mergeRefusals(toMinute(row), entry) : entry;
    this.upsert.run({ ...merged, listed: JSON.stringify(merged.listed) });
  }

  /** The location's minutes with refusals in [from, to), by minute. */
  between(restaurantId: string, locationId: string, world: World, from: number, to: number, limit: number): RefusalMinute[] {
    return this.range.all(restaurantId, locationId, testColumn(world), from, to, limit).map(toMinute);
  }
}

function toMinute(row: RefusalRow): RefusalMinute {
  return { ...row, listed: JSON.parse(row.listed) as RefusedOrder[] };
}
