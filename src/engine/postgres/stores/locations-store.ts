// Issue 34: LocationsStore (store/locations-store.ts) on PostgreSQL.
import type { AsyncStore } from '../../store/async-store.ts';
import type { LocationExceptionRow, LocationRow, LocationsStore } from '../../store/locations-store.ts';
import { firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

const SQL = {
  byId: 'SELECT * FROM locations WHERE id = $1 AND restaurant_id = $2',
  // COLLATE "C": ties on position ordered by id byte by byte, as SQLite's BINARY.
  byRestaurant: 'SELECT * FROM locations WHERE restaurant_id = $1 ORDER BY position, id COLLATE "C"',
  // local_date is YYYY-MM-DD: compared byte by byte, as on SQLite, whatever the database's collation.
  exceptions: `SELECT location_id, local_date, closed, hours, label, source FROM location_exceptions
    WHERE location_id = $1 AND local_date COLLATE "C" BETWEEN $2 AND $3 ORDER BY local_date COLLATE "C", id`,
  setRegister: 'UPDATE locations SET register_open = $1 WHERE id = $2',
  clearDay: 'DELETE FROM location_exceptions WHERE location_id = $1 AND local_date = $2',
  clearApiDay: "DELETE FROM location_exceptions WHERE location_id = $1 AND local_date = $2 AND source = 'api'",
  addException: 'INSERT INTO location_exceptions (location_id, local_date, closed, hours, label, source) VALUES ($1, $2, $3, $4, $5, $6)',
};

export class PostgresLocationsStore implements AsyncStore<LocationsStore> {
  constructor(private readonly db: PostgresQueryable) {}

  get(restaurantId: string, id: string): Promise<LocationRow | undefined> {
    return firstRow<LocationRow>(this.db, SQL.byId, [id, restaurantId]);
  }

  list(restaurantId: string): Promise<LocationRow[]> {
    return rowsOf<LocationRow>(this.db, SQL.byRestaurant, [restaurantId]);
  }

  exceptions(locationId: string, fromDate: string, toDate: string): Promise<LocationExceptionRow[]> {
    return rowsOf<LocationExceptionRow>(this.db, SQL.exceptions, [locationId, fromDate, toDate]);
  }

  async setRegisterOpen(locationId: string, open: boolean): Promise<void> {
    await this.db.query(SQL.setRegister, [open ? 1 : 0, locationId]);
  }

  async clearExceptions(locationId: string, localDate: string): Promise<void> {
    await this.db.query(SQL.clearDay, [locationId, localDate]);
  }

  async clearApiExceptions(locationId: string, localDate: string): Promise<void> {
    await this.db.query(SQL.clearApiDay, [locationId, localDate]);
  }

  async addClosedDay(locationId: string, localDate: string, label: string): Promise<void> {
    await this.db.query(SQL.addException, [locationId, localDate, 1, '[]', label, 'api']);
  }
}
