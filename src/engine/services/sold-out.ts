// The per-location "agotado" (86) switch for any product or option, stock-tracked or not: the
// menu answers `available: false` for it and POST /orders refuses it, until it is switched back
// or the kitchen's day ends (the restaurant's `sold_out_resets_at`). api-v1-decisions.md, "Sold out".
import type { SetSoldOutInput } from '../../shared/schemas/sold-out.ts';
import { isTestWorld, type Actor } from '../domain/actor.ts';
import { invalidRequest } from '../domain/errors.ts';
import { soldOutUntil } from '../domain/sold-out-day.ts';
import { formatInstant, formatNullableInstant } from '../domain/time.ts';
import type { Engine } from '../engine.ts';
import type { LocationRow } from '../store/locations-store.ts';
import type { RestaurantRow } from '../store/restaurants-store.ts';
import type { SoldOutKind, SoldOutRow } from '../store/sold-out-store.ts';
import { requireWrite, restaurantOf } from './restaurant-context.ts';

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

export function soldOutAt(engine: Engine, locationId: string, now: number): SoldOutAt {
  return toSets(engine.stores.soldOut.atLocation(locationId, now));
}

/** Per location of the restaurant, what is sold out there at `now`. */
export function soldOutByLocation(engine: Engine, restaurantId: string, now: number): Map<string, SoldOutAt> {
  const rows = new Map<string, SoldOutRow[]>();
  for (const row of engine.stores.soldOut.inRestaurant(restaurantId, now)) {
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

function locationOf(engine: Engine, restaurantId: string, locationId: string | undefined): LocationRow {
  if (locationId === undefined) throw invalidRequest('location_id is required');
  const location = engine.stores.locations.get(restaurantId, locationId.toLowerCase());
  if (!location) throw invalidRequest(`location_id: unknown location ${locationId}`);
  return location;
}

function listAt(engine: Engine, restaurant: RestaurantRow, location: LocationRow, now: number): SoldOutListView {
  const data: SoldOutEntryView[] = [];
  for (const row of engine.stores.soldOut.atLocation(location.id, now)) {
    const item = row.item_kind === 'product' ? engine.stores.catalogue.product(restaurant.id, row.item_id) : engine.stores.catalogue.option(restaurant.id, row.item_id);
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
export function readSoldOut(engine: Engine, actor: Actor, locationId: string | undefined): SoldOutListView {
  const restaurant = restaurantOf(engine, actor);
  return listAt(engine, restaurant, locationOf(engine, restaurant.id, locationId), engine.clock.now());
}

/**
 * Marks products and options sold out (or available again) at one location, all or nothing: an
 * unknown id refuses the whole write (400 naming it). A sandbox key gets the same answer, marked
 * simulated, and changes nothing (as PUT /stock).
 */
export function setSoldOut(engine: Engine, actor: Actor, input: SetSoldOutInput): SoldOutListView & { simulated: boolean } {
  requireWrite(actor);
  return engine.transaction(() => {
    const restaurant = restaurantOf(engine, actor);
    const location = locationOf(engine, restaurant.id, input.location_id);
    const items = input.items.map((item) => ({ kind: item.kind, id: item.id.toLowerCase(), sold_out: item.sold_out }));
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const key = `${item.kind}:${item.id}`;
      if (seen.has(key)) throw invalidRequest(`items[${index}].id repeats ${item.kind} ${item.id}`);
      seen.add(key);
    });
    const unknown = items.filter((item) =>
      item.kind === 'product' ? !engine.stores.catalogue.product(restaurant.id, item.id) : !engine.stores.catalogue.option(restaurant.id, item.id),
    );
    if (unknown.length > 0) throw invalidRequest(`unknown ${unknown.map((u) => `${u.kind} ${u.id}`).join(', ')}`);
    const now = engine.clock.now();
    const simulated = isTestWorld(actor);
    if (!simulated) {
      engine.stores.soldOut.purgeEnded(location.id, now);
      const until = soldOutUntil(now, restaurant.time_zone, restaurant.sold_out_resets_at);
      for (const item of items) engine.stores.soldOut.set(location.id, item.kind, item.id, item.sold_out, now, until);
    }
    return { ...listAt(engine, restaurant, location, now), simulated };
  });
}
