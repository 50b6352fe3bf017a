// The restaurant file's kitchen settings: stations (which products each prepares, by category or
// by product) and modifier options flagged as allergens. Checked with the rest of the file and
// resolved, at import, into what the engine reads for every ticket.
import { allergenKey, type KitchenSettings, type PrepSettings } from '../domain/kitchen-settings.ts';
import type { RestaurantConfig } from './schema.ts';

type Report = (path: string, message: string) => void;

const stationPath = (s: number, ...rest: (string | number)[]) =>
  `$.stations[${s}]${rest.map((r) => (typeof r === 'number' ? `[${r}]` : `.${r}`)).join('')}`;

/** Every category index a station's reference names: by name, or by id. */
function categoriesNamed(config: RestaurantConfig, reference: string): number[] {
  const found: number[] = [];
  config.catalogue.categories.forEach((category, c) => {
    if (category.name === reference || category.id === reference) found.push(c);
  });
  return found;
}

/** Duplicate station ids, unknown categories and products, and anything claimed by two stations. */
export function checkStations(config: RestaurantConfig, report: Report): void {
  const stations = config.stations ?? [];
  const ids = new Map<string, number>();
  const slugs = new Set(config.catalogue.categories.flatMap((c) => c.products.map((p) => p.slug)));
  const categoryOwner = new Map<number, number>();
  const productOwner = new Map<string, number>();
  stations.forEach((station, s) => {
    const earlier = ids.get(station.id);
    if (earlier !== undefined) report(stationPath(s, 'id'), `duplicate station id "${station.id}" (already used by $.stations[${earlier}])`);
    else ids.set(station.id, s);
    station.categories.forEach((reference, k) => {
      const found = categoriesNamed(config, reference);
      if (found.length === 0) {
        report(stationPath(s, 'categories', k), `unknown category "${reference}" (name or id of a category of $.catalogue.categories)`);
      }
      for (const c of found) {
        const owner = categoryOwner.get(c);
        if (owner !== undefined && owner !== s) {
          report(stationPath(s, 'categories', k), `category "${reference}" already belongs to station "${stations[owner]!.id}"`);
        } else categoryOwner.set(c, s);
      }
    });
    (station.cooks_by_hour ?? []).forEach((shift, k) => {
      if (shift.to_hour <= shift.from_hour) report(stationPath(s, 'cooks_by_hour', k, 'to_hour'), `a shift ends after it begins (from_hour ${shift.from_hour}); one past midnight is written as two`);
      const overlapped = (station.cooks_by_hour ?? []).findIndex((other, j) => j < k && shift.from_hour < other.to_hour && other.from_hour < shift.to_hour);
      if (overlapped >= 0) report(stationPath(s, 'cooks_by_hour', k), `overlaps $.stations[${s}].cooks_by_hour[${overlapped}]`);
    });
    station.products.forEach((slug, k) => {
      if (!slugs.has(slug)) report(stationPath(s, 'products', k), `unknown product "${slug}" (the slug of a product of $.catalogue)`);
      const owner = productOwner.get(slug);
      if (owner !== undefined && owner !== s) {
        report(stationPath(s, 'products', k), `product "${slug}" is already listed by station "${stations[owner]!.id}"`);
      } else productOwner.set(slug, s);
    });
  });
}

/** The kitchen settings of a valid file, with product ids as imported (by slug). */
export function resolveKitchenSettings(config: RestaurantConfig, productIds: Record<string, string>): KitchenSettings {
  const stations = config.stations ?? [];
  const product_stations: Record<string, string> = {};
  // Categories first, then products, so a product's own station wins.
  for (const station of stations) {
    for (const reference of station.categories) {
      for (const c of categoriesNamed(config, reference)) {
        for (const product of config.catalogue.categories[c]!.products) product_stations[productIds[product.slug]!] = station.id;
      }
    }
  }
  for (const station of stations) {
    for (const slug of station.products) product_stations[productIds[slug]!] = station.id;
  }
  const allergens: Record<string, string[]> = {};
  for (const category of config.catalogue.categories) {
    for (const product of category.products) {
      const flagged = product.modifier_groups.flatMap((group) =>
        group.options.filter((option) => option.allergen === true).map((option) => allergenKey(group.name, option.name)),
      );
      if (flagged.length > 0) allergens[productIds[product.slug]!] = flagged;
    }
  }
  return {
    stations: stations.map((s) => ({ id: s.id, name: s.name })),
    product_stations,
    allergens,
    allergy_words: config.allergy_words ?? [],
    prep: resolvePrepSettings(config, productIds),
    station_cooks: Object.fromEntries(stations.map((s) => [s.id, s.cooks ?? 1])),
    ...(stations.some((s) => s.units_at_once !== undefined || s.max_units_at_once !== undefined)
      ? {
          station_units: Object.fromEntries(
            stations
              .filter((s) => s.units_at_once !== undefined || s.max_units_at_once !== undefined)
              .map((s) => [s.id, { units_at_once: s.units_at_once ?? 1, ...(s.max_units_at_once === undefined ? {} : { max_units_at_once: s.max_units_at_once }) }]),
          ),
        }
      : {}),
    ...(stations.some((s) => s.cooks_by_hour?.length)
      ? { station_cooks_by_hour: Object.fromEntries(stations.filter((s) => s.cooks_by_hour?.length).map((s) => [s.id, s.cooks_by_hour!])) }
      : {}),
    ...(config.promise_quantile === undefined ? {} : { promise_quantile: config.promise_quantile }),
    ...(config.busy_mode === undefined ? {} : { busy_mode: config.busy_mode }),
  };
}

/** Typed prep times in seconds, by product id, and the options' adjustments by the names an order line carries. */
function resolvePrepSettings(config: RestaurantConfig, productIds: Record<string, string>): PrepSettings {
  const prep: PrepSettings = { product_seconds: {}, option_seconds: {} };
  for (const category of config.catalogue.categories) {
    for (const product of category.products) {
      const id = productIds[product.slug]!;
      if (product.prep_minutes !== undefined) prep.product_seconds[id] = Math.round(product.prep_minutes * 60);
      const options: Record<string, number> = {};
      for (const group of product.modifier_groups) {
        for (const option of group.options) {
          if (option.prep_minutes !== undefined && option.prep_minutes !== 0) options[allergenKey(group.name, option.name)] = Math.round(option.prep_minutes * 60);
        }
      }
      if (Object.keys(options).length > 0) prep.option_seconds[id] = options;
    }
  }
  return prep;
}
