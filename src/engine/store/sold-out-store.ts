import type { Database, Statement } from 'better-sqlite3';

export type SoldOutKind = 'product' | 'option';

export interface SoldOutRow {
  location_id: string;
  item_kind: SoldOutKind;
  item_id: string;
  since: number;
  /** When the mark ends by itself (the end of the kitchen's day); null: when switched back. */
  until: number | null;
}

/** The "agotado" (86) marks, per location; a mark past its `until` counts for nothing. */
export class SoldOutStore {
  private readonly ofLocation: Statement<[string, number], SoldOutRow>;
  private readonly ofRestaurant: Statement<[string, number], SoldOutRow>;
  private readonly mark: Statement<[string, string, string, number, number | null]>;
  private readonly unmark: Statement<[string, string, string]>;
  private readonly purge: Statement<[string, number]>;

  constructor(db: Database) {
    this.ofLocation = db.prepare(
      'SELECT * FROM sold_out WHERE location_id = ? AND (until IS NULL OR until > ?) ORDER BY item_kind, item_id',
    );
    this.ofRestaurant = db.prepare(
      `SELECT s.* FROM sold_out s JOIN locations l ON l.id = s.location_id
       WHERE l.restaurant_id = ? AND (s.until IS NULL OR s.until > ?)`,
    );
    this.mark = db.prepare(
      `INSERT INTO sold_out (location_id, item_kind, item_id, since, until) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (location_id, item_kind, item_id) DO UPDATE SET since = excluded.since, until = excluded.until`,
    );
    this.unmark = db.prepare('DELETE FROM sold_out WHERE location_id = ? AND item_kind = ? AND item_id = ?');
    this.purge = db.prepare('DELETE FROM sold_out WHERE location_id = ? AND until IS NOT NULL AND until <= ?');
  }

  /** The marks in force at a location at `now`. */
  atLocation(locationId: string, now: number): SoldOutRow[] {
    return this.ofLocation.all(locationId, now);
  }

  /** The marks in force at every location of a restaurant at `now`. */
  inRestaurant(restaurantId: string, now: number): SoldOutRow[] {
    return this.ofRestaurant.all(restaurantId, now);
  }

  set(locationId: string, kind: SoldOutKind, itemId: string, soldOut: boolean, now: number, until: number | null): void {
    if (soldOut) this.mark.run(locationId, kind, itemId, now, until);
    else this.unmark.run(locationId, kind, itemId);
  }

  /** Forgets the marks that ended by themselves before `now`. */
  purgeEnded(locationId: string, now: number): void {
    this.purge.run(locationId, now);
  }
}
