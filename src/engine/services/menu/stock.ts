import { filterInOrder } from '../../../shared/in-order.ts';
import { invalidRequest } from '../../domain/errors.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import type { LocationRow } from '../../store/locations-store.ts';
import { isTestWorld, type Actor } from '../../domain/actor.ts';
import { requireWrite, restaurantOf } from '../keys/restaurant-context.ts';
import { recordStockChange } from './stock-events.ts';

export interface StockEntryView {
  product_id: string;
  name: string;
  quantity: number;
}

async function locationOf(engine: Engine, tx: ReadTransaction, restaurantId: string, locationId: string | undefined): Promise<LocationRow> {
  if (locationId === undefined) throw invalidRequest('location_id is required');
  const location = await tx.stores.locations.get(restaurantId, locationId.toLowerCase());
  if (!location) throw invalidRequest(`location_id: unknown location ${locationId}`);
  return location;
}

/** Tracked products at a location; one with no stock row has 0. */
export async function readStock(engine: Engine, actor: Actor, locationId: string | undefined, callerTx?: ReadTransaction): Promise<{ data: StockEntryView[] }> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const location = await locationOf(engine, tx, restaurant.id, locationId);
    const quantities = await tx.stores.stock.quantitiesAt(location.id);
    return {
      data: (await tx.stores.catalogue
        .trackedProductsOf(restaurant.id))
        .map((p) => ({ product_id: p.id, name: p.name, quantity: quantities.get(p.id) ?? 0 })),
    };
  });
}

export interface SetStockInput {
  location_id: string;
  items: { product_id: string; quantity: number }[];
}

export interface SetStockResult {
  data: { product_id: string; quantity: number }[];
  simulated: boolean;
}

/**
 * Sets absolute quantities. Untracked or unknown products refuse the whole write (400 naming
 * them). A sandbox key gets the same answer, marked simulated, and changes nothing.
 */
export async function setStock(engine: Engine, actor: Actor, input: SetStockInput, tx?: WriteTransaction): Promise<SetStockResult> {
  requireWrite(actor);
  return await engine.within(tx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const location = await locationOf(engine, tx, restaurant.id, input.location_id);
    const items = input.items.map((i) => ({ product_id: i.product_id.toLowerCase(), quantity: i.quantity }));
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(item.product_id)) throw invalidRequest(`items[${index}].product_id repeats product ${item.product_id}`);
      seen.add(item.product_id);
    });
    const unknown = (await filterInOrder(items, async (i) => !(await tx.stores.catalogue.product(restaurant.id, i.product_id)))).map((i) => i.product_id);
    if (unknown.length > 0) throw invalidRequest(`unknown products: ${unknown.join(', ')}`);
    const untracked = (await filterInOrder(items, async (i) => (await tx.stores.catalogue.product(restaurant.id, i.product_id))!.track_stock !== 1)).map(
      (i) => i.product_id,
    );
    if (untracked.length > 0) {
      throw invalidRequest(`products without track_stock cannot have stock: ${untracked.join(', ')}`);
    }
    const simulated = isTestWorld(actor);
    if (!simulated) {
      for (const item of items) await tx.stores.stock.set(location.id, item.product_id, item.quantity);
      await recordStockChange(engine, tx, restaurant.id, location.id, items.map((i) => i.product_id), engine.clock.now());
    }
    return { data: items, simulated };
  });
}
