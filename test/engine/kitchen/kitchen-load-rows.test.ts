// The promise's load kept between kitchen changes (issue 32, services/kitchen/kitchen-load-rows.ts):
// kept while nothing is written, read again after any write of this engine or another connection's
// commit, never kept inside a write transaction, and exact at a later moment (lines past the horizon
// and held lines due by then decided per call).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { placeOrder } from '../screen/support.ts';
import { kitchenLoadRows, type KitchenLoadRows } from '../../../src/engine/services/kitchen/kitchen-load-rows.ts';
import { OPEN_LINE_HORIZON_MS, readKitchenLoad } from '../../../src/engine/services/kitchen/kitchen-promise.ts';

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(async () => {
  await engine?.stop();
});

const reads: number[] = [];
const rowsIn = (now: number) =>
  kitchenLoadRows(engine.server.engine, 'a location of this test alone', 'live', now, async () => {
    reads.push(now);
    return { read_at: now } as KitchenLoadRows;
  });
const rowsAt = (now: number) => engine.server.engine.read(() => rowsIn(now));

test('kept while nothing is written, read again after a write here or a commit elsewhere, and for an earlier moment', async () => {
  const now = engine.clock.now();
  const first = await rowsAt(now);
  assert.equal(await rowsAt(now), first, 'the same moment: kept');
  assert.equal(await rowsAt(now + 60_000), first, 'a later moment with nothing written: kept');
  assert.notEqual(await rowsAt(now - 1), first, 'an earlier moment: read again');
  const kept = await rowsAt(now);
  await placeOrder(engine, { items: [{ product_id: R1.products.completo, quantity: 1 }] });
  assert.notEqual(await rowsAt(now), kept, 'an order written by this engine: read again');
  const before = await rowsAt(now);
  // Another process (a CLI beside the running engine) changes the cooks on shift.
  const other = new Database(engine.dbPath);
  try {
    other.prepare('INSERT OR REPLACE INTO kitchen_station_cooks (restaurant_id, station_id, cooks, set_at) VALUES (?, ?, ?, ?)').run(R1.id, 'plancha', 4, now);
  } finally {
    other.close();
  }
  assert.notEqual(await rowsAt(now), before, 'a commit of another connection: read again');
  const count = reads.length;
  // Inside a write it reads through the write (engine.read there would wait for the write itself).
  await engine.server.engine.transaction(async () => {
    await rowsIn(now);
    await rowsIn(now);
  });
  assert.equal(reads.length, count + 2, 'inside a write transaction: read every time');
  assert.equal(await rowsAt(now), await rowsAt(now), 'and what it read was not kept in place of the committed rows');
});

test('kept rows give the load of a later moment exactly: lines past the horizon are left out', async () => {
  const now = engine.clock.now();
  const load = async (at: number) => await engine.server.engine.read(async (tx) => await readKitchenLoad(engine.server.engine, R1.id, R1.openLocation, at, 'live', undefined, tx));
  const atNow = await load(now);
  assert.ok(atNow.fired.length > 0, 'lines are open');
  assert.deepEqual((await load(now + 60_000)).fired, atNow.fired, 'a minute later: the same lines');
  assert.deepEqual((await load(now + OPEN_LINE_HORIZON_MS + 60_000)).fired, [], 'past the horizon: none, as a read then would say');
  assert.equal((await load(now + OPEN_LINE_HORIZON_MS + 60_000)).now, now + OPEN_LINE_HORIZON_MS + 60_000);
});
