import type { Database, Statement } from 'better-sqlite3';
import { bound } from './bound.ts';

export interface LocationRow {
  id: string;
  restaurant_id: string;
  name: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  is_active: number;
  register_open: number;
  weekly_schedule: string;
  preparation_lead_minutes: number;
  delivery: string;
  position: number;
  /** Replica only: the status its upstream last reported (JSON), which stands while offline. */
  known_status: string | null;
}

export interface LocationExceptionRow {
  location_id: string;
  local_date: string;
  closed: number;
  hours: string;
  label: string | null;
  source: 'config' | 'api';
}

export class LocationsStore {
  private readonly byId: Statement<[string, string], LocationRow>;
  private readonly byRestaurant: Statement<[string], LocationRow>;
  private readonly exceptionsBetween: Statement<[string, string, string], LocationExceptionRow>;
  private readonly setRegister: Statement<[number, string]>;
  private readonly deleteExceptionsOfDay: Statement<[string, string]>;
  private readonly deleteApiExceptionsOfDay: Statement<[string, string]>;
  private readonly insertException: Statement<[string, string, number, string, string | null, string]>;

  constructor(db: Database) {
    this.byId = db.prepare('SELECT * FROM locations WHERE id = ? AND restaurant_id = ?');
    this.byRestaurant = db.prepare('SELECT * FROM locations WHERE restaurant_id = ? ORDER BY position, id');
    this.exceptionsBetween = db.prepare(
      `SELECT location_id, local_date, closed, hours, label, source FROM location_exceptions
       WHERE location_id = ${bound()} AND local_date BETWEEN ${bound()} AND ${bound()} ORDER BY local_date, id`,
    );
    this.setRegister = db.prepare('UPDATE locations SET register_open = ? WHERE id = ?');
    this.deleteExceptionsOfDay = db.prepare('DELETE FROM location_exceptions WHERE location_id = ? AND local_date = ?');
    this.deleteApiExceptionsOfDay = db.prepare(
      "DELETE FROM location_exceptions WHERE location_id = ? AND local_date = ? AND source = 'api'",
    );
    this.insertException = db.prepare(
      'INSERT INTO location_exceptions (location_id, local_date, closed, hours, label, source) VALUES (?, ?, ?, ?, ?, ?)',
    );
  }

  get(restaurantId: string, id: string): LocationRow | undefined {
    return this.byId.get(id, restaurantId);
  }

  list(restaurantId: string): LocationRow[] {
    return this.byRestaurant.all(restaurantId);
  }

  exceptions(locationId: string, fromDate: string, toDate: string): LocationExceptionRow[] {
    return this.exceptionsBetween.all(locationId, fromDate, toDate);
  }

  setRegisterOpen(locationId: string, open: boolean): void {
    this.setRegister.run(open ? 1 : 0, locationId);
  }

  clearExceptions(locationId: string, localDate: string): void {
    this.deleteExceptionsOfDay.run(locationId, localDate);
  }

  /** Removes only the closures made through the API on that day, keeping the configured ones. */
  clearApiExceptions(locationId: string, localDate: string): void {
    this.deleteApiExceptionsOfDay.run(locationId, localDate);
  }

  addClosedDay(locationId: string, localDate: string, label: string): void {
    this.insertException.run(locationId, localDate, 1, '[]', label, 'api');
  }
}
