// Issue 34: BusyRefusalsStore (store/busy-refusals-store.ts) on PostgreSQL. `add` reads a minute's
// tally, merges and writes it back: under READ COMMITTED two nodes adding to the same minute would
// both read the old tally and one addition would be lost. So it first takes a transaction lock on
// the minute (location, world, minute; a lock of the row would not do: the minute's first tally has
// no row yet), held to the commit: the second node reads the first's tally. Call it inside a
// transaction.
import { mergeRefusals, type RefusalMinute, type RefusedOrder } from '../../domain/busy-refusals.ts';
import type { AsyncStore } from '../../store/async-store.ts';
import type { BusyRefusalsStore } from '../../store/busy-refusals-store.ts';
import { firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';
import { testColumn, type World } from '../../../shared/world.ts';

interface RefusalRow {
  restaurant_id: string;
  location_id: string;
  test: number;
  minute: number;
  refused: number;
  listed: string;
}

const SQL = {
  lockMinute: `SELECT pg_advisory_xact_lock(hashtextextended('busy_refusals:' || $1 || ':' || $2 || ':' || $3, 0))`,
  one: 'SELECT * FROM busy_refusals WHERE location_id = $1 AND test = $2 AND minute = $3',
  upsert: `INSERT INTO busy_refusals (restaurant_id, location_id, test, minute, refused, listed) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (location_id, test, minute) DO UPDATE SET refused = excluded.refused, listed = excluded.listed`,
  range: 'SELECT * FROM busy_refusals WHERE restaurant_id = $1 AND location_id = $2 AND test = $3 AND minute >= $4 AND minute < $5 ORDER BY minute LIMIT $6',
};

export class PostgresBusyRefusalsStore implements AsyncStore<BusyRefusalsStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async add(entry: RefusalMinute): Promise<void> {
    await this.db.query(SQL.lockMinute, [entry.location_id, entry.test, entry.minute]);
    const row = await firstRow<RefusalRow>(this.db, SQL.one, [entry.location_id, entry.test, entry.minute]);
    const merged = row ? mergeRefusals(toMinute(row), entry) : entry;
    await this.db.query(SQL.upsert, [merged.restaurant_id, merged.location_id, merged.test, merged.minute, merged.refused, JSON.stringify(merged.listed)]);
  }

  async between(restaurantId: string, locationId: string, world: World, from: number, to: number, limit: number): Promise<RefusalMinute[]> {
    return (await rowsOf<RefusalRow>(this.db, SQL.range, [restaurantId, locationId, testColumn(world), from, to, limit])).map(toMinute);
  }
}

function toMinute(row: RefusalRow): RefusalMinute {
  return { ...row, listed: JSON.parse(row.listed) as RefusedOrder[] };
}
