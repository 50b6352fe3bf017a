import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { ApiError } from '../../../../src/engine/domain/errors.ts';
import { Engine } from '../../../../src/engine/engine.ts';
import { openDatabase, type Database } from '../../../../src/engine/store/open-database.ts';
import { importRestaurant, RestaurantConfigError } from '../../../../src/engine/services/restaurants/import-restaurant.ts';

const CONFIG_TABLES = [
  'restaurants',
  'locations',
  'location_exceptions',
  'categories',
  'products',
  'modifier_groups',
  'modifier_options',
  'stock',
] as const;

const R1 = '10000000-0000-4000-8000-000000000001';
const R1_OPEN_LOCATION = '11000000-0000-4000-8000-000000000001';
const R1_COURIER_LOCATION = '11000000-0000-4000-8000-000000000002';
const R1_INACTIVE_LOCATION = '11000000-0000-4000-8000-000000000003';
const R2 = '20000000-0000-4000-8000-000000000001';
const R2_POLYGON_LOCATION = '21000000-0000-4000-8000-000000000001';

function readDemo(file: string): any {
  return JSON.parse(readFileSync(new URL(`../../../../resources/demo/${file}`, import.meta.url), 'utf8'));
}

/** An engine on a real SQLite file in a fresh temp dir, removed after the test. */
function withEngine(t: { after: (fn: () => void) => void }): Engine {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-restaurant-config-'));
  const engine = new Engine({ database: openDatabase(join(dir, 'comanda.db')), clock });
  t.after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return engine;
}

function count(db: Database, table: string, where = '1 = 1', ...params: unknown[]): number {
  return (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...params) as { n: number }).n;
}

function assertEveryTableEmpty(db: Database): void {
  for (const table of CONFIG_TABLES) assert.equal(count(db, table), 0, `${table} should be empty`);
}

const clock = new ManualClock('2026-11-21T12:00:00-03:00');

test('demo restaurant 1 imports with the expected rows', async (t) => {
  const engine = await withEngine(t);
  const db = engine.db;
  const imported = await importRestaurant(engine, readDemo('restaurant-1.json'));

  assert.equal(imported.restaurantId, R1);
  assert.deepEqual(imported.locationIds, [R1_OPEN_LOCATION, R1_COURIER_LOCATION, R1_INACTIVE_LOCATION]);
  assert.equal(imported.productIds['empanada-pino'], '13000000-0000-4000-8000-000000000001');
  assert.equal(Object.keys(imported.productIds).length, 13);

  const restaurant = db.prepare('SELECT * FROM restaurants WHERE id = ?').get(R1) as any;
  assert.equal(restaurant.name, 'La Picada de Ñuñoa');
  assert.equal(restaurant.register_mode, 'manual');
  assert.equal(restaurant.time_zone, 'America/Santiago');
  assert.equal(restaurant.payment_timeout_minutes, 30);
  assert.equal(restaurant.created_at, clock.now());
  assert.deepEqual(JSON.parse(restaurant.shipping_subsidies), [
    { type: 'free_over_subtotal', min_subtotal: 30000 },
    { type: 'percentage', percent: 50, max: 2000 },
  ]);

  const locations = db.prepare('SELECT * FROM locations WHERE restaurant_id = ? ORDER BY position').all(R1) as any[];
  assert.deepEqual(
    locations.map((l) => [l.id, l.position, l.is_active, l.register_open]),
    [
      [R1_OPEN_LOCATION, 0, 1, 1],
      [R1_COURIER_LOCATION, 1, 1, 0],
      [R1_INACTIVE_LOCATION, 2, 0, 0],
    ],
  );
  assert.deepEqual(JSON.parse(locations[0].delivery), {
    own: {
      enabled: true,
      coverage: { radius_km: 4 },
      fee_bands: [
        { up_to_km: 2, fee: 1990 },
        { up_to_km: 4, fee: 2990 },
      ],
      duration_minutes: 35,
    },
    couriers: [],
  });
  assert.deepEqual(JSON.parse(locations[1].delivery), { couriers: ['simulado'] });
  assert.equal(locations[0].latitude, -33.4545);
  assert.equal(locations[1].preparation_lead_minutes, 25);
  assert.equal(locations[2].preparation_lead_minutes, 30, 'default');
  assert.equal(locations[0].weekly_schedule, '{}', 'manual mode needs no schedule');

  assert.equal(count(db, 'categories', 'restaurant_id = ?', R1), 5);
  assert.equal(count(db, 'categories', 'restaurant_id = ? AND active = 0', R1), 1);
  assert.equal(count(db, 'products', 'restaurant_id = ?', R1), 13);
  assert.equal(count(db, 'products', 'restaurant_id = ? AND track_stock = 1', R1), 4);
  assert.equal(count(db, 'modifier_groups'), 2);
  assert.equal(count(db, 'modifier_options'), 7);
  assert.equal(count(db, 'location_exceptions'), 0);

  const churrasco = db.prepare('SELECT * FROM products WHERE slug = ?').get('churrasco-italiano') as any;
  assert.equal(churrasco.position, 0);
  const pan = db.prepare('SELECT * FROM modifier_groups WHERE product_id = ?').get(churrasco.id) as any;
  assert.deepEqual([pan.name, pan.required, pan.min, pan.max], ['Pan', 1, 1, 1]);
  const panOptions = db.prepare('SELECT name, price, position FROM modifier_options WHERE group_id = ? ORDER BY position').all(pan.id);
  assert.deepEqual(panOptions, [
    { name: 'Marraqueta', price: 0, position: 0 },
    { name: 'Frica', price: 0, position: 1 },
    { name: 'Pan amasado', price: 500, position: 2 },
  ]);
  const barrosLuco = db.prepare('SELECT price, offer_price, track_stock FROM products WHERE slug = ?').get('barros-luco');
  assert.deepEqual(barrosLuco, { price: 8490, offer_price: 7490, track_stock: 0 });
  const bebida = db.prepare('SELECT offer_price, description, image_url, position FROM products WHERE slug = ?').get('bebida-lata');
  assert.deepEqual(bebida, { offer_price: null, description: null, image_url: null, position: 0 });

  const stock = db
    .prepare(
      `SELECT l.position AS location, p.slug, s.quantity FROM stock s
       JOIN locations l ON l.id = s.location_id JOIN products p ON p.id = s.product_id ORDER BY l.position, p.slug`,
    )
    .all();
  assert.deepEqual(stock, [
    { location: 0, slug: 'empanada-pino', quantity: 0 },
    { location: 0, slug: 'empanada-queso', quantity: 30 },
    { location: 0, slug: 'pastel-de-choclo', quantity: 8 },
    { location: 1, slug: 'empanada-pino', quantity: 24 },
    { location: 1, slug: 'empanada-queso', quantity: 12 },
    { location: 1, slug: 'pastel-de-choclo', quantity: 5 },
    { location: 2, slug: 'empanada-pino', quantity: 40 },
    { location: 2, slug: 'humitas', quantity: 15 },
  ]);
});

test('demo restaurant 2 imports with its schedules, exception and polygon', async (t) => {
  const engine = await withEngine(t);
  const db = engine.db;
  const imported = await importRestaurant(engine, readDemo('restaurant-2.json'));
  assert.equal(imported.restaurantId, R2);
  assert.equal(imported.locationIds[0], R2_POLYGON_LOCATION);

  assert.equal((db.prepare('SELECT register_mode FROM restaurants').get() as any).register_mode, 'schedule');
  assert.equal(count(db, 'locations'), 2);
  assert.equal(count(db, 'categories'), 4);
  assert.equal(count(db, 'products'), 8);
  assert.equal(count(db, 'modifier_groups'), 2);
  assert.equal(count(db, 'modifier_options'), 6);
  assert.equal(count(db, 'stock'), 4);

  const providencia = db.prepare('SELECT * FROM locations WHERE id = ?').get(R2_POLYGON_LOCATION) as any;
  const schedule = JSON.parse(providencia.weekly_schedule);
  assert.deepEqual(schedule.fri, [['12:00', '16:00'], ['19:00', '02:00']]);
  assert.equal(JSON.parse(providencia.delivery).own.coverage.polygon.length, 4);

  const exceptions = db.prepare('SELECT location_id, local_date, closed, hours, label, source FROM location_exceptions').all();
  assert.deepEqual(exceptions, [
    { location_id: R2_POLYGON_LOCATION, local_date: '2026-12-25', closed: 1, hours: '[]', label: 'Navidad', source: 'config' },
  ]);
});

test('both demo restaurants live side by side in one database', async (t) => {
  const engine = await withEngine(t);
  const db = engine.db;
  await importRestaurant(engine, readDemo('restaurant-1.json'));
  await importRestaurant(engine, readDemo('restaurant-2.json'));
  assert.equal(count(db, 'restaurants'), 2);
  // The same slug in two restaurants is fine.
  assert.equal(count(db, 'products', 'slug = ?', 'bebida-lata'), 2);
});

test('ids absent from the file are generated as lowercase uuids', async (t) => {
  const engine = await withEngine(t);
  const db = engine.db;
  const json = readDemo('restaurant-1.json');
  delete json.id;
  delete json.locations[0].id;
  delete json.catalogue.categories[1].products[0].id;
  delete json.catalogue.categories[1].products[0].modifier_groups[0].options[2].id;
  const imported = await importRestaurant(engine, json);
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  assert.match(imported.restaurantId, uuid);
  assert.match(imported.locationIds[0]!, uuid);
  assert.equal(imported.locationIds[1], R1_COURIER_LOCATION);
  assert.match(imported.productIds['churrasco-italiano']!, uuid);
  assert.equal(count(db, 'modifier_options'), 7);
});

test('an invalid file throws RestaurantConfigError listing every problem, and writes nothing', async (t) => {
  const engine = await withEngine(t);
  const db = engine.db;
  const json = readDemo('restaurant-1.json');
  json.time_zone = 'Chile/Ñuñoa';
  // The last thing in the file: the inactive category's only product.
  json.catalogue.categories[4].products[0].slug = 'empanada-pino';
  json.locations[2].stock.humitas = -1;
  await assert.rejects(
    async () => await importRestaurant(engine, json),
    (error: unknown) => {
      assert.ok(error instanceof RestaurantConfigError);
      assert.deepEqual(error.errors.map((e) => e.path), ['$.locations[2].stock.humitas']);
      assert.match(error.message, /\$\.locations\[2\]\.stock\.humitas: must be >= 0/);
      return true;
    },
  );
  json.locations[2].stock.humitas = 1;
  await assert.rejects(
    async () => await importRestaurant(engine, json),
    (error: unknown) => {
      assert.ok(error instanceof RestaurantConfigError);
      assert.deepEqual(error.errors.map((e) => e.path).sort(), ['$.catalogue.categories[4].products[0].slug', '$.time_zone']);
      return true;
    },
  );
  assertEveryTableEmpty(db);
});

test('all or nothing: a failure while writing the last rows leaves every table empty', async (t) => {
  const engine = await withEngine(t);
  const db = engine.db;
  // Stock rows are written last; make the very last one fail inside the database.
  db.exec(`CREATE TEMP TRIGGER fail_last_stock BEFORE INSERT ON stock
           WHEN NEW.location_id = '${R1_INACTIVE_LOCATION}' AND NEW.product_id = '13000000-0000-4000-8000-000000000009'
           BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
  await assert.rejects(async () => await importRestaurant(engine, readDemo('restaurant-1.json')), /disk on fire/);
  assertEveryTableEmpty(db);
});

test('a restaurant id that already exists is refused, and the first import stays intact', async (t) => {
  const engine = await withEngine(t);
  const db = engine.db;
  await importRestaurant(engine, readDemo('restaurant-1.json'));
  const json = readDemo('restaurant-1.json');
  json.name = 'Otra Picada';
  await assert.rejects(
    async () => await importRestaurant(engine, json),
    (error: unknown) => {
      assert.ok(error instanceof RestaurantConfigError);
      assert.deepEqual(error.errors.map((e) => e.path), ['$.id']);
      assert.match(error.errors[0]!.message, /already imported/);
      return true;
    },
  );
  assert.equal(count(db, 'restaurants'), 1);
  assert.equal((db.prepare('SELECT name FROM restaurants').get() as any).name, 'La Picada de Ñuñoa');
  assert.equal(count(db, 'products'), 13);
});

test('an id used by another restaurant\'s row is refused with its path', async (t) => {
  const engine = await withEngine(t);
  const db = engine.db;
  await importRestaurant(engine, readDemo('restaurant-1.json'));
  const json = readDemo('restaurant-2.json');
  json.catalogue.categories[0].products[1].modifier_groups[0].options[0].id = '15000000-0000-4000-8000-000000000001';
  await assert.rejects(
    async () => await importRestaurant(engine, json),
    (error: unknown) => {
      assert.ok(error instanceof RestaurantConfigError);
      assert.deepEqual(error.errors, [
        {
          path: '$.catalogue.categories[0].products[1].modifier_groups[0].options[0].id',
          message: 'a modifier option with id "15000000-0000-4000-8000-000000000001" already exists in the database',
        },
      ]);
      return true;
    },
  );
  assert.equal(count(db, 'restaurants'), 1);
});

test('a file found damaged: the import is refused as storage_damaged and writes nothing', async (t) => {
  const engine = await withEngine(t);
  engine.refuseWrites('the database file failed its integrity check');
  await assert.rejects(
    async () => await importRestaurant(engine, readDemo('restaurant-1.json')),
    (error: unknown) => error instanceof ApiError && error.code === 'storage_damaged',
  );
  assertEveryTableEmpty(engine.db);
});

test('a full disk during the import: retried once, then refused as storage_full with nothing written; imported once space is back', async (t) => {
  const engine = await withEngine(t);
  const db = engine.db;
  // The database may not grow by a page: the import's first page beyond it is SQLITE_FULL, as on a full disk.
  // First the free pages a migration's rebuilt table left (0022) go, so the import has none to fill.
  db.exec('VACUUM');
  const pages = Number(db.pragma('page_count', { simple: true }));
  db.pragma(`max_page_count = ${pages}`);
  await assert.rejects(
    async () => await importRestaurant(engine, readDemo('restaurant-1.json')),
    (error: unknown) => error instanceof ApiError && error.code === 'storage_full',
  );
  assert.equal(engine.storageFull, true, 'the app is told the disk is full');
  assertEveryTableEmpty(db);
  db.pragma('max_page_count = 1073741823');
  const imported = await importRestaurant(engine, readDemo('restaurant-1.json'));
  assert.equal(imported.restaurantId, R1);
  assert.equal(engine.storageFull, false, 'a write that succeeds clears it');
  assert.equal(count(db, 'products', 'restaurant_id = ?', R1), 13);
});
