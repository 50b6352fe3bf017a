import type { Database, Statement } from 'better-sqlite3';

export interface PaymentCredentialsRow {
  restaurant_id: string;
  provider: string;
  access_token: string;
  webhook_secret: string;
  api_base: string;
  created_at: number;
  updated_at: number;
}

/** Each restaurant's credentials with its payment provider (docs/payments.md). Never logged, never answered. */
export class PaymentCredentialsStore {
  private readonly upsertStatement: Statement;
  private readonly getStatement: Statement<[string, string], PaymentCredentialsRow>;
  private readonly removeStatement: Statement<[string, string]>;
  private readonly ofRestaurantStatement: Statement<[string], PaymentCredentialsRow>;

  constructor(db: Database) {
    this.upsertStatement = db.prepare(
      `INSERT INTO payment_credentials (restaurant_id, provider, access_token, webhook_secret, api_base, created_at, updated_at)
       VALUES (@restaurant_id, @provider, @access_token, @webhook_secret, @api_base, @created_at, @updated_at)
       ON CONFLICT (restaurant_id, provider) DO UPDATE SET access_token = excluded.access_token,
         webhook_secret = excluded.webhook_secret, api_base = excluded.api_base, updated_at = excluded.updated_at`,
    );
    this.getStatement = db.prepare('SELECT * FROM payment_credentials WHERE restaurant_id = ? AND provider = ?');
    this.removeStatement = db.prepare('DELETE FROM payment_credentials WHERE restaurant_id = ? AND provider = ?');
    this.ofRestaurantStatement = db.prepare('SELECT * FROM payment_credentials WHERE restaurant_id = ? ORDER BY provider');
  }

  set(row: PaymentCredentialsRow): void {
    this.upsertStatement.run(row);
  }

  get(restaurantId: string, provider: string): PaymentCredentialsRow | undefined {
    return this.getStatement.get(restaurantId, provider);
  }

  /** The restaurant's credentials with every provider (a platform node's copy in memory, issue 34). */
  ofRestaurant(restaurantId: string): PaymentCredentialsRow[] {
    return this.ofRestaurantStatement.all(restaurantId);
  }

  remove(restaurantId: string, provider: string): boolean {
    return this.removeStatement.run(restaurantId, provider).changes === 1;
  }
}
