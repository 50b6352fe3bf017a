// `npm run simulate -- --profile FILE --seeds A-B [--train A-B|none] [--json FILE] [--orders FILE] [--no-busy-mode] [--no-line-starts] [--save-trained FILE | --trained FILE] [--common-arrivals]`: replays a kitchen
// profile (docs/kitchen-promises.md) against a real engine, its HTTP API and its kitchen door, on the
// engine's ManualClock. The training seeds (1–30 by default) run first on the same database, each
// one a day: the engine learns its prep times and calibrates its promise's margin there. The figures
// printed are those of the reported seeds alone (1001–1030 for the issue's figures), never tuned on.
// `--save-trained FILE` keeps the database as training left it (with FILE.json: the keys, the ids and
// the day), and `--trained FILE` starts from such a copy instead of training: rules are then compared
// on one learned kitchen, and a long list of reported seeds can be split over several processes.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ManualClock } from '../../src/engine/clock.ts';
import { importRestaurant } from '../../src/engine/services/restaurants/import-restaurant.ts';
import { createApiKey } from '../../src/engine/services/keys/api-keys.ts';
import { setKeyChannelKind } from '../../src/engine/services/kitchen/busy-mode.ts';
import { startEngineServer } from '../../src/host/start-engine-server.ts';
import { computeFigures, renderFigures } from './figures.ts';
import { serviceStart, simulateService, type BusyLog, type SimulatedOrder, type SimulationContext } from './kitchen-sim.ts';
import { readProfile, restaurantFromProfile, type Profile } from './profile.ts';

const RESTAURANT_ID = '90000000-0000-4000-8000-000000000001';
const LOCATION_ID = '91000000-0000-4000-8000-000000000001';

function seedRange(text: string, flag: string): number[] {
  if (text === 'none') return [];
  const match = /^(\d+)(?:-(\d+))?$/.exec(text);
  if (!match) throw new Error(`${flag} must be A-B (e.g. 1001-1030), a single seed, or none`);
  const from = Number(match[1]);
  const to = Number(match[2] ?? match[1]);
  if (to < from || to - from > 1000) throw new Error(`${flag}: ${text} is not a range of at most 1,000 seeds`);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

export interface SimulationRun {
  profile: Profile;
  trained: SimulatedOrder[];
  reported: SimulatedOrder[];
  /** Busy mode in the reported seeds. */
  busy: BusyLog[];
}

/** A trained database's side file: what a run from it needs that the database keeps hashed or nowhere. */
interface TrainedCheckpoint {
  day: number;
  keys: Record<string, string>;
  location_id: string;
  product_ids: Record<string, string>;
}

export interface CheckpointOptions {
  /** Start from this trained database (and its `.json`) instead of running the training seeds. */
  trained?: string;
  /** Keep the database as the training seeds left it here (and its `.json`). */
  saveTrained?: string;
  /** Every rule meets the same orders on a seed (SimulationContext.commonArrivals); training and reported seeds alike. */
  commonArrivals?: boolean;
}

/** Runs the training seeds, then the reported ones, on one fresh engine; `progress` hears each seed. */
export async function runSimulation(profile: Profile, train: number[], seeds: number[], progress: (line: string) => void = () => {}, lineStarts = true, checkpoint: CheckpointOptions = {}): Promise<SimulationRun> {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-simulate-'));
  const from = checkpoint.trained ? (JSON.parse(readFileSync(`${checkpoint.trained}.json`, 'utf8')) as TrainedCheckpoint) : null;
  if (checkpoint.trained) copyFileSync(checkpoint.trained, join(dir, 'simulate.db'));
  const clock = new ManualClock(serviceStart(profile, from?.day ?? 0) - 3_600_000);
  const generous = { capacity: 1_000_000, refillPerSecond: 1_000_000 };
  const server = await startEngineServer({ database: join(dir, 'simulate.db'), clock, logger: false, rateLimits: { perKey: generous, unauthenticated: generous } });
  try {
    let context: SimulationContext;
    if (from) context = { server, clock, restaurantId: RESTAURANT_ID, locationId: from.location_id, productIds: from.product_ids, keys: from.keys, lineStarts, commonArrivals: checkpoint.commonArrivals };
    else {
      const imported = await importRestaurant(server.engine, restaurantFromProfile(profile, { restaurant: RESTAURANT_ID, location: LOCATION_ID }));
      const keys: Record<string, string> = {};
      for (const channel of profile.channels) {
        const created = await createApiKey(server.engine, { restaurantId: RESTAURANT_ID, world: 'live', write: true, label: channel.label });
        keys[channel.label] = created.key;
        // Busy mode refuses store fronts only; the kitchen's own orders come like a POS's.
        await setKeyChannelKind(server.engine, created.record.id, channel.kind === 'store_front' ? 'store_front' : 'pos');
      }
      context = { server, clock, restaurantId: RESTAURANT_ID, locationId: imported.locationIds[0]!, productIds: imported.productIds, keys, lineStarts, commonArrivals: checkpoint.commonArrivals };
    }
    let day = from?.day ?? 0;
    const run = async (list: number[], label: string) => {
      const orders: SimulatedOrder[] = [];
      const busy: BusyLog[] = [];
      for (const seed of list) {
        const started = Date.now();
        const served = await simulateService(context, profile, seed, day++);
        orders.push(...served.orders);
        busy.push(served.busy);
        progress(`${label} seed ${seed}: ${served.orders.length} pedidos en ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
      return { orders, busy };
    };
    const trained = await run(from ? [] : train, 'entrenamiento');
    if (checkpoint.saveTrained) {
      rmSync(checkpoint.saveTrained, { force: true });
      server.engine.db.prepare('VACUUM INTO ?').run(checkpoint.saveTrained);
      const saved: TrainedCheckpoint = { day, keys: context.keys, location_id: context.locationId, product_ids: context.productIds };
      writeFileSync(`${checkpoint.saveTrained}.json`, JSON.stringify(saved));
    }
    const reported = await run(seeds, 'informe');
    return { profile, trained: trained.orders, reported: reported.orders, busy: reported.busy };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      profile: { type: 'string' },
      seeds: { type: 'string', default: '1001-1030' },
      train: { type: 'string', default: '1-30' },
      json: { type: 'string' },
      orders: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      trained: { type: 'string' },
      'save-trained': { type: 'string' },
      'no-busy-mode': { type: 'boolean', default: false },
      // Cooks who only bump, never mark a line started (the board before issue 32's per-line start).
      'no-line-starts': { type: 'boolean', default: false },
      // Every rule meets the same orders on a seed (kitchen-sim.ts, SimulationContext.commonArrivals).
      'common-arrivals': { type: 'boolean', default: false },
    },
  });
  if (!values.profile) throw new Error('--profile FILE is required (bench/profiles/standard-rush.json, stress-rush.json)');
  const read = readProfile(values.profile);
  // Without busy mode: the kitchen takes every order (the promise alone).
  const profile = values['no-busy-mode'] ? { ...read, busy_mode: undefined } : read;
  // From a trained database the training seeds are those it was trained on (say them with --train).
  const train = seedRange(values.train!, '--train');
  const seeds = seedRange(values.seeds!, '--seeds');
  const overlap = seeds.filter((s) => train.includes(s));
  if (overlap.length > 0) throw new Error(`reported seeds ${overlap.join(', ')} are also training seeds: figures are never reported on what was learned from`);
  const result = await runSimulation(profile, train, seeds, values.quiet ? undefined : (line) => console.error(line), !values['no-line-starts'], { trained: values.trained, saveTrained: values['save-trained'], commonArrivals: values['common-arrivals'] });
  const figures = computeFigures(result.reported, profile.busy_mode ? result.busy : null);
  console.log(renderFigures(`Perfil ${profile.name}, semillas ${values.seeds} (entrenamiento ${values.train})`, figures));
  if (values.json) writeFileSync(values.json, JSON.stringify({ profile: profile.name, seeds: values.seeds, train: values.train, figures, busy: result.busy }, null, 2));
  // Every reported order, a JSON line each, for a look at where the figures come from.
  if (values.orders) writeFileSync(values.orders, result.reported.map((o) => JSON.stringify(o)).join('\n') + '\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ''}` : error);
    process.exitCode = 1;
  });
}
