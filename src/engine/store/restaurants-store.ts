import type { Database, Statement } from 'better-sqlite3';
import type { RegisterMode } from '../domain/location-schedule.ts';
import type { World } from '../../shared/world.ts';

export interface RestaurantRow {
  id: string;
  name: string;
  register_mode: RegisterMode;
  time_zone: string;
  payment_timeout_minutes: number;
  /** Local time (HH:MM) at which the day's sold-out marks end; null: they last until switched back. */
  sold_out_resets_at: string | null;
  shipping_subsidies: string;
  next_order_number: number;
  next_test_order_number: number;
  created_at: number;
}

export class RestaurantsStore {
  private readonly byId: Statement<[string], RestaurantRow>;
  private readonly all: Statement<[], RestaurantRow>;
  private readonly takeLiveNumber: Statement<[string], { n: number }>;
  private readonly takeTestNumber: Statement<[string], { n: number }>;

  /**
   * @param provisionalPrefix A replica numbers its own orders apart ("L12", "TL3") until the
   * upstream gives them their real number, so the two sequences never collide.
   */
  constructor(
    db: Database,
    private readonly provisionalPrefix = '',
  ) {
    this.byId = db.prepare('SELECT * FROM restaurants WHERE id = ?');
    this.all = db.prepare('SELECT * FROM restaurants ORDER BY created_at, id');
    this.takeLiveNumber = db.prepare(
      'UPDATE restaurants SET next_order_number = next_order_number + 1 WHERE id = ? RETURNING next_order_number - 1 AS n',
    );
    this.takeTestNumber = db.prepare(
      'UPDATE restaurants SET next_test_order_number = next_test_order_number + 1 WHERE id = ? RETURNING next_test_order_number - 1 AS n',
    );
  }

  get(id: string): RestaurantRow | undefined {
    return this.byId.get(id);
  }

  list(): RestaurantRow[] {
    return this.all.all();
  }

  /** The next order number of a world; call inside the transaction that inserts the order. */
  takeOrderNumber(id: string, world: World): string {
    const test = world === 'test';
    const row = (test ? this.takeTestNumber : this.takeLiveNumber).get(id);
    if (!row) throw new Error(`restaurant ${id} vanished while numbering an order`);
    return `${test ? 'T' : ''}${this.provisionalPrefix}${row.n}`;
  }
}
