import { NO_KITCHEN_SETTINGS, type KitchenSettings } from '../../domain/kitchen-settings.ts';
import type { Engine } from '../../engine.ts';

export function readKitchenSettings(engine: Engine, restaurantId: string): KitchenSettings {
  const row = engine.stores.kitchenData.settings(restaurantId);
  return row ? (JSON.parse(row.settings) as KitchenSettings) : NO_KITCHEN_SETTINGS;
}

/** Replaces the restaurant's kitchen settings; call inside the import's (or the mirror's) transaction. */
export function writeKitchenSettings(engine: Engine, restaurantId: string, settings: KitchenSettings): void {
  engine.stores.kitchenData.setSettings(restaurantId, JSON.stringify(settings), engine.clock.now());
}
