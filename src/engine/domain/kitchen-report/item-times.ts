// Items (issue 33): per station and product, the median and p90 of one unit's cook time (the line's
// known start to its bump, domain/prep-times.ts), how many lines counted and how many were left
// out, beside the time the restaurant file types and the one the engine learned. Pure.
import { quantile, quantityFactor, type CookSample, type Implausible } from '../prep-times.ts';

export interface ItemTime {
  station_id: string;
  product_id: string;
  /** Lines counted (plausible bumps). */
  count: number;
  /** Lines left out as implausible. */
  excluded: number;
  /** Median and p90 of one unit, whole seconds; null when every line was left out. */
  median_seconds: number | null;
  p90_seconds: number | null;
  typed_seconds: number;
  /** The learned median in use now (null: fewer samples than learning needs, the typed one is used). */
  learned_seconds: number | null;
}

export function itemTimes(
  samples: readonly CookSample[],
  verdicts: readonly (Implausible | null)[],
  typed: (productId: string) => number,
  learned: (stationId: string, productId: string) => number | null,
): ItemTime[] {
  const groups = new Map<string, { station_id: string; product_id: string; units: number[]; excluded: number }>();
  samples.forEach((sample, i) => {
    const key = `${sample.station_id}\u001f${sample.product_id}`;
    const group = groups.get(key) ?? { station_id: sample.station_id, product_id: sample.product_id, units: [], excluded: 0 };
    groups.set(key, group);
    if (verdicts[i]) group.excluded += 1;
    else group.units.push(sample.seconds / quantityFactor(sample.quantity));
  });
  return [...groups.values()]
    .map((g) => ({
      station_id: g.station_id,
      product_id: g.product_id,
      count: g.units.length,
      excluded: g.excluded,
      median_seconds: g.units.length ? Math.round(quantile(g.units, 0.5)) : null,
      p90_seconds: g.units.length ? Math.round(quantile(g.units, 0.9)) : null,
      typed_seconds: typed(g.product_id),
      learned_seconds: learned(g.station_id, g.product_id),
    }))
    .sort((a, b) => b.count - a.count || (a.product_id < b.product_id ? -1 : 1));
}
