// The per-location "agotado" (86) switch for any product or option, stock-tracked or not: the
// menu answers `available: false` for it and POST /orders refuses it, until it is switched back
// or the kitchen's day ends (the restaurant's `sold_out_resets_at`). api-v1-decisions.md, "Sold out".
import { filterInOrder } from '../../../shared/in-order.ts';
import type { SoldOutBoardView } from '../../../shared/screen-contract/kitchen.ts';
import type { SetSoldOutInput } from '../../../shared/schemas/sold-out.ts';
import { isTestWorld, type Actor } from '../../domain/actor.ts';
import { invalidRequest, notFound } from '../../domain/errors.ts';
import { soldOutUntil } from '../../domain/sold-out-day.ts';
import { formatInstant, formatNullableInstant } from '../../domain/time.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import type { LocationRow } from '../../store/locations-store.ts';
import type { RestaurantRow } from '../../store/restaurants-store.ts';
import type { SoldOutKind, SoldOutRow } from '../../store/sold-out-store.ts';
import { requireWrite, restaurantOf } from '../keys/restaurant-context.ts';

export interface SoldOutEntryView {
  kind: SoldOutKind;
  id: string;
  name: string;
  product_id: string;
  since: string;
  until: string | null;
}

export interface SoldOutListView {
  location_id: string;
  data: SoldOutEntryView[];
}

/** What is sold out at a location at `now`, as two sets of ids. */
export interface SoldOutAt {
  products: ReadonlySet<string>;
  options: ReadonlySet<string>;
}

export async function soldOutAt(engine: Engine, tx: ReadTransaction, locationId: string, now: number): Promise<SoldOutAt> {
  return toSets(await tx.stores.soldOut.atLocation(locationId, now));
}

/** Per location of the restaurant, what is sold out there at `now`. */
export async function soldOutByLocation(engine: Engine, tx: ReadTransaction, restaurantId: string, now: number): Promise<Map<string, SoldOutAt>> {
  const rows = new Map<string, SoldOutRow[]>();
  for (const row of await tx.stores.soldOut.inRestaurant(restaurantId, now)) {
    const list = rows.get(row.location_id) ?? [];
    list.push(row);
    rows.set(row.location_id, list);
  }
  return new Map([...rows].map(([locationId, list]) => [locationId, toSets(list)]));
}

function toSets(rows: SoldOutRow[]): SoldOutAt {
  const products = new Set<string>();
  const options = new Set<string>();
  for (const row of rows) (row.item_kind === 'product' ? products : options).add(row.item_id);
  return { products, options };
}

async function locationOf(engine: Engine, tx: ReadTransaction, restaurantId: string, locationId: string | undefined): Promise<LocationRow> {
  if (locationId === undefined) throw invalidRequest('location_id is required');
  const location = await tx.stores.locations.get(restaurantId, locationId.toLowerCase());
  if (!location) throw invalidRequest(`location_id: unknown location ${locationId}`);
  return location;
}

async function listAt(engine: Engine, tx: ReadTransaction, restaurant: RestaurantRow, location: LocationRow, now: number): Promise<SoldOutListView> {
  const data: SoldOutEntryView[] = [];
  for (const row of await tx.stores.soldOut.atLocation(location.id, now)) {
    const item = row.item_kind === 'product' ? await tx.stores.catalogue.product(restaurant.id, row.item_id) : await tx.stores.catalogue.option(restaurant.id, row.item_id);
    // A mark whose dish left the catalogue (a new restaurant file) has nothing left to say.
    if (!item) continue;
    data.push({
      kind: row.item_kind,
      id: row.item_id,
      name: item.name,
      product_id: 'product_id' in item ? item.product_id : item.id,
      since: formatInstant(row.since, restaurant.time_zone),
      until: formatNullableInstant(row.until, restaurant.time_zone),
    });
  }
  return { location_id: location.id, data };
}

/** GET /sold-out: what is sold out at the location now (any key of the restaurant). */
export async function readSoldOut(engine: Engine, actor: Actor, locationId: string | undefined, callerTx?: ReadTransaction): Promise<SoldOutListView> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    return await listAt(engine, tx, restaurant, await locationOf(engine, tx, restaurant.id, locationId), engine.clock.now());
  });
}

/**
 * Marks products and options sold out (or available again) at one location, all or nothing: an
 * unknown id refuses the whole write (400 naming it). A sandbox key gets the same answer, marked
 * simulated, and changes nothing (as PUT /stock).
 */
export async function setSoldOut(engine: Engine, actor: Actor, input: SetSoldOutInput, tx?: WriteTransaction): Promise<SoldOutListView & { simulated: boolean }> {
  requireWrite(actor);
  return await engine.within(tx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const location = await locationOf(engine, tx, restaurant.id, input.location_id);
    const items = input.items.map((item) => ({ kind: item.kind, id: item.id.toLowerCase(), sold_out: item.sold_out }));
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const key = `${item.kind}:${item.id}`;
      if (seen.has(key)) throw invalidRequest(`items[${index}].id repeats ${item.kind} ${item.id}`);
      seen.add(key);
    });
    const unknown = await filterInOrder(items, async (item) =>
      item.kind === 'product' ? !await tx.stores.catalogue.product(restaurant.id, item.id) : !await tx.stores.catalogue.option(restaurant.id, item.id),
    );
    if (unknown.length > 0) throw invalidRequest(`unknown ${unknown.map((u) => `${u.kind} ${u.id}`).join(', ')}`);
    const now = engine.clock.now();
    const simulated = isTestWorld(actor);
    if (!simulated) {
      await tx.stores.soldOut.purgeEnded(location.id, now);
      const until = soldOutUntil(now, restaurant.time_zone, restaurant.sold_out_resets_at);
      for (const item of items) await tx.stores.soldOut.set(location.id, item.kind, item.id, item.sold_out, now, until);
    }
    return { ...await listAt(engine, tx, restaurant, location, now), simulated };
  });
}

/** The Stock screen's list: every dish on the menu (tracked or not) and its options, each with its switch. */
export async function readSoldOutBoard(engine: Engine, actor: Actor, locationId: string, callerTx?: ReadTransaction): Promise<Omit<SoldOutBoardView, 'world' | 'simulated'>> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const location = await locationOf(engine, tx, restaurant.id, locationId);
    const now = engine.clock.now();
    const marks = await tx.stores.soldOut.atLocation(location.id, now);
    const productMarks = new Map(marks.filter((m) => m.item_kind === 'product').map((m) => [m.item_id, m]));
    const optionMarks = new Set(marks.filter((m) => m.item_kind === 'option').map((m) => m.item_id));
    const quantities = await tx.stores.stock.quantitiesAt(location.id);
    const { categories, products, groups, options } = await tx.stores.catalogue.menu(restaurant.id);
    const categoryName = new Map(categories.map((c) => [c.id, c.name]));
    const groupsOf = new Map<string, { id: string; name: string }[]>();
    for (const group of groups) groupsOf.set(group.product_id, [...(groupsOf.get(group.product_id) ?? []), group]);
    const optionsOf = new Map<string, typeof options>();
    for (const option of options) optionsOf.set(option.group_id, [...(optionsOf.get(option.group_id) ?? []), option]);
    return {
      location_id: location.id,
      products: products
        .filter((p) => categoryName.has(p.category_id))
        .map((p) => ({
          product_id: p.id,
          name: p.name,
          category: categoryName.get(p.category_id)!,
          quantity: p.track_stock === 1 ? (quantities.get(p.id) ?? 0) : null,
          sold_out: productMarks.has(p.id),
          sold_out_until: productMarks.get(p.id)?.until ?? null,
          options: (groupsOf.get(p.id) ?? []).flatMap((g) =>
            (optionsOf.get(g.id) ?? []).map((o) => ({ option_id: o.id, group: g.name, name: o.name, sold_out: optionMarks.has(o.id) })),
          ),
        })),
    };
  });
}

/** From a kitchen ticket: the dish of one line of an order, and where the order is (to switch it sold out there). */
export async function orderItemDish(engine: Engine, actor: Actor, orderId: string, itemIndex: number, callerTx?: ReadTransaction): Promise<{ product_id: string; name: string; location_id: string }> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const order = await tx.stores.orders.getById(orderId.toLowerCase());
    if (!order || order.restaurant_id !== restaurant.id) throw notFound(`order ${orderId} not found`);
    const item = (JSON.parse(order.items) as { product_id: string | null; name: string }[])[itemIndex];
    if (!item) throw invalidRequest(`item_index: order ${order.number} has no line ${itemIndex}`);
    if (item.product_id === null || order.location_id === null) {
      throw invalidRequest(`item_index: line ${itemIndex} of order ${order.number} is no longer a dish of the menu`);
    }
    return { product_id: item.product_id, name: item.name, location_id: order.location_id };
  });
}
