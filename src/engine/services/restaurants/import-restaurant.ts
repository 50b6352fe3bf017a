// The use case of the restaurant file: validates it (restaurant-config/, pure) and writes the
// restaurant, its locations (with schedule exceptions and initial stock) and its catalogue in one
// transaction, so a refused file leaves no trace. A service like any other: the rows go through
// store/restaurant-import-store.ts on the transaction's handle.
import { randomUUID } from 'node:crypto';
import type { Engine, WriteTransaction } from '../../engine.ts';
import type { RestaurantConfig } from '../../restaurant-config/schema.ts';
import { resolveKitchenSettings } from '../../restaurant-config/stations.ts';
import { jsonPath, validateRestaurantConfig, type RestaurantConfigProblem } from '../../restaurant-config/validate-restaurant-config.ts';

/** The file's rows, as the open transaction writes them (store/restaurant-import-store.ts). */
type RestaurantImportStore = WriteTransaction['stores']['restaurantImport'];
type ImportedTable = Parameters<RestaurantImportStore['taken']>[0];

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
 * Validates `json` (a parsed configuration file) and writes it, in one transaction of the engine
 * (so a damaged file is refused, a full disk retried, and nothing is left of a refused file).
 * `tx`: the caller's transaction, when it imports several files together (demo/seed-demo.ts).
 * Throws RestaurantConfigError when the file is invalid or one of its ids is already in the
 * database (a restaurant is imported once; there is no update through this path).
 */
export function importRestaurant(engine: Engine, json: unknown, tx?: WriteTransaction): ImportedRestaurant {
  const validation = validateRestaurantConfig(json);
  if (!validation.ok) throw new RestaurantConfigError(validation.errors);
  const config = validation.config;
  // Engine.transaction is IMMEDIATE: the write lock is taken before the id checks, so no other writer slips in between.
  return engine.within(tx, (tx) => {
    const rows = tx.stores.restaurantImport;
    const taken = idsAlreadyInDatabase(rows, config);
    if (taken.length > 0) throw new RestaurantConfigError(taken);
    return writeRestaurant(rows, config, tx.clock.now());
  });
}

function idsAlreadyInDatabase(rows: RestaurantImportStore, config: RestaurantConfig): RestaurantConfigProblem[] {
  const problems: RestaurantConfigProblem[] = [];
  const check = (table: ImportedTable, id: string | undefined, what: string, ...steps: (string | number)[]) => {
    if (id === undefined) return;
    if (rows.taken(table, id)) problems.push({ path: jsonPath(...steps, 'id'), message: `${what} with id "${id}" already exists in the database` });
  };
  if (config.id !== undefined && rows.taken('restaurants', config.id)) {
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

function writeRestaurant(rows: RestaurantImportStore, config: RestaurantConfig, now: number): ImportedRestaurant {
  const restaurantId = config.id ?? randomUUID();
  rows.insertRestaurant({
    id: restaurantId,
    name: config.name,
    register_mode: config.register_mode,
    time_zone: config.time_zone,
    payment_timeout_minutes: config.payment_timeout_minutes,
    sold_out_resets_at: config.sold_out_resets_at,
    shipping_subsidies: JSON.stringify(config.shipping_subsidies),
    created_at: now,
  });

  const productIds: Record<string, string> = {};
  config.catalogue.categories.forEach((category, categoryPosition) => {
    const categoryId = category.id ?? randomUUID();
    rows.insertCategory(categoryId, restaurantId, category.name, category.description ?? null, bit(category.active), categoryPosition);
    category.products.forEach((product, productPosition) => {
      const productId = product.id ?? randomUUID();
      productIds[product.slug] = productId;
      rows.insertProduct({
        id: productId,
        restaurant_id: restaurantId,
        category_id: categoryId,
        slug: product.slug,
        name: product.name,
        description: product.description ?? null,
        price: product.price,
        offer_price: product.offer_price ?? null,
        image_url: product.image_url ?? null,
        active: bit(product.active),
        track_stock: bit(product.track_stock),
        position: productPosition,
      });
      product.modifier_groups.forEach((group, groupPosition) => {
        const groupId = group.id ?? randomUUID();
        rows.insertModifierGroup(groupId, productId, group.name, bit(group.required), group.min, group.max, groupPosition);
        group.options.forEach((option, optionPosition) => {
          rows.insertModifierOption(option.id ?? randomUUID(), groupId, option.name, option.price, optionPosition);
        });
      });
    });
  });

  const locationIds = config.locations.map((location, position) => {
    const locationId = location.id ?? randomUUID();
    rows.insertLocation({
      id: locationId,
      restaurant_id: restaurantId,
      name: location.name,
      address: location.address,
      latitude: location.latitude ?? null,
      longitude: location.longitude ?? null,
      is_active: bit(location.is_active),
      register_open: bit(location.register_open),
      weekly_schedule: JSON.stringify(location.weekly_schedule),
      preparation_lead_minutes: location.preparation_lead_minutes,
      delivery: JSON.stringify(location.delivery),
      position,
    });
    for (const exception of location.exceptions ?? []) {
      rows.insertException(locationId, exception.date, bit(exception.closed), JSON.stringify(exception.hours), exception.label ?? null);
    }
    // The validator has checked that every slug here names a product with track_stock.
    for (const [slug, quantity] of Object.entries(location.stock ?? {})) {
      const productId = productIds[slug];
      if (productId !== undefined) rows.insertStock(locationId, productId, quantity);
    }
    return locationId;
  });

  rows.insertKitchenSettings(restaurantId, JSON.stringify(resolveKitchenSettings(config, productIds)), now);
  return { restaurantId, locationIds, productIds };
}

function bit(flag: boolean): 0 | 1 {
  return flag ? 1 : 0;
}
