// Issue 34: MirrorStore (store/mirror-store.ts) on PostgreSQL: the writes a replica makes to mirror
// its upstream. Each row is one upsert, as on SQLite. `replaceModifiers` deletes a product's groups
// and options and inserts the new ones, each level in one statement (the rows as JSON): a product's
// modifiers cost four round trips whatever their number.
import type { AsyncStore } from '../../store/async-store.ts';
import type { MirroredProduct, MirrorStore } from '../../store/mirror-store.ts';
import { firstRow, type PostgresQueryable } from './queryable.ts';

const PRODUCT_COLUMNS = [
  'id', 'restaurant_id', 'category_id', 'slug', 'name', 'description', 'price', 'offer_price', 'image_url', 'track_stock', 'position',
] as const satisfies readonly (keyof MirroredProduct)[];

const SQL = {
  upsertRestaurant: `INSERT INTO restaurants (id, name, register_mode, time_zone, created_at) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, register_mode = excluded.register_mode`,
  location: 'SELECT known_status, is_active, name, address FROM locations WHERE id = $1',
  upsertLocation: `INSERT INTO locations (id, restaurant_id, name, address, is_active, position, known_status) VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, address = excluded.address, is_active = excluded.is_active,
      known_status = excluded.known_status`,
  setKnownStatus: 'UPDATE locations SET known_status = $1 WHERE id = $2',
  deactivateCategories: 'UPDATE categories SET active = 0 WHERE restaurant_id = $1',
  deactivateProducts: 'UPDATE products SET active = 0 WHERE restaurant_id = $1',
  upsertCategory: `INSERT INTO categories (id, restaurant_id, name, description, active, position) VALUES ($1, $2, $3, $4, 1, $5)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description, active = 1, position = excluded.position`,
  upsertProduct: `INSERT INTO products (${PRODUCT_COLUMNS.join(', ')}, active)
    VALUES (${PRODUCT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}, 1)
    ON CONFLICT (id) DO UPDATE SET category_id = excluded.category_id, slug = excluded.slug, name = excluded.name,
      description = excluded.description, price = excluded.price, offer_price = excluded.offer_price,
      image_url = excluded.image_url, active = 1, track_stock = excluded.track_stock, position = excluded.position`,
  deleteOptions: 'DELETE FROM modifier_options WHERE group_id IN (SELECT id FROM modifier_groups WHERE product_id = $1)',
  deleteGroups: 'DELETE FROM modifier_groups WHERE product_id = $1',
  // $1 the product, $2 its groups as JSON (position: their place in the list).
  insertGroups: `INSERT INTO modifier_groups (id, product_id, name, required, min, max, position)
    SELECT g.id, $1, g.name, g.required, g.min, g.max, g.position
    FROM jsonb_to_recordset($2::jsonb) AS g(id text, name text, required bigint, min bigint, max bigint, position bigint)`,
  insertOptions: `INSERT INTO modifier_options (id, group_id, name, price, position)
    SELECT o.id, o.group_id, o.name, o.price, o.position
    FROM jsonb_to_recordset($1::jsonb) AS o(id text, group_id text, name text, price bigint, position bigint)`,
};

type ModifierGroups = Parameters<MirrorStore['replaceModifiers']>[1];

export class PostgresMirrorStore implements AsyncStore<MirrorStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async upsertRestaurant(id: string, name: string, registerMode: string, timeZone: string, at: number): Promise<void> {
    await this.db.query(SQL.upsertRestaurant, [id, name, registerMode, timeZone, at]);
  }

  location(id: string): Promise<{ known_status: string | null; is_active: number; name: string; address: string } | undefined> {
    return firstRow(this.db, SQL.location, [id]);
  }

  async upsertLocation(id: string, restaurantId: string, name: string, address: string, isActive: boolean, position: number, knownStatus: string): Promise<void> {
    await this.db.query(SQL.upsertLocation, [id, restaurantId, name, address, isActive ? 1 : 0, position, knownStatus]);
  }

  async setKnownStatus(locationId: string, knownStatus: string): Promise<void> {
    await this.db.query(SQL.setKnownStatus, [knownStatus, locationId]);
  }

  async deactivateCatalogue(restaurantId: string): Promise<void> {
    await this.db.query(SQL.deactivateCategories, [restaurantId]);
    await this.db.query(SQL.deactivateProducts, [restaurantId]);
  }

  async upsertCategory(id: string, restaurantId: string, name: string, description: string | null, position: number): Promise<void> {
    await this.db.query(SQL.upsertCategory, [id, restaurantId, name, description, position]);
  }

  async upsertProduct(product: MirroredProduct): Promise<void> {
    await this.db.query(SQL.upsertProduct, PRODUCT_COLUMNS.map((c) => product[c]));
  }

  async replaceModifiers(productId: string, groups: ModifierGroups): Promise<void> {
    await this.db.query(SQL.deleteOptions, [productId]);
    await this.db.query(SQL.deleteGroups, [productId]);
    if (groups.length === 0) return;
    const groupRows = groups.map((g, position) => ({ id: g.id, name: g.name, required: g.required ? 1 : 0, min: g.min, max: g.max, position }));
    await this.db.query(SQL.insertGroups, [productId, JSON.stringify(groupRows)]);
    const optionRows = groups.flatMap((g) => g.options.map((o, position) => ({ id: o.id, group_id: g.id, name: o.name, price: o.price, position })));
    if (optionRows.length > 0) await this.db.query(SQL.insertOptions, [JSON.stringify(optionRows)]);
  }
}
