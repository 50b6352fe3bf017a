import type { Database, Statement } from 'better-sqlite3';
import type { ProductRow } from './catalogue-store.ts';

/** A product as the upstream's menu shows it, with what the replica adds (tracking, position). */
export type MirroredProduct = Omit<ProductRow, 'active' | 'orderable'> & { position: number };

/** The writes a replica makes to mirror its upstream's restaurant, catalogue and locations. */
export class MirrorStore {
  private readonly upsertRestaurantStatement: Statement<[string, string, string, string, number]>;
  private readonly locationSnapshot: Statement<[string], { known_status: string | null; is_active: number; name: string; address: string }>;
  private readonly upsertLocationStatement: Statement<[string, string, string, string, number, number, string]>;
  private readonly setKnownStatusStatement: Statement<[string, string]>;
  private readonly deactivateCategories: Statement<[string]>;
  private readonly deactivateProducts: Statement<[string]>;
  private readonly upsertCategoryStatement: Statement<[string, string, string, string | null, number]>;
  private readonly upsertProductStatement: Statement<[MirroredProduct]>;
  private readonly deleteOptions: Statement<[string]>;
  private readonly deleteGroups: Statement<[string]>;
  private readonly insertGroup: Statement<[string, string, string, number, number, number, number]>;
  private readonly insertOption: Statement<[string, string, string, number, number]>;

  constructor(db: Database) {
    this.upsertRestaurantStatement = db.prepare(
      `INSERT INTO restaurants (id, name, register_mode, time_zone, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, register_mode = excluded.register_mode`,
    );
    this.locationSnapshot = db.prepare('SELECT known_status, is_active, name, address FROM locations WHERE id = ?');
    this.upsertLocationStatement = db.prepare(
      `INSERT INTO locations (id, restaurant_id, name, address, is_active, position, known_status) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, address = excluded.address, is_active = excluded.is_active,
         known_status = excluded.known_status`,
    );
    this.setKnownStatusStatement = db.prepare('UPDATE locations SET known_status = ? WHERE id = ?');
    this.deactivateCategories = db.prepare('UPDATE categories SET active = 0 WHERE restaurant_id = ?');
    this.deactivateProducts = db.prepare('UPDATE products SET active = 0 WHERE restaurant_id = ?');
    this.upsertCategoryStatement = db.prepare(
      `INSERT INTO categories (id, restaurant_id, name, description, active, position) VALUES (?, ?, ?, ?, 1, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description, active = 1, position = excluded.position`,
    );
    this.upsertProductStatement = db.prepare(
      `INSERT INTO products (id, restaurant_id, category_id, slug, name, description, price, offer_price, image_url, active, track_stock, position)
       VALUES (@id, @restaurant_id, @category_id, @slug, @name, @description, @price, @offer_price, @image_url, 1, @track_stock, @position)
       ON CONFLICT (id) DO UPDATE SET category_id = excluded.category_id, slug = excluded.slug, name = excluded.name,
         description = excluded.description, price = excluded.price, offer_price = excluded.offer_price,
         image_url = excluded.image_url, active = 1, track_stock = excluded.track_stock, position = excluded.position`,
    );
    this.deleteOptions = db.prepare(
      'DELETE FROM modifier_options WHERE group_id IN (SELECT id FROM modifier_groups WHERE product_id = ?)',
    );
    this.deleteGroups = db.prepare('DELETE FROM modifier_groups WHERE product_id = ?');
    this.insertGroup = db.prepare(
      'INSERT INTO modifier_groups (id, product_id, name, required, min, max, position) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertOption = db.prepare('INSERT INTO modifier_options (id, group_id, name, price, position) VALUES (?, ?, ?, ?, ?)');
  }

  upsertRestaurant(id: string, name: string, registerMode: string, timeZone: string, at: number): void {
    this.upsertRestaurantStatement.run(id, name, registerMode, timeZone, at);
  }

  location(id: string) {
    return this.locationSnapshot.get(id);
  }

  upsertLocation(id: string, restaurantId: string, name: string, address: string, isActive: boolean, position: number, knownStatus: string): void {
    this.upsertLocationStatement.run(id, restaurantId, name, address, isActive ? 1 : 0, position, knownStatus);
  }

  setKnownStatus(locationId: string, knownStatus: string): void {
    this.setKnownStatusStatement.run(knownStatus, locationId);
  }

  /** Before a catalogue is mirrored: whatever it does not list again is no longer on sale. */
  deactivateCatalogue(restaurantId: string): void {
    this.deactivateCategories.run(restaurantId);
    this.deactivateProducts.run(restaurantId);
  }

  upsertCategory(id: string, restaurantId: string, name: string, description: string | null, position: number): void {
    this.upsertCategoryStatement.run(id, restaurantId, name, description, position);
  }

  upsertProduct(product: MirroredProduct): void {
    this.upsertProductStatement.run(product);
  }

  replaceModifiers(
    productId: string,
    groups: { id: string; name: string; required: boolean; min: number; max: number; options: { id: string; name: string; price: number }[] }[],
  ): void {
    this.deleteOptions.run(productId);
    this.deleteGroups.run(productId);
    groups.forEach((group, groupPosition) => {
      this.insertGroup.run(group.id, productId, group.name, group.required ? 1 : 0, group.min, group.max, groupPosition);
      group.options.forEach((option, optionPosition) => this.insertOption.run(option.id, group.id, option.name, option.price, optionPosition));
    });
  }
}
