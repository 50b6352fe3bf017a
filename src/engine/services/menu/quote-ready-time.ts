import { mapInOrder } from '../../../shared/in-order.ts';
import type { ReadyTimeQuoteInput } from '../../../shared/schemas/orders.ts';
import { invalidRequest } from '../../domain/errors.ts';
import { chooseModifiers } from '../../domain/order-pricing.ts';
import type { PrepLine } from '../../domain/prep-times.ts';
import type { Actor } from '../../domain/actor.ts';
import type { Engine } from '../../engine.ts';
import { promiseFor, readKitchenLoad, toPromiseView, type PromiseView } from '../kitchen/kitchen-promise.ts';
import { restaurantOf } from '../keys/restaurant-context.ts';

/**
 * When a cart ordered now would be ready (POST /ready-time-quotes): the same promise POST /orders
 * gives, computed in a read transaction, nothing written. Products and modifier choices are checked
 * as an order's are (400 naming the line); stock and opening hours are not (the order says so).
 */
export async function quoteReadyTime(engine: Engine, actor: Actor, input: ReadyTimeQuoteInput): Promise<PromiseView & { location_id: string }> {
  return await engine.read(async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const location = await tx.stores.locations.get(restaurant.id, input.location_id.toLowerCase());
    if (!location) throw invalidRequest(`location_id: unknown location ${input.location_id}`);
    const lines: PrepLine[] = (await mapInOrder(input.items, async (item, index) => {
      const path = `items[${index}]`;
      const product = await tx.stores.catalogue.product(restaurant.id, item.product_id.toLowerCase());
      if (!product) throw invalidRequest(`${path}.product_id: unknown product ${item.product_id}`);
      if (product.orderable !== 1) throw invalidRequest(`${path}.product_id: product ${product.id} (${product.name}) is not on sale`);
      const modifiers = chooseModifiers(
        product,
        (await tx.stores.catalogue.modifierGroups(product.id)).map((g) => ({ ...g, required: g.required === 1 })),
        await tx.stores.catalogue.modifierOptions(product.id),
        (item.modifier_option_ids ?? []).map((id) => id.toLowerCase()),
        path,
      );
      return { product_id: product.id, quantity: item.quantity, modifiers };
    }));
    const load = await readKitchenLoad(engine, restaurant.id, location.id, engine.clock.now(), actor.world, undefined, tx);
    return { location_id: location.id, ...toPromiseView(promiseFor(load, lines), load, restaurant.time_zone) };
  });
}
