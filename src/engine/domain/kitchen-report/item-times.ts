// Items (issue 33): per station and product, the median and p90 of one unit's cook time (the line's
// known start to its bump, domain/prep-times.ts), how many lines counted and how many were left
// out, beside the time the restaurant file types and the one the engine learned. Pure.
import { quantiles, quantityFactor } from '../prep-times.ts';

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

/** The line samples items are computed from, by column (judge-days.ts, JudgedSamples, fits it). */
export interface ItemSamples {
  length: number;
  /** Station and product ids, by the index `station` and `product` hold. */
  keys: readonly string[];
  station: ArrayLike<number>;
  product: ArrayLike<number>;
  quantity: ArrayLike<number>;
  seconds: ArrayLike<number>;
  /** 0: plausible (counted); else left out. */
  verdict: ArrayLike<number>;
}

export function itemTimes(samples: ItemSamples, typed: (productId: string) => number, learned: (stationId: string, productId: string) => number | null): ItemTime[] {
  const groups = new Map<number, { station_id: string; product_id: string; units: number[]; excluded: number }>();
  for (let i = 0; i < samples.length; i++) {
    const key = samples.station[i]! * samples.keys.length + samples.product[i]!;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { station_id: samples.keys[samples.station[i]!]!, product_id: samples.keys[samples.product[i]!]!, units: [], excluded: 0 }));
    if (samples.verdict[i] !== 0) group.excluded += 1;
    else group.units.push(samples.seconds[i]! / quantityFactor(samples.quantity[i]!));
  }
  return [...groups.values()]
    .map((g) => {
      const [median, p90] = quantiles(g.units, [0.5, 0.9]);
      return {
        station_id: g.station_id,
        product_id: g.product_id,
        count: g.units.length,
        excluded: g.excluded,
        median_seconds: g.units.length ? Math.round(median!) : null,
        p90_seconds: g.units.length ? Math.round(p90!) : null,
        typed_seconds: typed(g.product_id),
        learned_seconds: learned(g.station_id, g.product_id),
      };
    })
    .sort((a, b) => b.count - a.count || compare(a.product_id, b.product_id) || compare(a.station_id, b.station_id));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
