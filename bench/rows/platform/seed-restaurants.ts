// Row 13: the restaurants the engine nodes serve, made as the platform makes them: each a copy of the
// demo's first restaurant (resources/demo/restaurant-1.json, its ids renumbered per copy) imported
// through the services on a PostgreSQL Engine, with a write key of its own and stock that a run
// cannot use up.
import demoRestaurant from '../../../resources/demo/restaurant-1.json' with { type: 'json' };
import { openPostgresEngine } from '../../../src/host/open-postgres-engine.ts';
import { importRestaurant } from '../../../src/engine/services/restaurants/import-restaurant.ts';
import { createApiKey } from '../../../src/engine/services/keys/api-keys.ts';
import { R1 } from '../../../test/support/demo-ids.ts';

/** Tracked products get a stock that no run can use up. */
const BENCH_STOCK = 1_000_000_000;

export interface SeededRestaurant {
  id: string;
  locationId: string;
  productId: string;
  key: string;
}

/** The demo's UUIDs end in `-4000-8000-…`; copy `r` uses `-4000-8rrr-…` (still a v4 UUID). */
function renumbered(id: string, r: number): string {
  return id.replace('-4000-8000-', `-4000-8${r.toString(16).padStart(3, '0')}-`);
}

export async function seedRestaurants(connectionString: string, count: number): Promise<SeededRestaurant[]> {
  if (count > 0xfff) throw new Error(`at most ${0xfff} copies of the demo restaurant`);
  const errors: Error[] = [];
  const engine = await openPostgresEngine({ connectionString, onError: (error) => errors.push(error) });
  try {
    const text = JSON.stringify(demoRestaurant);
    const seeded: SeededRestaurant[] = [];
    for (let r = 1; r <= count; r++) {
      const copy = JSON.parse(text.replaceAll('-4000-8000-', `-4000-8${r.toString(16).padStart(3, '0')}-`)) as { id: string; name: string };
      copy.name = `${copy.name} ${r}`;
      await importRestaurant(engine, copy);
      const { key } = await createApiKey(engine, { restaurantId: copy.id, world: 'live', write: true, label: 'bench' });
      seeded.push({ id: copy.id, locationId: renumbered(R1.openLocation, r), productId: renumbered(R1.products.empanadaQueso, r), key });
    }
    await engine.postgres!.pool.query('UPDATE stock SET quantity = $1', [BENCH_STOCK]);
    if (errors.length > 0) throw errors[0]!;
    return seeded;
  } finally {
    await engine.shutdown();
  }
}
