// Issue 34: PrintersStore (store/printers-store.ts) on PostgreSQL. Printers of the same creation time
// are ordered by name byte by byte (COLLATE "C"), as SQLite's BINARY.
import type { AsyncStore } from '../../store/async-store.ts';
import type { PrinterRow, PrinterState, PrintersStore } from '../../store/printers-store.ts';
import { firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

const COLUMNS = [
  'id', 'restaurant_id', 'name', 'host', 'port', 'width_mm', 'code_page', 'stations', 'print_when', 'fallback_seconds',
  'state', 'state_detail', 'state_at', 'created_at', 'updated_at', 'removed_at',
] as const satisfies readonly (keyof PrinterRow)[];

const SQL = {
  insert: `INSERT INTO printers (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
  byId: 'SELECT * FROM printers WHERE id = $1',
  ofRestaurant: 'SELECT * FROM printers WHERE restaurant_id = $1 AND removed_at IS NULL ORDER BY created_at, name COLLATE "C"',
  byName: 'SELECT * FROM printers WHERE restaurant_id = $1 AND name = $2 AND removed_at IS NULL',
  setState: 'UPDATE printers SET state = $1, state_detail = $2, state_at = $3 WHERE id = $4',
  remove: 'UPDATE printers SET removed_at = $1, updated_at = $1 WHERE id = $2',
};

export class PostgresPrintersStore implements AsyncStore<PrintersStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async insert(row: PrinterRow): Promise<void> {
    await this.db.query(SQL.insert, COLUMNS.map((c) => row[c]));
  }

  get(id: string): Promise<PrinterRow | undefined> {
    return firstRow<PrinterRow>(this.db, SQL.byId, [id]);
  }

  list(restaurantId: string): Promise<PrinterRow[]> {
    return rowsOf<PrinterRow>(this.db, SQL.ofRestaurant, [restaurantId]);
  }

  findByName(restaurantId: string, name: string): Promise<PrinterRow | undefined> {
    return firstRow<PrinterRow>(this.db, SQL.byName, [restaurantId, name]);
  }

  async setState(id: string, state: PrinterState, detail: string | null, at: number): Promise<void> {
    await this.db.query(SQL.setState, [state, detail, at, id]);
  }

  async remove(id: string, at: number): Promise<void> {
    await this.db.query(SQL.remove, [at, id]);
  }
}
