// Learning each line's prep time from the item timing log (issue 32). A line's cook time runs from
// its known start to its bump; the start is the latest of what is known of it: its firing, its
// ticket moved to en_preparacion (or an explicit start), and the moment its station last had a cook
// free for it (the bump `cooks` places before it at that station: with that many cooks, it could not
// have started earlier). Waiting is left out that way; implausible bumps are left out by the domain.
import { DateTime } from 'luxon';
import { DEFAULT_PREP_SECONDS, learnPrepTimes, type CookSample, type Implausible } from '../../domain/prep-times.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import type { ItemTimingRow } from '../../store/kitchen-timings-store.ts';
import { cooksOnShift } from './kitchen-promise.ts';
import { readKitchenSettings } from './kitchen-settings.ts';
import { EXPLICIT_START } from './kitchen-timing-log.ts';

/** How far back the log is read, and at most how many of its rows. */
export const LEARNING_DAYS = 14;
const MAX_LOG_ROWS = 500_000;

export interface LearningResult {
  products: number;
  samples: number;
  excluded: Record<Implausible, number>;
}

/** The cook samples the log holds from `since` (pure over the rows, oldest first). */
export function cookSamples(rows: readonly (Pick<ItemTimingRow, 'order_id' | 'item_index' | 'kind' | 'station_id' | 'product_id' | 'quantity' | 'at'> & { seq?: number; source?: string | null })[], cooks: ReadonlyMap<string, number>): CookSample[] {
  const lines = new Map<string, { fired: number | null; started: number | null; explicit: number | null; sample: number | null }>();
  const stationDone = new Map<string, number[]>();
  const samples: (CookSample | null)[] = [];
  for (const row of rows) {
    const key = `${row.order_id}\u001f${row.item_index}`;
    const line = lines.get(key) ?? { fired: null, started: null, explicit: null, sample: null };
    lines.set(key, line);
    if (row.kind === 'fired') {
      line.fired = row.at;
      line.started = null;
      line.explicit = null;
    } else if (row.kind === 'started' && row.source === EXPLICIT_START) line.explicit = row.at;
    else if (row.kind === 'started') line.started = row.at;
    else if (row.kind === 'undone' && row.source === EXPLICIT_START) line.explicit = null;
    else if (row.kind === 'undone' && line.sample !== null) {
      // Un-bumped: that bump was not the end of it; the next one is.
      samples[line.sample] = null;
      line.sample = null;
    } else if (row.kind === 'done' && row.station_id !== null && row.product_id !== null && line.fired !== null) {
      const done = stationDone.get(row.station_id) ?? [];
      stationDone.set(row.station_id, done);
      const c = Math.max(1, cooks.get(row.station_id) ?? 1);
      const cookFree = done.length >= c ? done[done.length - c]! : Number.NEGATIVE_INFINITY;
      // A start marked at the station is the start itself: no queue in it, nothing to bound.
      const start = line.explicit ?? Math.max(line.fired, line.started ?? Number.NEGATIVE_INFINITY, cookFree);
      done.push(row.at);
      line.sample = samples.length;
      samples.push({
        station_id: row.station_id,
        product_id: row.product_id,
        quantity: row.quantity,
        done_at: row.at,
        seconds: Math.max(0, (row.at - start) / 1000),
        order_id: row.order_id,
        item_index: row.item_index,
        seq: row.seq,
      });
    }
  }
  return samples.filter((s): s is CookSample => s !== null);
}

/** Whether the restaurant's item timing log has grown since `since` (engine ms): a quiet one is not learned again. */
export async function timingsLoggedAfter(engine: Engine, restaurantId: string, since: number, callerTx?: ReadTransaction): Promise<boolean> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await tx.stores.kitchenTimings.loggedAfter(restaurantId, since);
  });
}

/**
 * Learns the restaurant's prep times from the last LEARNING_DAYS of its log and replaces the learned
 * table, in one transaction. Run by the jobs every few minutes of engine time (jobs/start-jobs.ts).
 */
export async function learnRestaurantPrepTimes(engine: Engine, restaurantId: string): Promise<LearningResult> {
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const since = DateTime.fromMillis(now).minus({ days: LEARNING_DAYS }).toMillis();
    const settings = await readKitchenSettings(engine, restaurantId, tx);
    const samples = cookSamples(await tx.stores.kitchenTimings.logFrom(restaurantId, since, MAX_LOG_ROWS), await cooksOnShift(engine, restaurantId, settings, undefined, tx));
    const typed = (productId: string) => settings.prep?.product_seconds[productId] ?? DEFAULT_PREP_SECONDS;
    const { learned, excluded } = learnPrepTimes(samples, typed);
    await tx.stores.kitchenTimings.replacePrepStats(
      restaurantId,
      [...learned.values()].map((l) => ({
        restaurant_id: restaurantId,
        station_id: l.station_id,
        product_id: l.product_id,
        mean_seconds: l.mean,
        median_seconds: l.median,
        p90_seconds: l.p90,
        samples: l.samples,
        excluded: l.excluded,
        learned_at: now,
      })),
    );
    return { products: learned.size, samples: samples.length, excluded };
  });
}

/** Where the learned time drifts from the typed one by more than `share` (the manager's list to accept). */
export async function prepTimeDrift(engine: Engine, restaurantId: string, share = 0.2, callerTx?: ReadTransaction): Promise<{ product_id: string; station_id: string; typed_seconds: number; learned_seconds: number; samples: number }[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    const settings = await readKitchenSettings(engine, restaurantId, tx);
    return (await tx.stores.kitchenTimings
      .prepStats(restaurantId))
      .map((s) => ({
        product_id: s.product_id,
        station_id: s.station_id,
        typed_seconds: settings.prep?.product_seconds[s.product_id] ?? DEFAULT_PREP_SECONDS,
        learned_seconds: s.median_seconds,
        samples: s.samples,
      }))
      .filter((d) => Math.abs(d.learned_seconds - d.typed_seconds) > d.typed_seconds * share);
  });
}
