// What a promise reads of a location's kitchen (issue 32), kept between promises while nothing is
// written: a store front quoting its cart, the location's wait on GET /locations and the jobs' tick
// read the same rows many times between two kitchen events. The rows are kept as read; what depends
// on the moment (lines past the horizon, held lines due by now) is decided by readKitchenLoad at each
// call, so a kept read serves any later `now` exactly.
import type { KitchenSettings } from '../../domain/kitchen-settings.ts';
import type { OpenLine } from '../../domain/kitchen-promise.ts';
import type { LearnedPrep } from '../../domain/prep-times.ts';
import type { Engine } from '../../engine.ts';
import type { HeldItemRow, OpenLineAtStation, PromiseOutcome } from '../../store/kitchen-timings-store.ts';
import type { World } from '../../../shared/world.ts';

export interface KitchenLoadRows {
  /** The moment they were read: kept rows serve this moment and later ones only. */
  read_at: number;
  settings: KitchenSettings;
  prep_stats: { station_id: string; product_id: string; learned: LearnedPrep }[];
  /** The hub's counts, with when each was set (domain/cooks-schedule.ts). */
  station_cooks: { station_id: string; cooks: number; set_at: number }[];
  /** The restaurant's zone, for the cooks' schedule by the hour. */
  time_zone: string;
  /** Open lines fired since `read_at` minus the horizon, oldest fired first, at most `limit`. */
  open: OpenLineAtStation[];
  /** Every held line (at most `limit`), soonest to fire first. */
  held: HeldItemRow[];
  /** Per station with an open or held line, its last bumps (as many as its cooks), latest first. */
  last_done: Map<string, number[]>;
  outcomes: PromiseOutcome[];
  /** Built from the rows on first use and kept with them (readKitchenLoad): never to be changed by a caller. */
  derived?: { learned: Map<string, LearnedPrep>; open: readonly OpenLine[] };
}

/** How the rows are read (services/kitchen/kitchen-promise.ts): given the moment, the world and the limits. */
export type ReadKitchenLoadRows = () => Promise<KitchenLoadRows>;

interface Kept {
  version: string | number;
  rows: KitchenLoadRows;
}

interface EngineCache {
  kept: Map<string, Kept>;
}

const caches = new WeakMap<Engine, EngineCache>();

/**
 * The rows for a location and world: kept ones when nothing was written since they were read (this
 * connection's `total_changes()` and SQLite's `data_version` for every other connection, the same
 * signal the order answers are kept by, http/order-responses.ts) and `now` is not before they were
 * read; else read (`read`) and kept. Inside a write transaction nothing is kept nor served: what it
 * wrote may still be rolled back. At most one entry per location and world.
 */
export async function kitchenLoadRows(engine: Engine, locationId: string, world: World, now: number, read: ReadKitchenLoadRows): Promise<KitchenLoadRows> {
  if (engine.inWriteTransaction) return await read();
  let cache = caches.get(engine);
  if (!cache) {
    cache = { kept: new Map() };
    caches.set(engine, cache);
  }
  engine.commits.check();
  const version = engine.commits.version();
  const key = `${locationId}\u001f${world}`;
  const kept = cache.kept.get(key);
  if (kept && kept.version === version && now >= kept.rows.read_at) return kept.rows;
  const rows = await read();
  // A commit while it was read (another node's, on PostgreSQL) may not be in it: not kept.
  if (engine.commits.version() === version) cache.kept.set(key, { version, rows });
  return rows;
}
