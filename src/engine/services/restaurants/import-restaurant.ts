import { mapInOrder } from '../../../shared/in-order.ts';
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
export async function importRestaurant(engine: Engine, json: unknown, tx?: WriteTransaction): Promise<ImportedRestaurant> {
  const validation = validateRestaurantConfig(json);
  if (!validation.ok) throw new RestaurantConfigError(validation.errors);
  const config = validation.config;
  // Engine.transaction is IMMEDIATE: the write lock is taken before the id checks, so no other writer slips in between.
  return await engine.within(tx, async (tx) => {
    const rows = tx.stores.restaurantImport;
    const taken = await idsAlreadyInDatabase(rows, config);
    if (taken.length > 0) throw new RestaurantConfigError(taken);
    return await writeRestaurant(rows, config, tx.clock.now());
  });
}

async function idsAlreadyInDatabase(rows: RestaurantImportStore, config: RestaurantConfig): Promise<RestaurantConfigProblem[]> {
  const problems: RestaurantConfigProblem[] = [];
  const check = async (table: ImportedTable, id: string | undefined, what: string, ...steps: (string | number)[]) => {
    if (id === undefined) return;
    if (await rows.taken(table, id)) problems.push({ path: jsonPath(...steps, 'id'), message: `${what} with id "${id}" already exists in the database` });
  };
  if (config.id !== undefined && await rows.taken('restaurants', config.id)) {
    // Its locations and catalogue are then taken too; one line says it all.
    return [{ path: '$.id', message: `a restaurant with id "${config.id}" was already imported; importing a restaurant again is refused` }];
  }
  for (const [l, location] of config.locations.entries()) await check('locations', location.id, 'a location', 'locations', l);
  for (const [c, category] of config.catalogue.categories.entries()) {
    await check('categories', category.id, 'a category', 'catalogue', 'categories', c);
    for (const [p, product] of category.products.entries()) {
      const productSteps = ['catalogue', 'categories', c, 'products', p] as const;
      await check('products', product.id, 'a product', ...productSteps);
      for (const [g, group] of product.modifier_groups.entries()) {
        await check('modifier_groups', group.id, 'a modifier group', ...productSteps, 'modifier_groups', g);
        for (const [o, option] of group.options.entries()) {
          await check('modifier_options', option.id, 'a modifier option', ...productSteps, 'modifier_groups', g, 'options', o);
        }
      }
    }
  }
  return problems;
}

async function writeRestaurant(rows: RestaurantImportStore, config: RestaurantConfig, now: number): Promise<ImportedRestaurant> {
  const restaurantId = config.id ?? randomUUID();
  await rows.insertRestaurant({
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
  for (const [categoryPosition, category] of config.catalogue.categories.entries()) {
    const categoryId = category.id ?? randomUUID();
    await rows.insertCategory(categoryId, restaurantId, category.name, category.description ?? null, bit(category.active), categoryPosition);
    for (const [productPosition, product] of category.products.entries()) {
      const productId = product.id ?? randomUUID();
      productIds[product.slug] = productId;
      await rows.insertProduct({
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
      for (const [groupPosition, group] of product.modifier_groups.entries()) {
        const groupId = group.id ?? randomUUID();
        await rows.insertModifierGroup(groupId, productId, group.name, bit(group.required), group.min, group.max, groupPosition);
        for (const [optionPosition, option] of group.options.entries()) {
          await rows.insertModifierOption(option.id ?? randomUUID(), groupId, option.name, option.price, optionPosition);
        }
      }
    }
  }

  const locationIds = (await mapInOrder(config.locations, async (location, position) => {
    const locationId = location.id ?? randomUUID();
    await rows.insertLocation({
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
      await rows.insertException(locationId, exception.date, bit(exception.closed), JSON.stringify(exception.hours), exception.label ?? null);
    }
    // The validator has checked that every slug here names a product with track_stock.
    for (const [slug, quantity] of Object.entries(location.stock ?? {})) {
      const productId = productIds[slug];
      if (productId !== undefined) await rows.insertStock(locationId, productId, quantity);
    }
    return locationId;
  }));

  await rows.insertKitchenSettings(restaurantId, JSON.stringify(resolveKitchenSettings(config, productIds)), now);
  return { restaurantId, locationIds, productIds };
}

function bit(flag: boolean): 0 | 1 {
  return flag ? 1 : 0;
}
