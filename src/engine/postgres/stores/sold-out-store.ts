// Issue 34: SoldOutStore (store/sold-out-store.ts) on PostgreSQL.
import type { AsyncStore } from '../../store/async-store.ts';
import type { SoldOutKind, SoldOutRow, SoldOutStore } from '../../store/sold-out-store.ts';
import { rowsOf, type PostgresQueryable } from './queryable.ts';

const SQL = {
  // COLLATE "C": ordered byte by byte, as SQLite's BINARY, whatever the database's own collation.
  ofLocation: `SELECT * FROM sold_out WHERE location_id = $1 AND (until IS NULL OR until > $2)
    ORDER BY item_kind COLLATE "C", item_id COLLATE "C"`,
  ofRestaurant: `SELECT s.* FROM sold_out s JOIN locations l ON l.id = s.location_id
    WHERE l.restaurant_id = $1 AND (s.until IS NULL OR s.until > $2)`,
  mark: `INSERT INTO sold_out (location_id, item_kind, item_id, since, until) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (location_id, item_kind, item_id) DO UPDATE SET since = excluded.since, until = excluded.until`,
  unmark: 'DELETE FROM sold_out WHERE location_id = $1 AND item_kind = $2 AND item_id = $3',
  purge: 'DELETE FROM sold_out WHERE location_id = $1 AND until IS NOT NULL AND until <= $2',
};

export class PostgresSoldOutStore implements AsyncStore<SoldOutStore> {
  constructor(private readonly db: PostgresQueryable) {}

  atLocation(locationId: string, now: number): Promise<SoldOutRow[]> {
    return rowsOf<SoldOutRow>(this.db, SQL.ofLocation, [locationId, now]);
  }

  inRestaurant(restaurantId: string, now: number): Promise<SoldOutRow[]> {
    return rowsOf<SoldOutRow>(this.db, SQL.ofRestaurant, [restaurantId, now]);
  }

  async set(locationId: string, kind: SoldOutKind, itemId: string, soldOut: boolean, now: number, until: number | null): Promise<void> {
    if (soldOut) await this.db.query(SQL.mark, [locationId, kind, itemId, now, until]);
    else await this.db.query(SQL.unmark, [locationId, kind, itemId]);
  }

  async purgeEnded(locationId: string, now: number): Promise<void> {
    await this.db.query(SQL.purge, [locationId, now]);
  }
}
