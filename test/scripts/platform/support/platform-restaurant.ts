// A restaurant of its own for one failover scenario (so its feed starts at 1 and its counts are its
// own), made the way a platform gets one: imported through the services by an engine opened on the
// platform's write port for the moment, with an API key per store-front client and per feed reader
// (each key has its own rate limit, as separate store fronts do), and a hub key (`keys create --hub`,
// the hubs' own budget) for a restaurant whose replica syncs through the platform. Ids are fresh each run.
import { randomUUID } from 'node:crypto';
import { openPostgresEngine } from '../../../../src/host/open-postgres-engine.ts';
import { createApiKey } from '../../../../src/engine/services/keys/api-keys.ts';
import { importRestaurant } from '../../../../src/engine/services/restaurants/import-restaurant.ts';

export interface PlatformRestaurant {
  id: string;
  location: string;
  /** A product whose stock is tracked (the test sets it over HTTP). */
  product: string;
  /** Live write keys, one per order client. */
  writeKeys: string[];
  /** Live read keys, one per feed reader. */
  readKeys: string[];
  /** The key of the restaurant's hub (its replica's upstream key), when asked for. */
  hubKey?: string;
}

export async function seedPlatformRestaurant(connectionString: string, options: { writeKeys: number; readKeys: number; hubKey?: boolean }): Promise<PlatformRestaurant> {
  const engine = await openPostgresEngine({ connectionString, poolSize: 2, onError: () => {} });
  try {
    const id = randomUUID();
    const location = randomUUID();
    const imported = await importRestaurant(engine, {
      id,
      name: 'La Picada de la Conmutación',
      register_mode: 'manual',
      locations: [{ id: location, name: 'Centro', address: 'Calle 1', register_open: true }],
      catalogue: { categories: [{ name: 'Carta', products: [{ slug: 'completo', name: 'Completo', price: 2500, prep_minutes: 5, track_stock: true }] }] },
      stations: [{ id: 'plancha', name: 'Plancha', cooks: 2, products: ['completo'] }],
    });
    const key = async (write: boolean, index: number) =>
      (await createApiKey(engine, { restaurantId: id, world: 'live', write, label: `${write ? 'tienda' : 'lector'} ${index}` })).key;
    const writeKeys: string[] = [];
    for (let index = 0; index < options.writeKeys; index += 1) writeKeys.push(await key(true, index));
    const readKeys: string[] = [];
    for (let index = 0; index < options.readKeys; index += 1) readKeys.push(await key(false, index));
    const hubKey = options.hubKey ? (await createApiKey(engine, { restaurantId: id, world: 'live', write: true, kind: 'hub', label: 'hub' })).key : undefined;
    return { id, location, product: imported.productIds.completo!, writeKeys, readKeys, ...(hubKey ? { hubKey } : {}) };
  } finally {
    await engine.shutdown();
  }
}
