// Issue 34: StockStore (store/stock-store.ts) on PostgreSQL. The take stays conditional
// (`quantity >= n`): under READ COMMITTED PostgreSQL re-checks the condition on the newest version
// of a row another transaction changed, so concurrent takes never drive it below zero.
import type { AsyncStore } from '../../store/async-store.ts';
import type { StockStore } from '../../store/stock-store.ts';
import { changesOf, firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

const SQL = {
  quantity: 'SELECT quantity FROM stock WHERE location_id = $1 AND product_id = $2',
  take: 'UPDATE stock SET quantity = quantity - $1 WHERE location_id = $2 AND product_id = $3 AND quantity >= $1',
  // The take and what is left in one round trip: the row the UPDATE returned (taken), else the row as
  // the statement found it (not taken; only a refusal's message reads it).
  takeIfThere: `WITH taken AS (
      UPDATE stock SET quantity = quantity - $1 WHERE location_id = $2 AND product_id = $3 AND quantity >= $1 RETURNING quantity
    )
    SELECT (SELECT quantity FROM taken) AS left_after,
      (SELECT quantity FROM stock WHERE location_id = $2 AND product_id = $3) AS there`,
  giveBack: `INSERT INTO stock (location_id, product_id, quantity) VALUES ($1, $2, $3)
    ON CONFLICT (location_id, product_id) DO UPDATE SET quantity = stock.quantity + excluded.quantity`,
  set: `INSERT INTO stock (location_id, product_id, quantity) VALUES ($1, $2, $3)
    ON CONFLICT (location_id, product_id) DO UPDATE SET quantity = excluded.quantity`,
  ofLocation: 'SELECT product_id, quantity FROM stock WHERE location_id = $1',
  inActiveLocations: `SELECT DISTINCT s.product_id FROM stock s JOIN locations l ON l.id = s.location_id
    WHERE l.restaurant_id = $1 AND l.is_active = 1 AND s.quantity > 0`,
};

export class PostgresStockStore implements AsyncStore<StockStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async quantity(locationId: string, productId: string): Promise<number> {
    return (await firstRow<{ quantity: number }>(this.db, SQL.quantity, [locationId, productId]))?.quantity ?? 0;
  }

  async tryTake(locationId: string, productId: string, amount: number): Promise<boolean> {
    return (await changesOf(this.db, SQL.take, [amount, locationId, productId])) === 1;
  }

  async takeIfThere(locationId: string, productId: string, amount: number): Promise<{ taken: boolean; left: number }> {
    const row = await firstRow<{ left_after: number | null; there: number | null }>(this.db, SQL.takeIfThere, [amount, locationId, productId]);
    return row && row.left_after !== null ? { taken: true, left: row.left_after } : { taken: false, left: row?.there ?? 0 };
  }

  async restore(locationId: string, productId: string, amount: number): Promise<void> {
    await this.db.query(SQL.giveBack, [locationId, productId, amount]);
  }

  async set(locationId: string, productId: string, quantity: number): Promise<void> {
    await this.db.query(SQL.set, [locationId, productId, quantity]);
  }

  async quantitiesAt(locationId: string): Promise<Map<string, number>> {
    const rows = await rowsOf<{ product_id: string; quantity: number }>(this.db, SQL.ofLocation, [locationId]);
    return new Map(rows.map((r) => [r.product_id, r.quantity]));
  }

  async productsInStockAnywhere(restaurantId: string): Promise<Set<string>> {
    const rows = await rowsOf<{ product_id: string }>(this.db, SQL.inActiveLocations, [restaurantId]);
    return new Set(rows.map((r) => r.product_id));
  }
}
