import type { Database, Statement } from 'better-sqlite3';

export class StockStore {
  private readonly quantityAt: Statement<[string, string], { quantity: number }>;
  private readonly take: Statement<[number, string, string, number]>;
  private readonly giveBack: Statement<[string, string, number, number]>;
  private readonly setStatement: Statement<[string, string, number]>;
  private readonly ofLocation: Statement<[string], { product_id: string; quantity: number }>;
  private readonly inActiveLocations: Statement<[string], { product_id: string }>;

  constructor(db: Database) {
    this.quantityAt = db.prepare('SELECT quantity FROM stock WHERE location_id = ? AND product_id = ?');
    this.take = db.prepare(
      'UPDATE stock SET quantity = quantity - ? WHERE location_id = ? AND product_id = ? AND quantity >= ?',
    );
    this.giveBack = db.prepare(
      `INSERT INTO stock (location_id, product_id, quantity) VALUES (?, ?, ?)
       ON CONFLICT (location_id, product_id) DO UPDATE SET quantity = quantity + ?`,
    );
    this.setStatement = db.prepare(
      `INSERT INTO stock (location_id, product_id, quantity) VALUES (?, ?, ?)
       ON CONFLICT (location_id, product_id) DO UPDATE SET quantity = excluded.quantity`,
    );
    this.ofLocation = db.prepare('SELECT product_id, quantity FROM stock WHERE location_id = ?');
    this.inActiveLocations = db.prepare(
      `SELECT DISTINCT s.product_id FROM stock s JOIN locations l ON l.id = s.location_id
       WHERE l.restaurant_id = ? AND l.is_active = 1 AND s.quantity > 0`,
    );
  }

  /** A tracked product with no row has 0. */
  quantity(locationId: string, productId: string): number {
    return this.quantityAt.get(locationId, productId)?.quantity ?? 0;
  }

  /** Takes `amount` if that much is there; false (and nothing taken) otherwise. */
  tryTake(locationId: string, productId: string, amount: number): boolean {
    return this.take.run(amount, locationId, productId, amount).changes === 1;
  }

  /**
   * Takes `amount` if that much is there: what is left after it, or (nothing taken) what there was.
   * One statement on PostgreSQL (its twin); here the take and the read, under the process lock.
   */
  takeIfThere(locationId: string, productId: string, amount: number): { taken: boolean; left: number } {
    const taken = this.tryTake(locationId, productId, amount);
    return { taken, left: this.quantity(locationId, productId) };
  }

  restore(locationId: string, productId: string, amount: number): void {
    this.giveBack.run(locationId, productId, amount, amount);
  }

  set(locationId: string, productId: string, quantity: number): void {
    this.setStatement.run(locationId, productId, quantity);
  }

  quantitiesAt(locationId: string): Map<string, number> {
    return new Map(this.ofLocation.all(locationId).map((r) => [r.product_id, r.quantity]));
  }

  /** Products with stock left in at least one active location of the restaurant. */
  productsInStockAnywhere(restaurantId: string): Set<string> {
    return new Set(this.inActiveLocations.all(restaurantId).map((r) => r.product_id));
  }
}
