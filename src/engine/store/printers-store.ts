import { bound } from './bound.ts';
import type { Database, Statement } from 'better-sqlite3';

export type PrinterState = 'unknown' | 'ok' | 'unreachable' | 'paper_out';
export type PrintWhen = 'arrival' | 'fallback' | 'bag';

export interface PrinterRow {
  id: string;
  restaurant_id: string;
  name: string;
  host: string;
  port: number;
  width_mm: 58 | 80;
  code_page: string;
  /** JSON array of station ids ([] = every station). */
  stations: string;
  /** JSON array of PrintWhen. */
  print_when: string;
  fallback_seconds: number;
  state: PrinterState;
  state_detail: string | null;
  state_at: number | null;
  created_at: number;
  updated_at: number;
  removed_at: number | null;
}

/** A restaurant's kitchen printers (removed ones are kept: their jobs name them). */
export class PrintersStore {
  private readonly insertStatement: Statement;
  private readonly byId: Statement<[string], PrinterRow>;
  private readonly ofRestaurant: Statement<[string], PrinterRow>;
  private readonly byName: Statement<[string, string], PrinterRow>;
  private readonly setStateStatement: Statement<[PrinterState, string | null, number, string]>;
  private readonly removeStatement: Statement<[number, number, string]>;

  constructor(db: Database) {
    this.insertStatement = db.prepare(
      `INSERT INTO printers (id, restaurant_id, name, host, port, width_mm, code_page, stations, print_when, fallback_seconds,
         state, state_detail, state_at, created_at, updated_at, removed_at)
       VALUES (@id, @restaurant_id, @name, @host, @port, @width_mm, @code_page, @stations, @print_when, @fallback_seconds,
         @state, @state_detail, @state_at, @created_at, @updated_at, @removed_at)`,
    );
    this.byId = db.prepare('SELECT * FROM printers WHERE id = ?');
    // Read for every order placed (its arrival tickets) and every board snapshot: see bound.ts
    // (a bare parameter here made SQLite recompile it on every run, 11 µs instead of 1).
    this.ofRestaurant = db.prepare(
      `SELECT * FROM printers WHERE restaurant_id = ${bound()} AND removed_at IS NULL ORDER BY created_at, name`,
    );
    this.byName = db.prepare('SELECT * FROM printers WHERE restaurant_id = ? AND name = ? AND removed_at IS NULL');
    this.setStateStatement = db.prepare('UPDATE printers SET state = ?, state_detail = ?, state_at = ? WHERE id = ?');
    this.removeStatement = db.prepare('UPDATE printers SET removed_at = ?, updated_at = ? WHERE id = ?');
  }

  insert(row: PrinterRow): void {
    this.insertStatement.run(row);
  }

  get(id: string): PrinterRow | undefined {
    return this.byId.get(id);
  }

  /** The restaurant's printers in use, oldest first. */
  list(restaurantId: string): PrinterRow[] {
    return this.ofRestaurant.all(restaurantId);
  }

  findByName(restaurantId: string, name: string): PrinterRow | undefined {
    return this.byName.get(restaurantId, name);
  }

  setState(id: string, state: PrinterState, detail: string | null, at: number): void {
    this.setStateStatement.run(state, detail, at, id);
  }

  remove(id: string, at: number): void {
    this.removeStatement.run(at, at, id);
  }
}
