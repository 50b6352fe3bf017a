// Issue 34: PickupScreenSettingsStore (store/pickup-screen-settings-store.ts) on PostgreSQL.
import type { AsyncStore } from '../../store/async-store.ts';
import type { PickupScreenSettingsRow, PickupScreenSettingsStore } from '../../store/pickup-screen-settings-store.ts';
import { firstRow, type PostgresQueryable } from './queryable.ts';

const SQL = {
  byRestaurant: 'SELECT * FROM pickup_screen_settings WHERE restaurant_id = $1',
  upsert: `INSERT INTO pickup_screen_settings (restaurant_id, show_first_name, order_types, language, updated_at)
    VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (restaurant_id) DO UPDATE SET show_first_name = excluded.show_first_name,
      order_types = excluded.order_types, language = excluded.language, updated_at = excluded.updated_at`,
};

export class PostgresPickupScreenSettingsStore implements AsyncStore<PickupScreenSettingsStore> {
  constructor(private readonly db: PostgresQueryable) {}

  get(restaurantId: string): Promise<PickupScreenSettingsRow | undefined> {
    return firstRow<PickupScreenSettingsRow>(this.db, SQL.byRestaurant, [restaurantId]);
  }

  async put(row: PickupScreenSettingsRow): Promise<void> {
    await this.db.query(SQL.upsert, [row.restaurant_id, row.show_first_name, row.order_types, row.language, row.updated_at]);
  }
}
