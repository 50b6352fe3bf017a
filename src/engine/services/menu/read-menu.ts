import { mapInOrder } from '../../../shared/in-order.ts';
import type { Static } from 'typebox';
import type { Menu } from '../../../shared/schemas/menu.ts';
import { invalidRequest } from '../../domain/errors.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import type { Actor } from '../../domain/actor.ts';
import { restaurantOf } from '../keys/restaurant-context.ts';
import { soldOutAt, soldOutByLocation, type SoldOutAt } from './sold-out.ts';

/** GET /menu's answer: the static type of the schema that documents it, so the two cannot drift. */
export type MenuView = Static<typeof Menu>;

/**
 * The menu with availability from stock and the sold-out switch: at `locationId` when given,
 * otherwise at any active location (available at one of them). Untracked products are available
 * unless switched sold out; an option is available unless switched sold out (services/menu/sold-out.ts).
 */
export async function readMenu(engine: Engine, actor: Actor, locationId?: string, callerTx?: ReadTransaction): Promise<MenuView> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const now = engine.clock.now();
    let productAvailable: (productId: string, tracked: boolean) => boolean;
    let optionAvailable: (optionId: string) => boolean;
    if (locationId !== undefined) {
      const location = await tx.stores.locations.get(restaurant.id, locationId.toLowerCase());
      if (!location) throw invalidRequest(`location_id: unknown location ${locationId}`);
      const quantities = await tx.stores.stock.quantitiesAt(location.id);
      const soldOut = await soldOutAt(engine, tx, location.id, now);
      productAvailable = (productId, tracked) => !soldOut.products.has(productId) && (!tracked || (quantities.get(productId) ?? 0) > 0);
      optionAvailable = (optionId) => !soldOut.options.has(optionId);
    } else {
      const anywhere = await tx.stores.stock.productsInStockAnywhere(restaurant.id);
      const soldOut = await soldOutByLocation(engine, tx, restaurant.id, now);
      if (soldOut.size === 0) {
        productAvailable = (productId, tracked) => !tracked || anywhere.has(productId);
        optionAvailable = () => true;
      } else {
        // Marks exist somewhere: available where some active location neither lacks it nor switched it off.
        const active = (await tx.stores.locations.list(restaurant.id)).filter((l) => l.is_active === 1);
        const quantities = new Map(await mapInOrder(active, async (l) => [l.id, await tx.stores.stock.quantitiesAt(l.id)] as const));
        const none: SoldOutAt = { products: new Set(), options: new Set() };
        productAvailable = (productId, tracked) =>
          active.some((l) => !(soldOut.get(l.id) ?? none).products.has(productId) && (!tracked || (quantities.get(l.id)!.get(productId) ?? 0) > 0));
        optionAvailable = (optionId) => active.some((l) => !(soldOut.get(l.id) ?? none).options.has(optionId));
      }
    }
    const { categories, products, groups, options } = await tx.stores.catalogue.menu(restaurant.id);
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
          available: productAvailable(p.id, p.track_stock === 1),
          modifier_groups: (groupsByProduct.get(p.id) ?? []).map((g) => ({
            id: g.id,
            name: g.name,
            required: g.required === 1,
            min: g.min,
            max: g.max,
            options: (optionsByGroup.get(g.id) ?? []).map((o) => ({ id: o.id, name: o.name, price: o.price, available: optionAvailable(o.id) })),
          })),
        })),
      })),
    };
  });
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
