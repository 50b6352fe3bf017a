import { NO_KITCHEN_SETTINGS, type KitchenSettings } from '../../domain/kitchen-settings.ts';
import type { Engine } from '../../engine.ts';

export async function readKitchenSettings(engine: Engine, restaurantId: string): Promise<KitchenSettings> {
  const row = await engine.stores.kitchenData.settings(restaurantId);
  return row ? (JSON.parse(row.settings) as KitchenSettings) : NO_KITCHEN_SETTINGS;
}

/** Replaces the restaurant's kitchen settings; call inside the import's (or the mirror's) transaction. */
export async function writeKitchenSettings(engine: Engine, restaurantId: string, settings: KitchenSettings): Promise<void> {
  await engine.stores.kitchenData.setSettings(restaurantId, JSON.stringify(settings), engine.clock.now());
}
