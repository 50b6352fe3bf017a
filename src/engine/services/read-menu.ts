import type { Static } from 'typebox';
import type { Menu } from '../../shared/schemas/menu.ts';
import { invalidRequest } from '../domain/errors.ts';
import type { Engine } from '../engine.ts';
import type { Actor } from '../domain/actor.ts';
import { restaurantOf } from './restaurant-context.ts';

/** GET /menu's answer: the static type of the schema that documents it, so the two cannot drift. */
export type MenuView = Static<typeof Menu>;

/**
 * The menu with availability from stock: at `locationId` when given, otherwise in stock at any
 * active location. Untracked products are always available.
 */
export function readMenu(engine: Engine, actor: Actor, locationId?: string): MenuView {
  const restaurant = restaurantOf(engine, actor);
  let inStock: (productId: string) => boolean;
  if (locationId !== undefined) {
    const location = engine.locations.get(restaurant.id, locationId.toLowerCase());
    if (!location) throw invalidRequest(`location_id: unknown location ${locationId}`);
    const quantities = engine.stock.quantitiesAt(location.id);
    inStock = (productId) => (quantities.get(productId) ?? 0) > 0;
  } else {
    const anywhere = engine.stock.productsInStockAnywhere(restaurant.id);
    inStock = (productId) => anywhere.has(productId);
  }
  const { categories, products, groups, options } = engine.catalogue.menu(restaurant.id);
  const optionsByGroup = groupBy(options, (o) => o.group_id);
  const groupsByProduct = groupBy(groups, (g) => g.product_id);
  const productsByCategory = groupBy(products, (p) => p.category_id);
  return {
    categories: categories.map((category) => ({
      id: category.id,
      name: category.name,
      description: category.description,
      products: (productsByCategory.get(category.id) ?? []).map((p) => ({
        id: p.id,
        slug: p.slug,
        name: p.name,
        description: p.description,
        price: p.price,
        offer_price: p.offer_price,
        image_url: p.image_url,
        available: p.track_stock !== 1 || inStock(p.id),
        modifier_groups: (groupsByProduct.get(p.id) ?? []).map((g) => ({
          id: g.id,
          name: g.name,
          required: g.required === 1,
          min: g.min,
          max: g.max,
          options: (optionsByGroup.get(g.id) ?? []).map((o) => ({ id: o.id, name: o.name, price: o.price })),
        })),
      })),
    })),
  };
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}
