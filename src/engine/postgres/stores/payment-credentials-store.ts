// Issue 34: PaymentCredentialsStore (store/payment-credentials-store.ts) on PostgreSQL. Never logged,
// never answered: a failed statement's error carries no parameter values (pg does not put them in it).
import type { AsyncStore } from '../../store/async-store.ts';
import type { PaymentCredentialsRow, PaymentCredentialsStore } from '../../store/payment-credentials-store.ts';
import { changesOf, firstRow, rowsOf, type PostgresQueryable } from './queryable.ts';

const SQL = {
  upsert: `INSERT INTO payment_credentials (restaurant_id, provider, access_token, webhook_secret, api_base, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT (restaurant_id, provider) DO UPDATE SET access_token = excluded.access_token,
      webhook_secret = excluded.webhook_secret, api_base = excluded.api_base, updated_at = excluded.updated_at`,
  get: 'SELECT * FROM payment_credentials WHERE restaurant_id = $1 AND provider = $2',
  remove: 'DELETE FROM payment_credentials WHERE restaurant_id = $1 AND provider = $2',
  ofRestaurant: 'SELECT * FROM payment_credentials WHERE restaurant_id = $1 ORDER BY provider COLLATE "C"',
};

export class PostgresPaymentCredentialsStore implements AsyncStore<PaymentCredentialsStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async set(row: PaymentCredentialsRow): Promise<void> {
    await this.db.query(SQL.upsert, [
      row.restaurant_id, row.provider, row.access_token, row.webhook_secret, row.api_base, row.created_at, row.updated_at,
    ]);
  }

  get(restaurantId: string, provider: string): Promise<PaymentCredentialsRow | undefined> {
    return firstRow<PaymentCredentialsRow>(this.db, SQL.get, [restaurantId, provider]);
  }

  ofRestaurant(restaurantId: string): Promise<PaymentCredentialsRow[]> {
    return rowsOf<PaymentCredentialsRow>(this.db, SQL.ofRestaurant, [restaurantId]);
  }

  async remove(restaurantId: string, provider: string): Promise<boolean> {
    return (await changesOf(this.db, SQL.remove, [restaurantId, provider])) === 1;
  }
}
