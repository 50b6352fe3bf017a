// Writes a validated restaurant configuration file into the engine's database: the restaurant, its
// locations (with schedule exceptions and initial stock) and its catalogue, in one transaction, so
// a refused file leaves no trace.
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Clock } from '../clock.ts';
import type { RestaurantConfig } from './schema.ts';
import { resolveKitchenSettings } from './stations.ts';
import { jsonPath, validateRestaurantConfig, type RestaurantConfigProblem } from './validate-restaurant-config.ts';

/** A configuration that cannot be imported; `errors` lists every problem with its JSON path. */
export class RestaurantConfigError extends Error {
  readonly errors: RestaurantConfigProblem[];

  constructor(errors: RestaurantConfigProblem[]) {
    super(
      `the restaurant configuration has ${errors.length} problem(s):\n${errors.map((e) => `${e.path}: ${e.message}`).join('\n')}`,
    );
    this.name = 'RestaurantConfigError';
    this.errors = errors;
  }
}

export interface ImportedRestaurant {
  restaurantId: string;
  /** In file order. */
  locationIds: string[];
  /** Product id by slug. */
  productIds: Record<string, string>;
}

/**
 * Validates `json` (a parsed configuration file) and writes it. Throws RestaurantConfigError when
 * the file is invalid or one of its ids is already in the database (a restaurant is imported once;
 * there is no update through this path).
 */
export function importRestaurant(db: Database, json: unknown, clock: Clock): ImportedRestaurant {
  const validation = validateRestaurantConfig(json);
  if (!validation.ok) throw new RestaurantConfigError(validation.errors);
  const config = validation.config;
  // IMMEDIATE: take the write lock before the id checks, so no other writer slips in between.
  return db.transaction(() => {
    const taken = idsAlreadyInDatabase(db, config);
    if (taken.length > 0) throw new RestaurantConfigError(taken);
    return writeRestaurant(db, config, clock.now());
  }).immediate();
}

function idsAlreadyInDatabase(db: Database, config: RestaurantConfig): RestaurantConfigProblem[] {
  const problems: RestaurantConfigProblem[] = [];
  const check = (table: string, id: string | undefined, what: string, ...steps: (string | number)[]) => {
    if (id === undefined) return;
    const row = db.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).get(id);
    if (row) problems.push({ path: jsonPath(...steps, 'id'), message: `${what} with id "${id}" already exists in the database` });
  };
  if (config.id !== undefined && db.prepare('SELECT 1 FROM restaurants WHERE id = ?').get(config.id)) {
    // Its locations and catalogue are then taken too; one line says it all.
    return [{ path: '$.id', message: `a restaurant with id "${config.id}" was already imported; importing a restaurant again is refused` }];
  }
  config.locations.forEach((location, l) => check('locations', location.id, 'a location', 'locations', l));
  config.catalogue.categories.forEach((category, c) => {
    check('categories', category.id, 'a category', 'catalogue', 'categories', c);
    category.products.forEach((product, p) => {
      const productSteps = ['catalogue', 'categories', c, 'products', p] as const;
      check('products', product.id, 'a product', ...productSteps);
      product.modifier_groups.forEach((group, g) => {
        check('modifier_groups', group.id, 'a modifier group', ...productSteps, 'modifier_groups', g);
        group.options.forEach((option, o) => {
          check('modifier_options', option.id, 'a modifier option', ...productSteps, 'modifier_groups', g, 'options', o);
        });
      });
    });
  });
  return problems;
}

function writeRestaurant(db: Database, config: RestaurantConfig, now: number): ImportedRestaurant {
  const restaurantId = config.id ?? randomUUID();
  db.prepare(
    `INSERT INTO restaurants (id, name, register_mode, time_zone, payment_timeout_minutes, sold_out_resets_at, shipping_subsidies, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    restaurantId,
    config.name,
    config.register_mode,
    config.time_zone,
    config.payment_timeout_minutes,
    config.sold_out_resets_at,
    JSON.stringify(config.shipping_subsidies),
    now,
  );

  const insertCategory = db.prepare(
    'INSERT INTO categories (id, restaurant_id, name, description, active, position) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertProduct = db.prepare(
    `INSERT INTO products (id, restaurant_id, category_id, slug, name, description, price, offer_price, image_url, active, track_stock, position)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertGroup = db.prepare(
    'INSERT INTO modifier_groups (id, product_id, name, required, min, max, position) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertOption = db.prepare('INSERT INTO modifier_options (id, group_id, name, price, position) VALUES (?, ?, ?, ?, ?)');

  const productIds: Record<string, string> = {};
  config.catalogue.categories.forEach((category, categoryPosition) => {
    const categoryId = category.id ?? randomUUID();
    insertCategory.run(categoryId, restaurantId, category.name, category.description ?? null, bit(category.active), categoryPosition);
    category.products.forEach((product, productPosition) => {
      const productId = product.id ?? randomUUID();
      productIds[product.slug] = productId;
      insertProduct.run(
        productId,
        restaurantId,
        categoryId,
        product.slug,
        product.name,
        product.description ?? null,
        product.price,
        product.offer_price ?? null,
        product.image_url ?? null,
        bit(product.active),
        bit(product.track_stock),
        productPosition,
      );
      product.modifier_groups.forEach((group, groupPosition) => {
        const groupId = group.id ?? randomUUID();
        insertGroup.run(groupId, productId, group.name, bit(group.required), group.min, group.max, groupPosition);
        group.options.forEach((option, optionPosition) => {
          insertOption.run(option.id ?? randomUUID(), groupId, option.name, option.price, optionPosition);
        });
      });
    });
  });

  const insertLocation = db.prepare(
    `INSERT INTO locations (id, restaurant_id, name, address, latitude, longitude, is_active, register_open, weekly_schedule,
                            preparation_lead_minutes, delivery, position)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertException = db.prepare(
    `INSERT INTO location_exceptions (location_id, local_date, closed, hours, label, source) VALUES (?, ?, ?, ?, ?, 'config')`,
  );
  const insertStock = db.prepare('INSERT INTO stock (location_id, product_id, quantity) VALUES (?, ?, ?)');

  const locationIds = config.locations.map((location, position) => {
    const locationId = location.id ?? randomUUID();
    insertLocation.run(
      locationId,
      restaurantId,
      location.name,
      location.address,
      location.latitude ?? null,
      location.longitude ?? null,
      bit(location.is_active),
      bit(location.register_open),
      JSON.stringify(location.weekly_schedule),
      location.preparation_lead_minutes,
      JSON.stringify(location.delivery),
      position,
    );
    for (const exception of location.exceptions ?? []) {
      insertException.run(locationId, exception.date, bit(exception.closed), JSON.stringify(exception.hours), exception.label ?? null);
    }
    // The validator has checked that every slug here names a product with track_stock.
    for (const [slug, quantity] of Object.entries(location.stock ?? {})) {
      const productId = productIds[slug];
      if (productId !== undefined) insertStock.run(locationId, productId, quantity);
    }
    return locationId;
  });

  db.prepare('INSERT INTO kitchen_settings (restaurant_id, settings, updated_at) VALUES (?, ?, ?)').run(
    restaurantId,
    JSON.stringify(resolveKitchenSettings(config, productIds)),
    now,
  );

  return { restaurantId, locationIds, productIds };
}

function bit(flag: boolean): 0 | 1 {
  return flag ? 1 : 0;
}
