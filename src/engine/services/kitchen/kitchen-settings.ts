import { NO_KITCHEN_SETTINGS, type KitchenSettings } from '../../domain/kitchen-settings.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';

export async function readKitchenSettings(engine: Engine, restaurantId: string, callerTx?: ReadTransaction): Promise<KitchenSettings> {
  return await engine.readWithin(callerTx, async (tx) => {
    const row = await tx.stores.kitchenData.settings(restaurantId);
    return row ? (JSON.parse(row.settings) as KitchenSettings) : NO_KITCHEN_SETTINGS;
  });
}

/** Replaces the restaurant's kitchen settings; call inside the import's (or the mirror's) transaction. */
export async function writeKitchenSettings(engine: Engine, tx: WriteTransaction, restaurantId: string, settings: KitchenSettings): Promise<void> {
  await tx.stores.kitchenData.setSettings(restaurantId, JSON.stringify(settings), engine.clock.now());
}
