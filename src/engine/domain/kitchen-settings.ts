import type { KitchenStation } from '../../shared/screen-contract/kitchen.ts';
import type { BusyModeSettings } from './busy-mode.ts';
import type { CooksShift } from './cooks-schedule.ts';
import type { StationUnits } from './station-capacity.ts';

/**
 * The restaurant file's kitchen settings, resolved at import: each product's station (its own or its
 * category's) and the modifier options flagged as allergens, by the names an order line carries.
 */
export interface KitchenSettings {
  stations: KitchenStation[];
  /** Product id → station id. */
  product_stations: Record<string, string>;
  /** Product id → allergen options, each as `allergenKey(group, option)`. */
  allergens: Record<string, string[]>;
  /** The restaurant's own words marking a note as an allergy (absent in settings imported before them). */
  allergy_words?: string[];
  /** Typed prep times (issue 32; absent in settings imported before them: every product takes the default). */
  prep?: PrepSettings;
  /** Station id → cooks on shift by default (the hub's "+ / −" overrides it during service); absent: 1. */
  station_cooks?: Record<string, number>;
  /** Station id → units at once (domain/station-capacity.ts), for stations the file gives them; absent: one line per cook. */
  station_units?: Record<string, StationUnits>;
  /** Station id → cooks on shift by the hour (domain/cooks-schedule.ts); absent: the default all day. */
  station_cooks_by_hour?: Record<string, CooksShift[]>;
  /** The quantile of lateness the promise covers (0.5–0.99); absent: 0.9. */
  promise_quantile?: number;
  /** Busy mode for every location (issue 32); absent: never busy. */
  busy_mode?: BusyModeSettings;
}

/** How the restaurant file's prep times are kept in the kitchen settings (seconds). */
export interface PrepSettings {
  /** Product id → seconds of one unit. */
  product_seconds: Record<string, number>;
  /** Product id → allergenKey(group, option) → seconds added (or taken, negative) by choosing the option. */
  option_seconds: Record<string, Record<string, number>>;
}

export const NO_KITCHEN_SETTINGS: KitchenSettings = { stations: [], product_stations: {}, allergens: {} };

/** How an order line's modifier (group and option names) is matched with a flagged option. */
export function allergenKey(group: string | null, option: string | null): string {
  return `${group ?? ''}\u001f${option ?? ''}`;
}
