import type { Database, Statement } from 'better-sqlite3';

/** The tables whose rows a restaurant file may name by id (checked before an import writes). */
export type ImportedTable = 'restaurants' | 'locations' | 'categories' | 'products' | 'modifier_groups' | 'modifier_options';

export interface ImportedRestaurantRow {
  id: string;
  name: string;
  register_mode: string;
  time_zone: string;
  payment_timeout_minutes: number;
  sold_out_resets_at: string | null;
  shipping_subsidies: string;
  created_at: number;
}

export interface ImportedProductRow {
  id: string;
  restaurant_id: string;
  category_id: string;
  slug: string;
  name: string;
  description: string | null;
  price: number;
  offer_price: number | null;
  image_url: string | null;
  active: 0 | 1;
  track_stock: 0 | 1;
  position: number;
}

export interface ImportedLocationRow {
  id: string;
  restaurant_id: string;
  name: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  is_active: 0 | 1;
  register_open: 0 | 1;
  weekly_schedule: string;
  preparation_lead_minutes: number;
  delivery: string;
  position: number;
}

/**
 * The rows of a restaurant configuration file (services/restaurants/import-restaurant.ts): the id
 * checks and the inserts, each statement prepared once. Call inside one transaction.
 */
export class RestaurantImportStore {
  private readonly exists: Record<ImportedTable, Statement<[string], unknown>>;
  private readonly restaurant: Statement<[ImportedRestaurantRow]>;
  private readonly category: Statement<[string, string, string, string | null, 0 | 1, number]>;
  private readonly product: Statement<[ImportedProductRow]>;
  private readonly group: Statement<[string, string, string, 0 | 1, number, number, number]>;
  private readonly option: Statement<[string, string, string, number, number]>;
  private readonly location: Statement<[ImportedLocationRow]>;
  private readonly exception: Statement<[string, string, 0 | 1, string, string | null]>;
  private readonly stock: Statement<[string, string, number]>;
  private readonly kitchenSettings: Statement<[string, string, number]>;

  constructor(db: Database) {
    const exists = (table: ImportedTable) => db.prepare<[string], unknown>(`SELECT 1 FROM ${table} WHERE id = ?`);
    this.exists = {
      restaurants: exists('restaurants'),
      locations: exists('locations'),
      categories: exists('categories'),
      products: exists('products'),
      modifier_groups: exists('modifier_groups'),
      modifier_options: exists('modifier_options'),
    };
    this.restaurant = db.prepare(
      `INSERT INTO restaurants (id, name, register_mode, time_zone, payment_timeout_minutes, sold_out_resets_at, shipping_subsidies, created_at)
       VALUES (@id, @name, @register_mode, @time_zone, @payment_timeout_minutes, @sold_out_resets_at, @shipping_subsidies, @created_at)`,
    );
    this.category = db.prepare('INSERT INTO categories (id, restaurant_id, name, description, active, position) VALUES (?, ?, ?, ?, ?, ?)');
    this.product = db.prepare(
      `INSERT INTO products (id, restaurant_id, category_id, slug, name, description, price, offer_price, image_url, active, track_stock, position)
       VALUES (@id, @restaurant_id, @category_id, @slug, @name, @description, @price, @offer_price, @image_url, @active, @track_stock, @position)`,
    );
    this.group = db.prepare('INSERT INTO modifier_groups (id, product_id, name, required, min, max, position) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.option = db.prepare('INSERT INTO modifier_options (id, group_id, name, price, position) VALUES (?, ?, ?, ?, ?)');
    this.location = db.prepare(
      `INSERT INTO locations (id, restaurant_id, name, address, latitude, longitude, is_active, register_open, weekly_schedule,
                              preparation_lead_minutes, delivery, position)
       VALUES (@id, @restaurant_id, @name, @address, @latitude, @longitude, @is_active, @register_open, @weekly_schedule,
               @preparation_lead_minutes, @delivery, @position)`,
    );
    this.exception = db.prepare(
      `INSERT INTO location_exceptions (location_id, local_date, closed, hours, label, source) VALUES (?, ?, ?, ?, ?, 'config')`,
    );
    this.stock = db.prepare('INSERT INTO stock (location_id, product_id, quantity) VALUES (?, ?, ?)');
    this.kitchenSettings = db.prepare('INSERT INTO kitchen_settings (restaurant_id, settings, updated_at) VALUES (?, ?, ?)');
  }

  /** Whether a row of `table` has this id already (in any restaurant). */
  taken(table: ImportedTable, id: string): boolean {
    return this.exists[table].get(id) !== undefined;
  }

  insertRestaurant(row: ImportedRestaurantRow): void {
    this.restaurant.run(row);
  }

  insertCategory(id: string, restaurantId: string, name: string, description: string | null, active: 0 | 1, position: number): void {
    this.category.run(id, restaurantId, name, description, active, position);
  }

  insertProduct(row: ImportedProductRow): void {
    this.product.run(row);
  }

  insertModifierGroup(id: string, productId: string, name: string, required: 0 | 1, min: number, max: number, position: number): void {
    this.group.run(id, productId, name, required, min, max, position);
  }

  insertModifierOption(id: string, groupId: string, name: string, price: number, position: number): void {
    this.option.run(id, groupId, name, price, position);
  }

  insertLocation(row: ImportedLocationRow): void {
    this.location.run(row);
  }

  insertException(locationId: string, localDate: string, closed: 0 | 1, hours: string, label: string | null): void {
    this.exception.run(locationId, localDate, closed, hours, label);
  }

  insertStock(locationId: string, productId: string, quantity: number): void {
    this.stock.run(locationId, productId, quantity);
  }

  insertKitchenSettings(restaurantId: string, settings: string, at: number): void {
    this.kitchenSettings.run(restaurantId, settings, at);
  }
}
