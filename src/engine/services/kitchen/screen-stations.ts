// Which stations a kitchen screen shows, as it says when its live feed opens (a tablet's
// `/kitchen/live?stations=`, the desktop window's live channel): fallback printing asks about
// them (screen-presence.ts). Nothing said: every station (expo, an unfiltered board).
import { ApiError } from '../../domain/errors.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import { readKitchenSettings } from './kitchen-settings.ts';

/** A restaurant file has at most 50 stations (restaurant-config/schema.ts). */
export const MAX_SCREEN_STATIONS = 50;
/** A station id as the restaurant file writes it: lowercase letters, digits and hyphens, at most 50. */
const STATION_ID = /^[a-z0-9-]{1,50}$/;
/** The longest `stations=` text that can name MAX_SCREEN_STATIONS ids, checked before it is split. */
const MAX_TEXT = MAX_SCREEN_STATIONS * 51;

/**
 * The stations a screen says it shows: null for every station; otherwise the ids among the
 * restaurant's stations (one it no longer has, chosen on the screen before it was removed, counts
 * for none: that screen shows nothing of it). `said` is the query's comma-separated text or the
 * desktop's list. Malformed (not text, too long, too many, not an id): `invalid_request`.
 */
export async function screenStations(engine: Engine, restaurantId: string, said: unknown, callerTx?: ReadTransaction): Promise<string[] | null> {
  return await engine.readWithin(callerTx, async (tx) => {
    if (said === undefined || said === null || said === '') return null;
    let ids: unknown[];
    if (typeof said === 'string') {
      if (said.length > MAX_TEXT) throw new ApiError('invalid_request', `stations: at most ${MAX_SCREEN_STATIONS} station ids`);
      ids = said.split(',');
    } else if (Array.isArray(said)) {
      ids = said;
    } else {
      throw new ApiError('invalid_request', 'stations: a comma-separated list of station ids');
    }
    if (ids.length > MAX_SCREEN_STATIONS) throw new ApiError('invalid_request', `stations: at most ${MAX_SCREEN_STATIONS} station ids`);
    for (const id of ids) {
      if (typeof id !== 'string' || !STATION_ID.test(id)) {
        throw new ApiError('invalid_request', 'stations: each station id is lowercase letters, digits and hyphens (at most 50)');
      }
    }
    if (ids.length === 0) return null;
    const known = new Set((await readKitchenSettings(engine, restaurantId, tx)).stations.map((s) => s.id));
    return [...new Set(ids as string[])].filter((id) => known.has(id));
  });
}
