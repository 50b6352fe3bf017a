// The kitchen's wait as the board's status strip says it (issue 32): "Espera ~18 min", or while busy
// mode has paused the store fronts "Pausado: espera 32 min"; with several locations on the board,
// each one's name first. `short` is what a phone's strip shows, so the strip's other content keeps
// its room. A wait over two hours is said as such ("Espera más de 2 h"): it is the schedule's honest
// answer for that queue (the demo's oven of one cook behind 23 empanada lines says 354 min), but a
// number of minutes that large reads as a broken screen, and past two hours no one is promising a
// minute; the exact minutes stay in `minutes` (and GET /locations).
import type { BoardLocation, KitchenWaitEntry } from '../../shared/screen-contract/kitchen.ts';
import type { Translate } from './i18n.ts';

/** Above this many minutes the strip says "más de 2 h" instead of the minutes. */
export const WAIT_SHOWN_UP_TO_MINUTES = 120;

/** The wait's own words: "~18 min" (a promise), "32 min" (paused: the kitchen's real wait), or "más de 2 h". */
function waitWords(t: Translate, minutes: number, paused: boolean, short: boolean): string {
  if (minutes > WAIT_SHOWN_UP_TO_MINUTES) return t(short ? 'strip.wait_over_short' : 'strip.wait_over', { hours: WAIT_SHOWN_UP_TO_MINUTES / 60 });
  return t(paused ? 'strip.wait_minutes' : 'strip.wait_about', { minutes });
}

export interface KitchenWaitText {
  location_id: string;
  paused: boolean;
  minutes: number;
  text: string;
  short: string;
}

/**
 * The waits of the locations this board shows (one location when it is filtered to one), in the
 * board's order of locations; a location known to be closed now is left out unless the board shows
 * it alone (its strip already says "Sin pedidos nuevos").
 */
export function kitchenWaitTexts(
  t: Translate,
  waits: readonly KitchenWaitEntry[],
  locations: readonly BoardLocation[],
  filter: string | null,
  closed: ReadonlySet<string> = new Set(),
): KitchenWaitText[] {
  const byLocation = new Map(waits.map((w) => [w.location_id, w]));
  const shown = locations.filter((l) => (filter === null ? l.is_active && !closed.has(l.location_id) : l.location_id === filter) && byLocation.has(l.location_id));
  return shown.map((location) => {
    const wait = byLocation.get(location.location_id)!;
    const named = shown.length > 1;
    const key = wait.paused ? 'paused' : 'wait';
    const vars = (short: boolean) => ({ wait: waitWords(t, wait.wait_minutes, wait.paused, short), name: location.name });
    return {
      location_id: location.location_id,
      paused: wait.paused,
      minutes: wait.wait_minutes,
      text: t(named ? `strip.kitchen_${key}_named` : `strip.kitchen_${key}`, vars(false)),
      short: t(named ? `strip.kitchen_${key}_short_named` : `strip.kitchen_${key}_short`, vars(true)),
    };
  });
}
