import type { Database, Statement } from 'better-sqlite3';

export interface PickupScreenSettingsRow {
  restaurant_id: string;
  show_first_name: 0 | 1;
  order_types: 'pickup' | 'pickup_and_delivery';
  language: 'es' | 'en';
  updated_at: number;
}

/** Each restaurant's pickup screen settings (services/kitchen/pickup-screen-settings.ts); no row: the defaults. */
export class PickupScreenSettingsStore {
  private readonly byRestaurant: Statement<[string], PickupScreenSettingsRow>;
  private readonly upsert: Statement<PickupScreenSettingsRow>;

  constructor(db: Database) {
    this.byRestaurant = db.prepare('SELECT * FROM pickup_screen_settings WHERE restaurant_id = ?');
    this.upsert = db.prepare(
      `INSERT INTO pickup_screen_settings (restaurant_id, show_first_name, order_types, language, updated_at)
       VALUES (@restaurant_id, @show_first_name, @order_types, @language, @updated_at)
       ON CONFLICT (restaurant_id) DO UPDATE SET show_first_name = excluded.show_first_name,
         order_types = excluded.order_types, language = excluded.language, updated_at = excluded.updated_at`,
    );
  }

  get(restaurantId: string): PickupScreenSettingsRow | undefined {
    return this.byRestaurant.get(restaurantId);
  }

  put(row: PickupScreenSettingsRow): void {
    this.upsert.run(row);
  }
}
