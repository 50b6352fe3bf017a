// A restaurant's pickup screen settings: whether the screen shows customers' first names and which
// orders it shows, and its language. Read by the pickup board; set by `npm run restaurant --
// pickup-screen` and the desktop's Pantallas de cocina. Every field from outside is checked here,
// with an error naming it.
import { isLanguage, LANGUAGES } from '../../../shared/locale.ts';
import {
  DEFAULT_PICKUP_SCREEN_SETTINGS,
  PICKUP_ORDER_TYPES,
  type PickupOrderTypes,
  type PickupScreenSettings,
} from '../../../shared/screen-contract/pickup.ts';
import { invalidRequest, notFound } from '../../domain/errors.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';

/** What may change; an absent field keeps its value. */
export interface PickupScreenSettingsPatch {
  show_first_name?: unknown;
  order_types?: unknown;
  language?: unknown;
}

async function restaurantOf(engine: Engine, restaurantId: string, tx: ReadTransaction) {
  const restaurant = await tx.stores.restaurants.get(restaurantId);
  if (!restaurant) throw notFound(`restaurant ${restaurantId} not found`);
  return restaurant;
}

/** The restaurant's settings, the defaults where it set none. Call inside a read or a transaction, or alone. */
export async function readPickupScreenSettings(engine: Engine, restaurantId: string, callerTx?: ReadTransaction): Promise<PickupScreenSettings> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, restaurantId, tx);
    const row = await tx.stores.pickupScreenSettings.get(restaurant.id);
    if (!row) return { ...DEFAULT_PICKUP_SCREEN_SETTINGS };
    return { show_first_name: row.show_first_name === 1, order_types: row.order_types, language: row.language };
  });
}

/** Checks a patch from outside against the settings in force; throws invalid_request naming the field. */
export function checkPickupScreenSettingsPatch(current: PickupScreenSettings, patch: PickupScreenSettingsPatch): PickupScreenSettings {
  const next = { ...current };
  if (patch.show_first_name !== undefined) {
    if (typeof patch.show_first_name !== 'boolean') throw invalidRequest(`show_first_name: true or false, not ${JSON.stringify(patch.show_first_name)}`);
    next.show_first_name = patch.show_first_name;
  }
  if (patch.order_types !== undefined) {
    if (!(PICKUP_ORDER_TYPES as readonly unknown[]).includes(patch.order_types)) {
      throw invalidRequest(`order_types: one of ${PICKUP_ORDER_TYPES.join(', ')}, not ${JSON.stringify(patch.order_types)}`);
    }
    next.order_types = patch.order_types as PickupOrderTypes;
  }
  if (patch.language !== undefined) {
    if (!isLanguage(patch.language)) throw invalidRequest(`language: one of ${LANGUAGES.join(', ')}, not ${JSON.stringify(patch.language)}`);
    next.language = patch.language;
  }
  return next;
}

/** Applies a patch and answers the settings now in force. */
export async function updatePickupScreenSettings(engine: Engine, restaurantId: string, patch: PickupScreenSettingsPatch): Promise<PickupScreenSettings> {
  return await engine.transaction(async (tx) => {
    const restaurant = await restaurantOf(engine, restaurantId, tx);
    const next = checkPickupScreenSettingsPatch(await readPickupScreenSettings(engine, restaurant.id, tx), patch);
    await tx.stores.pickupScreenSettings.put({
      restaurant_id: restaurant.id,
      show_first_name: next.show_first_name ? 1 : 0,
      order_types: next.order_types,
      language: next.language,
      updated_at: engine.clock.now(),
    });
    return next;
  });
}
