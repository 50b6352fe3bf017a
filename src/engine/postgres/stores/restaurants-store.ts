// Issue 34: RestaurantsStore (store/restaurants-store.ts) on PostgreSQL. The order numbers' counters
// live in the restaurant's clock row (restaurant_clocks), not in `restaurants`: a row reads them
// from there (1 and 1 before its first order), and a number is taken from there (clock-sql.ts,
// shared with the storage port), so numbering holds the row to the commit, gapless.
import type { AsyncStore } from '../../store/async-store.ts';
import type { RestaurantRow, RestaurantsStore } from '../../store/restaurants-store.ts';
import { TAKE_LIVE_NUMBER_SQL, TAKE_TEST_NUMBER_SQL } from '../clock-sql.ts';
import { firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';
import type { World } from '../../../shared/world.ts';

const ROW = `SELECT r.*, COALESCE(c.next_order_number, 1) AS next_order_number,
    COALESCE(c.next_test_order_number, 1) AS next_test_order_number
  FROM restaurants r LEFT JOIN restaurant_clocks c ON c.restaurant_id = r.id`;

const FOREIGN_KEY_VIOLATION = '23503';

const SQL = {
  byId: `${ROW} WHERE r.id = $1`,
  all: `${ROW} ORDER BY r.created_at, r.id COLLATE "C"`,
};

export class PostgresRestaurantsStore implements AsyncStore<RestaurantsStore> {
  /** `provisionalPrefix`: as on SQLite, a replica's own numbers ("L12"); the platform has none. */
  constructor(
    private readonly db: PostgresQueryable,
    private readonly provisionalPrefix = '',
  ) {}

  get(id: string): Promise<RestaurantRow | undefined> {
    return firstRow<RestaurantRow>(this.db, SQL.byId, [id]);
  }

  list(): Promise<RestaurantRow[]> {
    return rowsOf<RestaurantRow>(this.db, SQL.all);
  }

  async takeOrderNumber(id: string, world: World): Promise<string> {
    const test = world === 'test';
    let row: { n: number } | undefined;
    try {
      row = await firstRow<{ n: number }>(this.db, test ? TAKE_TEST_NUMBER_SQL : TAKE_LIVE_NUMBER_SQL, [id]);
    } catch (error) {
      // The clock row's foreign key refuses a restaurant that is not there (SQLite's UPDATE finds none).
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) throw new Error(`restaurant ${id} vanished while numbering an order`);
      throw error;
    }
    if (!row) throw new Error(`restaurant ${id} vanished while numbering an order`);
    return `${test ? 'T' : ''}${this.provisionalPrefix}${row.n}`;
  }
}
