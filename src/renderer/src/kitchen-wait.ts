// The kitchen's wait as the board's status strip says it (issue 32): "Espera ~18 min", or while busy
// mode has paused the store fronts "Pausado: espera 32 min"; with several locations on the board,
// each one's name first. `short` is what a phone's strip shows, so the strip's other content keeps
// its room.
import type { BoardLocation, KitchenWaitEntry } from '../../shared/screen-contract/kitchen.ts';
import type { Translate } from './i18n.ts';

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
    const vars = { minutes: wait.wait_minutes, name: location.name };
    const named = shown.length > 1;
    const key = wait.paused ? 'paused' : 'wait';
    return {
      location_id: location.location_id,
      paused: wait.paused,
      minutes: wait.wait_minutes,
      text: t(named ? `strip.kitchen_${key}_named` : `strip.kitchen_${key}`, vars),
      short: t(named ? `strip.kitchen_${key}_short_named` : `strip.kitchen_${key}_short`, vars),
    };
  });
}
