// How many units a station cooks at once (issue 32): a grill cook has six patties on, a fryer two
// baskets, an oven bakes eight pizzas whoever tends it. The restaurant file says, per station, how
// many units one cook has on at once (`units_at_once`, 1 when absent) and, where the equipment bounds
// it, how many the station holds whatever the cooks (`max_units_at_once`: an oven's racks). Both,
// because both kinds exist in one kitchen: a grill's capacity grows with its cooks' hands, an oven's
// does not. Pure.

/** A station's units at once, as the restaurant file gives them (absent: 1 per cook, no bound: one line per cook). */
export interface StationUnits {
  /** Units one cook has on at once (≥ 1). */
  units_at_once: number;
  /** Units the station holds at once whatever the cooks on shift (an oven's racks); absent: no bound. */
  max_units_at_once?: number;
}

/** What the schedule places lines on: a station's units at once with its cooks on shift. */
export interface StationCapacity {
  /** Units the station has on at once: cooks × units_at_once, at most max_units_at_once, at least 1. */
  slots: number;
  /** Units one line may have on at once: one cook's hands (a line is one cook's), at most the station's. */
  per_line: number;
}

/**
 * The capacity of a station with `cooks` on shift. A station the file says nothing of has one unit per
 * cook and one line per unit: exactly the one-line-per-cook schedule of before.
 */
export function stationCapacity(cooks: number, units: StationUnits | undefined): StationCapacity {
  const each = Math.max(1, Math.floor(units?.units_at_once ?? 1));
  const bound = units?.max_units_at_once === undefined ? Number.POSITIVE_INFINITY : Math.max(1, Math.floor(units.max_units_at_once));
  const slots = Math.max(1, Math.min(Math.max(1, cooks) * each, bound));
  return { slots, per_line: Math.min(each, slots) };
}

/** Units one line may have on at once at a station: one cook's hands, bounded by the station's (whatever the cooks on shift). */
export function unitsPerLine(units: StationUnits | undefined): number {
  return stationCapacity(1, units).per_line;
}

/**
 * How a line of `quantity` units sits on its station: `units` of the station's slots, for `batches`
 * rounds one after the other. A line of 3 burgers at a grill cook with 6 at once takes 3 slots for
 * one burger's time; 8 pizzas at an oven of 6 racks, 6 slots for two bakes (each bake after the first
 * adding half of one, as a cook's units side by side always did: `quantityFactor` of the batches).
 * At one unit per line (no capacity said), one slot for the whole line: as before.
 */
export function lineUnits(quantity: number, perLine: number): { units: number; batches: number } {
  const q = Math.max(1, Math.floor(quantity));
  const each = Math.max(1, Math.floor(perLine));
  if (each === 1) return { units: 1, batches: q };
  return { units: Math.min(q, each), batches: Math.ceil(q / each) };
}
