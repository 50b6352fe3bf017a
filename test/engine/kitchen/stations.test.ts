import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src/engine/clock.ts';
import { Engine } from '../../../src/engine/engine.ts';
import { importRestaurant, RestaurantConfigError } from '../../../src/engine/services/restaurants/import-restaurant.ts';
import { validateRestaurantConfig } from '../../../src/engine/restaurant-config/validate-restaurant-config.ts';
import { readKitchenSettings } from '../../../src/engine/services/kitchen/kitchen-settings.ts';
import { openDatabase, type Database } from '../../../src/engine/store/open-database.ts';

/** A small valid file with two categories and stations that name both ways. */
function withStations(): any {
  return {
    name: 'Prueba',
    register_mode: 'manual',
    locations: [{ name: 'Centro', address: 'Av. Siempre Viva 742' }],
    catalogue: {
      categories: [
        {
          name: 'Sándwiches',
          products: [
            { slug: 'churrasco', name: 'Churrasco', price: 8990 },
            {
              slug: 'completo',
              name: 'Completo',
              price: 3490,
              modifier_groups: [{ name: 'Agregados', max: 2, options: [{ name: 'Palta' }, { name: 'Sin gluten', allergen: true }] }],
            },
          ],
        },
        { name: 'Bebidas', products: [{ slug: 'bebida', name: 'Bebida', price: 1790 }, { slug: 'mote', name: 'Mote con huesillo', price: 2500 }] },
      ],
    },
    stations: [
      { id: 'plancha', name: 'Plancha', categories: ['Sándwiches'] },
      { id: 'bar', name: 'Bar', categories: ['Bebidas'] },
      { id: 'frios', name: 'Fríos', products: ['mote'] },
    ],
  };
}

function problems(config: unknown): string[] {
  const result = validateRestaurantConfig(config);
  return result.ok ? [] : result.errors.map((e) => `${e.path}: ${e.message}`);
}

function withDatabase(t: { after: (fn: () => void) => void }): { db: Database; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-stations-'));
  const path = join(dir, 'comanda.db');
  const db = openDatabase(path);
  t.after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, path };
}

test('a file with stations and allergens is valid; the import resolves each product\'s station', async (t) => {
  assert.deepEqual(problems(withStations()), []);
  const { db } = withDatabase(t);
  const clock = new ManualClock('2026-11-21T12:00:00-03:00');
  const engine = new Engine({ database: db, clock });
  const imported = await importRestaurant(engine, withStations());
  const settings = await readKitchenSettings(engine, imported.restaurantId);
  assert.deepEqual(settings.stations, [
    { id: 'plancha', name: 'Plancha' },
    { id: 'bar', name: 'Bar' },
    { id: 'frios', name: 'Fríos' },
  ]);
  const stationOf = (slug: string) => settings.product_stations[imported.productIds[slug]!];
  assert.equal(stationOf('churrasco'), 'plancha');
  assert.equal(stationOf('bebida'), 'bar');
  assert.equal(stationOf('mote'), 'frios', 'a product listed by a station wins over its category\'s station');
  assert.deepEqual(settings.allergens[imported.productIds.completo!], ['Agregados\u001fSin gluten']);
});

test('station mistakes are reported with their paths, all at once', () => {
  const config = withStations();
  config.stations.push({ id: 'plancha', name: 'Otra plancha', categories: ['Postres'], products: ['pizza', 'churrasco'] });
  config.stations[1].categories.push('Sándwiches');
  assert.deepEqual(problems(config), [
    '$.stations[1].categories[1]: category "Sándwiches" already belongs to station "plancha"',
    '$.stations[3].id: duplicate station id "plancha" (already used by $.stations[0])',
    '$.stations[3].categories[0]: unknown category "Postres" (name or id of a category of $.catalogue.categories)',
    '$.stations[3].products[0]: unknown product "pizza" (the slug of a product of $.catalogue)',
  ]);
  const twice = withStations();
  twice.stations[0].products = ['mote'];
  assert.deepEqual(problems(twice), ['$.stations[2].products[0]: product "mote" is already listed by station "plancha"']);
});

test('the schema refuses a malformed station and an allergen flag that is not a boolean', () => {
  const config = withStations();
  config.stations[0].id = 'La Plancha';
  config.catalogue.categories[0].products[1].modifier_groups[0].options[1].allergen = 'sí';
  const found = problems(config);
  assert.ok(found.some((p) => p.startsWith('$.stations[0].id: must be a slug')), found.join('\n'));
  assert.ok(found.some((p) => p.startsWith('$.catalogue.categories[0].products[1].modifier_groups[0].options[1].allergen')), found.join('\n'));
});

test('a file with a station mistake imports nothing', async (t) => {
  const { db } = withDatabase(t);
  const config = withStations();
  config.stations[2].products = ['pizza'];
  const engine = new Engine({ database: db, clock: new ManualClock('2026-11-21T12:00:00-03:00') });
  await assert.rejects(async () => await importRestaurant(engine, config), (error: unknown) => {
    assert.ok(error instanceof RestaurantConfigError);
    assert.deepEqual(error.errors.map((e) => e.path), ['$.stations[2].products[0]']);
    return true;
  });
  for (const table of ['restaurants', 'products', 'kitchen_settings']) {
    assert.equal((db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n, 0, table);
  }
});

test('the demo restaurants declare stations, and every station names what exists', () => {
  for (const file of ['restaurant-1.json', 'restaurant-2.json']) {
    const json = JSON.parse(readFileSync(new URL(`../../../resources/demo/${file}`, import.meta.url), 'utf8'));
    const result = validateRestaurantConfig(json);
    assert.ok(result.ok, file);
    assert.ok((result.config.stations ?? []).length >= 3, `${file} declares its stations`);
  }
});
