// Issue 34: RestaurantImportStore (store/restaurant-import-store.ts) on PostgreSQL: the id checks and
// the inserts of a restaurant configuration file, in the import's one transaction. SQLite's named
// parameters become positional ones, listed once per row type. A restaurant's clock row
// (restaurant_clocks) is not made here: its first write or order number makes it.
import type { AsyncStore } from '../../store/async-store.ts';
import type {
  ImportedLocationRow, ImportedProductRow, ImportedRestaurantRow, ImportedTable, RestaurantImportStore,
} from '../../store/restaurant-import-store.ts';
import { firstRow, type PostgresQueryable } from './queryable.ts';

const RESTAURANT_COLUMNS = [
  'id', 'name', 'register_mode', 'time_zone', 'payment_timeout_minutes', 'sold_out_resets_at', 'shipping_subsidies', 'created_at',
] as const satisfies readonly (keyof ImportedRestaurantRow)[];

const PRODUCT_COLUMNS = [
  'id', 'restaurant_id', 'category_id', 'slug', 'name', 'description', 'price', 'offer_price', 'image_url', 'active', 'track_stock', 'position',
] as const satisfies readonly (keyof ImportedProductRow)[];

const LOCATION_COLUMNS = [
  'id', 'restaurant_id', 'name', 'address', 'latitude', 'longitude', 'is_active', 'register_open', 'weekly_schedule',
  'preparation_lead_minutes', 'delivery', 'position',
] as const satisfies readonly (keyof ImportedLocationRow)[];

const insertOf = (table: string, columns: readonly string[]): string =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;

/** One statement per table, fixed text (the table never comes from the caller's string). */
const EXISTS: Readonly<Record<ImportedTable, string>> = {
  restaurants: 'SELECT 1 FROM restaurants WHERE id = $1',
  locations: 'SELECT 1 FROM locations WHERE id = $1',
  categories: 'SELECT 1 FROM categories WHERE id = $1',
  products: 'SELECT 1 FROM products WHERE id = $1',
  modifier_groups: 'SELECT 1 FROM modifier_groups WHERE id = $1',
  modifier_options: 'SELECT 1 FROM modifier_options WHERE id = $1',
};

const SQL = {
  restaurant: insertOf('restaurants', RESTAURANT_COLUMNS),
  category: insertOf('categories', ['id', 'restaurant_id', 'name', 'description', 'active', 'position']),
  product: insertOf('products', PRODUCT_COLUMNS),
  group: insertOf('modifier_groups', ['id', 'product_id', 'name', 'required', 'min', 'max', 'position']),
  option: insertOf('modifier_options', ['id', 'group_id', 'name', 'price', 'position']),
  location: insertOf('locations', LOCATION_COLUMNS),
  exception: `INSERT INTO location_exceptions (location_id, local_date, closed, hours, label, source) VALUES ($1, $2, $3, $4, $5, 'config')`,
  stock: insertOf('stock', ['location_id', 'product_id', 'quantity']),
  kitchenSettings: insertOf('kitchen_settings', ['restaurant_id', 'settings', 'updated_at']),
};

export class PostgresRestaurantImportStore implements AsyncStore<RestaurantImportStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async taken(table: ImportedTable, id: string): Promise<boolean> {
    return (await firstRow(this.db, EXISTS[table], [id])) !== undefined;
  }

  async insertRestaurant(row: ImportedRestaurantRow): Promise<void> {
    await this.db.query(SQL.restaurant, RESTAURANT_COLUMNS.map((c) => row[c]));
  }

  async insertCategory(id: string, restaurantId: string, name: string, description: string | null, active: 0 | 1, position: number): Promise<void> {
    await this.db.query(SQL.category, [id, restaurantId, name, description, active, position]);
  }

  async insertProduct(row: ImportedProductRow): Promise<void> {
    await this.db.query(SQL.product, PRODUCT_COLUMNS.map((c) => row[c]));
  }

  async insertModifierGroup(id: string, productId: string, name: string, required: 0 | 1, min: number, max: number, position: number): Promise<void> {
    await this.db.query(SQL.group, [id, productId, name, required, min, max, position]);
  }

  async insertModifierOption(id: string, groupId: string, name: string, price: number, position: number): Promise<void> {
    await this.db.query(SQL.option, [id, groupId, name, price, position]);
  }

  async insertLocation(row: ImportedLocationRow): Promise<void> {
    await this.db.query(SQL.location, LOCATION_COLUMNS.map((c) => row[c]));
  }

  async insertException(locationId: string, localDate: string, closed: 0 | 1, hours: string, label: string | null): Promise<void> {
    await this.db.query(SQL.exception, [locationId, localDate, closed, hours, label]);
  }

  async insertStock(locationId: string, productId: string, quantity: number): Promise<void> {
    await this.db.query(SQL.stock, [locationId, productId, quantity]);
  }

  async insertKitchenSettings(restaurantId: string, settings: string, at: number): Promise<void> {
    await this.db.query(SQL.kitchenSettings, [restaurantId, settings, at]);
  }
}
