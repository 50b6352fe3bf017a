// Issue 34: what a node keeps of the tables every order reads (postgres/config-cache.ts) stays right
// across nodes. A price changed in the database is read by the next order on a node that heard
// nothing of it (its re-poll off, no NOTIFY sent): the kept rows are trusted only at the
// `config_version` the order's own transaction read. An order on node A leaves node B's verified keys
// kept; a key revoked on A is refused on B; a dish switched sold out by hand is refused on B. And the tables the triggers watch are the ones the code keeps.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { CONFIG_TABLES } from '../../../src/engine/postgres/config-tables.ts';
import { revokeApiKey } from '../../../src/engine/services/keys/api-keys.ts';
import { R1 } from '../../support/demo-ids.ts';
import type { EngineUnderTest } from '../../support/engine-under-test.ts';
import { eventually } from '../../support/eventually.ts';
import { startPostgresEnginesUnderTest } from '../../support/postgres-engine-under-test.ts';

let a: EngineUnderTest;
let b: EngineUnderTest;
let db: pg.Client;
before(async () => {
  // Re-poll off in effect (an hour): B learns of A's commits by NOTIFY only, of a raw write not at all.
  const nodes = await startPostgresEnginesUnderTest({ nodes: 2, rePollMs: 3_600_000 });
  a = nodes[0]!;
  b = nodes[1]!;
  db = new pg.Client({ connectionString: a.dbPath });
  db.on('error', () => {});
  await db.connect();
});
after(async () => {
  await db?.end();
  await a?.stop();
  await b?.stop();
});

const order = (name: string, productId: string) => ({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name },
  items: [{ product_id: productId, quantity: 1 }],
});

test("a price changed in the database (no node told) is the next order's price on a node that kept the old one", async () => {
  const product = R1.products.pastelDeChoclo;
  const first = await b.call('POST', '/orders', { body: order('Antes', product) });
  assert.equal(first.status, 201, first.text);
  const again = await b.call('POST', '/orders', { body: order('Antes otra vez', product) });
  assert.equal(again.body.items[0].unit_price, first.body.items[0].unit_price, 'the same price, read from what B kept');
  const price = first.body.items[0].unit_price as number;
  await db.query('UPDATE products SET price = $1, offer_price = NULL WHERE id = $2', [price + 1_000, product]);
  const after = await b.call('POST', '/orders', { body: order('Después', product) });
  assert.equal(after.status, 201, after.text);
  assert.equal(after.body.items[0].unit_price, price + 1_000, 'B read the new price under its order’s own config_version');
});

test('a dish switched "agotado" in the database (no node told) is refused by the next order on a node that kept the marks', async () => {
  const product = R1.products.empanadaCamaronQueso;
  assert.equal((await b.call('POST', '/orders', { body: order('Antes del 86', product) })).status, 201);
  assert.equal((await b.call('POST', '/orders', { body: order('Antes del 86 otra vez', product) })).status, 201, 'B keeps the marks: none');
  await db.query("INSERT INTO sold_out (location_id, item_kind, item_id, since, until) VALUES ($1, 'product', $2, 0, NULL)", [R1.openLocation, product]);
  try {
    const refused = await b.call('POST', '/orders', { body: order('Después del 86', product) });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.error.code, 'insufficient_stock');
  } finally {
    await db.query('DELETE FROM sold_out WHERE location_id = $1 AND item_id = $2', [R1.openLocation, product]);
  }
  assert.equal((await b.call('POST', '/orders', { body: order('Vuelve', product) })).status, 201, 'switched back: B reads it again');
});

test("an order on node A leaves node B's verified keys kept; a key revoked on A is refused on B", async () => {
  const key = a.demo[0]!.keys.live_read;
  assert.equal((await b.call('GET', '/orders?limit=1', { key })).status, 200);
  const keyWrites = b.server.engine.commits.keyWrites();
  assert.equal((await a.call('POST', '/orders', { body: order('En A', R1.products.pastelDeChoclo) })).status, 201);
  await eventually(() => b.server.engine.commits.version(), "B told of A's order (NOTIFY)", { until: (v) => v !== 0 });
  assert.equal(b.server.engine.commits.keyWrites(), keyWrites, "A's order is no key change: B keeps its verified keys");
  const keyId = (await db.query<{ id: string }>("SELECT id FROM api_keys WHERE restaurant_id = $1 AND world = 'live' AND can_write = 0 AND revoked_at IS NULL", [R1.id])).rows;
  assert.ok(keyId.length > 0);
  for (const { id } of keyId) await revokeApiKey(a.server.engine, R1.id, id);
  await eventually(async () => (await b.call('GET', '/orders?limit=1', { key })).status, 'the revoked key refused on B', { until: (status) => status === 401 });
});

test('the tables whose writes move config_version are the ones the nodes keep (config-tables.ts)', async () => {
  const { rows } = await db.query<{ table: string }>(
    "SELECT DISTINCT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = 'config_version_moved' ORDER BY 1",
  );
  assert.deepEqual(rows.map((r) => r.table), [...CONFIG_TABLES].sort());
});
