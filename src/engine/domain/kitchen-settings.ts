import type { KitchenStation } from '../../shared/ipc/kitchen.ts';

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
}

export const NO_KITCHEN_SETTINGS: KitchenSettings = { stations: [], product_stations: {}, allergens: {} };

/** How an order line's modifier (group and option names) is matched with a flagged option. */
export function allergenKey(group: string | null, option: string | null): string {
  return `${group ?? ''}\u001f${option ?? ''}`;
}
