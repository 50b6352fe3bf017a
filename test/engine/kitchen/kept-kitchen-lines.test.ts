// The kitchen's lines kept in memory (issues 31 and 32, services/kitchen/kept-kitchen-lines.ts): after
// any sequence of the kitchen's use cases (orders placed in both worlds, lines held and fired by the
// jobs, tickets started, bumped, undone, made ready, cancelled, delivered, recalled), a write rolled
// back whole or to its savepoint, and a commit of another connection, what a promise reads of a
// location's open and held lines is exactly what the database answers read afresh. Run on PostgreSQL
// too (COMANDA_TEST_DATABASE=postgres, api-suite-on-postgres.e2e), where the lines are read, not kept.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import Database from 'better-sqlite3';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../screen/support.ts';
import { callScreenHandler } from '../../../src/engine/screen/dispatch.ts';
import { heldLinesAt, kitchenLinesKept, MAX_KEPT_LINES, openLinesAt } from '../../../src/engine/services/kitchen/kept-kitchen-lines.ts';
import { MAX_OPEN_LINES, OPEN_LINE_HORIZON_MS, readKitchenLoad } from '../../../src/engine/services/kitchen/kitchen-promise.ts';
import type { ReadTransaction } from '../../../src/engine/engine.ts';

const onSqlite = process.env.COMANDA_TEST_DATABASE !== 'postgres';

let engine: EngineUnderTest;
let kitchen: ReturnType<typeof handlersFor>;
before(async () => {
  engine = await startEngineUnderTest();
  kitchen = handlersFor(engine);
});
after(async () => {
  await engine?.stop();
});

/** A small seeded generator (mulberry32): a failing sequence is found again from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const LOCATIONS = [R1.openLocation];
// Untracked products of four stations (no stock runs out); the drink and the cazuela are held behind longer lines.
const PRODUCTS = [R1.products.empanadaCamaronQueso, R1.products.cazuela, R1.products.bebidaLata, R1.products.barrosLuco, R1.products.completo];

const openFields = (rows: readonly { order_id: string; item_index: number; station_id: string; product_id: string | null; quantity: number; fired_at: number; started_at: number | null; started_explicit: number }[]) =>
  rows.map((r) => ({ order_id: r.order_id, item_index: r.item_index, station_id: r.station_id, product_id: r.product_id, quantity: r.quantity, fired_at: Number(r.fired_at), started_at: r.started_at === null ? null : Number(r.started_at), started_explicit: Number(r.started_explicit) }));
const heldFields = (rows: readonly Record<string, unknown>[]) => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) && k !== 'order_id' ? Number(v) : v])));

/**
 * `kept()` equals `read()`. On SQLite the two run in one read transaction, at one commit. On
 * PostgreSQL a read transaction is READ COMMITTED and the engine's jobs commit beside it: the
 * database is read before and after, and a try where those two differ (a commit between) is taken again.
 */
async function assertSame(kept: () => Promise<unknown>, read: () => Promise<unknown>, message: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const before = await read();
    const answer = await kept();
    const afterwards = await read();
    if (attempt < 20 && !isDeepStrictEqual(before, afterwards)) continue;
    assert.deepEqual(answer, before, message);
    return;
  }
}

/** The kept answers and the database's, for both worlds and two horizons. */
async function assertKeptIsRead(tx: ReadTransaction, step: string): Promise<void> {
  const core = engine.server.engine;
  const now = engine.clock.now();
  for (const location of LOCATIONS) {
    for (const withTest of [false, true]) {
      for (const since of [now - OPEN_LINE_HORIZON_MS, now - 3 * 60_000]) {
        await assertSame(
          async () => openFields(await openLinesAt(core, tx, location, withTest, since, MAX_OPEN_LINES)),
          async () => openFields(await tx.stores.kitchenTimings.openAtLocation(location, withTest, since, MAX_OPEN_LINES)),
          `${step}: open lines (test ${withTest}, since ${now - since} ms ago)`,
        );
      }
      for (const limit of [MAX_OPEN_LINES, 2]) {
        await assertSame(
          async () => heldFields((await heldLinesAt(core, tx, location, withTest, limit)) as never),
          async () => heldFields((await tx.stores.kitchenTimings.heldAtLocation(location, withTest, limit)) as never),
          `${step}: held lines (test ${withTest}, limit ${limit})`,
        );
      }
    }
  }
}

async function check(step: string): Promise<void> {
  await engine.server.engine.read(async (tx) => await assertKeptIsRead(tx, step));
  assert.equal(kitchenLinesKept(engine.server.engine), onSqlite, `${step}: kept on SQLite, read on PostgreSQL`);
}

const orders: { id: string; test: boolean }[] = [];

async function randomStep(next: () => number, step: number): Promise<string> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const roll = next();
  if (roll < 0.3 || orders.length === 0) {
    const test = next() < 0.3;
    const lines = 1 + Math.floor(next() * 3);
    const items = Array.from({ length: lines }, () => ({ product_id: pick(PRODUCTS), quantity: 1 + Math.floor(next() * 2) }));
    const order = await placeOrder(engine, { items }, test ? engine.demo[0]!.keys.test_write : engine.demo[0]!.keys.live_write);
    orders.push({ id: order.id as string, test });
    return `order ${lines} lines${test ? ' (sandbox)' : ''}`;
  }
  const order = pick(orders);
  if (roll < 0.45) {
    const target = pick(['en_preparacion', 'listo', 'cancelado', 'entregado'] as const);
    await callScreenHandler(kitchen.handlers, 'orders:transition', { order_id: order.id, target });
    return `transition ${target}`;
  }
  if (roll < 0.55) {
    // A line started at its station (issue 32), or that start taken back.
    const started = next() < 0.75;
    await callScreenHandler(kitchen.handlers, 'items:set-started', { order_id: order.id, item_index: Math.floor(next() * 3), started });
    return `item ${started ? 'started' : 'unstarted'}`;
  }
  if (roll < 0.65) {
    const done = next() < 0.75;
    await callScreenHandler(kitchen.handlers, 'items:set-done', { order_id: order.id, item_index: Math.floor(next() * 3), done });
    return `item ${done ? 'done' : 'undone'}`;
  }
  if (roll < 0.8) {
    await engine.advance(Math.floor(next() * 6 * 60_000));
    return 'clock moved, jobs ran (held lines fired or moved)';
  }
  if (roll < 0.85) {
    await callScreenHandler(kitchen.handlers, 'orders:recall', { order_id: order.id });
    return 'recall';
  }
  if (roll < 0.92) {
    // A write rolled back whole: its line never was.
    const core = engine.server.engine;
    await assert.rejects(
      core.transaction(async (tx) => {
        await tx.stores.kitchenTimings.closeOrder(order.id);
        await tx.stores.kitchenTimings.open({ order_id: order.id, item_index: 90 + step, location_id: R1.openLocation, test: 0, station_id: 'plancha', product_id: null, quantity: 1, fired_at: engine.clock.now(), started_at: null, started_explicit: 0, fire_seq: 0 });
        throw new Error('refused');
      }),
      /refused/,
    );
    return 'a write rolled back';
  }
  // A write that commits, one part of it rolled back to its savepoint.
  const core = engine.server.engine;
  await core.transaction(async (tx) => {
    await tx.stores.kitchenTimings.start(order.id, engine.clock.now());
    await assert.rejects(
      tx.savepoint(async (inner) => {
        await inner.stores.kitchenTimings.unholdOrder(order.id);
        await inner.stores.kitchenTimings.closeOrder(order.id);
        throw new Error('part refused');
      }),
      /part refused/,
    );
    // Inside the write, after its own line writes: what it reads is its own, not the kept.
    await assertKeptIsRead(tx, `step ${step}: inside a write`);
  });
  return 'a write with a savepoint rolled back';
}

test('after random sequences of the kitchen\'s use cases, the kept lines are what a fresh read answers', { timeout: 600_000 }, async () => {
  await check('at start');
  for (const seed of [1, 2, 3]) {
    const next = random(seed);
    for (let step = 0; step < 60; step++) {
      const did = await randomStep(next, step);
      await check(`seed ${seed} step ${step} (${did})`);
    }
  }
  assert.ok(orders.length > 20, 'orders were placed');
  const held = await engine.server.engine.read(async (tx) => await tx.stores.kitchenTimings.allHeldLines(1000));
  const open = await engine.server.engine.read(async (tx) => await tx.stores.kitchenTimings.allOpenLines(1000));
  assert.ok(open.length > 0, 'lines are open at the end');
  assert.ok(open.some((o) => o.started_at !== null), 'some started');
  assert.ok(held.length > 0 || open.some((o) => o.test === 1), 'lines held or of the sandbox');
});

test('the promise inside an order\'s write reads the kept lines, and equals one read from the database', async () => {
  const core = engine.server.engine;
  const now = engine.clock.now();
  const load = await core.transaction(async (tx) => await readKitchenLoad(core, R1.id, R1.openLocation, now, 'live', undefined, tx));
  const fresh = await core.transaction(async (tx) => {
    // A line written in this write first: the kept lines do not stand for it, so the load is read.
    await tx.stores.kitchenTimings.start('no such order', now);
    return await readKitchenLoad(core, R1.id, R1.openLocation, now, 'live', undefined, tx);
  });
  assert.ok(load.fired.length > 0);
  assert.deepEqual(load.fired, fresh.fired);
  assert.deepEqual(load.open, fresh.open);
  assert.deepEqual(load.held, fresh.held);
});

test('another connection\'s commit is seen: the kept lines are built again', { skip: !onSqlite && 'a second SQLite connection' }, async () => {
  await check('before');
  const line = await engine.server.engine.read(async (tx) => (await tx.stores.kitchenTimings.allOpenLines(1))[0]);
  assert.ok(line, 'a line is open');
  const other = new Database(engine.dbPath);
  try {
    other.prepare('DELETE FROM kitchen_open_items WHERE order_id = ? AND item_index = ?').run(line.order_id, line.item_index);
  } finally {
    other.close();
  }
  await check('after another connection closed a line');
  const after = await engine.server.engine.read(async (tx) => await openLinesAt(engine.server.engine, tx, line.location_id, true, 0, MAX_OPEN_LINES));
  assert.ok(!after.some((l) => l.order_id === line.order_id && l.item_index === line.item_index), 'the closed line is gone from the kept lines');
});

test('past MAX_KEPT_LINES the lines are read, not kept, and still answer exactly', { skip: !onSqlite && 'written through a second SQLite connection' }, async () => {
  const core = engine.server.engine;
  // A kitchen whose screens were never bumped for weeks: more lines than are kept, written by another connection.
  const order = orders[0]!.id;
  const other = new Database(engine.dbPath);
  try {
    const insert = other.prepare(
      `INSERT INTO kitchen_open_items (order_id, item_index, location_id, test, station_id, product_id, quantity, fired_at, started_at, fire_seq)
       VALUES (?, ?, ?, 0, 'plancha', NULL, 1, ?, NULL, 0)`,
    );
    const at = engine.clock.now() - 60_000;
    other.transaction(() => {
      for (let i = 0; i <= MAX_KEPT_LINES; i++) insert.run(order, 1_000 + i, R1.openLocation, at);
    })();
  } finally {
    other.close();
  }
  await engine.server.engine.read(async (tx) => await assertKeptIsRead(tx, 'past the limit'));
  assert.equal(kitchenLinesKept(core), false, 'not kept past the limit');
  const read = await core.read(async (tx) => await openLinesAt(core, tx, R1.openLocation, false, 0, MAX_OPEN_LINES));
  assert.equal(read.length, MAX_OPEN_LINES, 'the read answers its limit');
  // Back under the limit (the forgotten lines closed by this engine), they are kept again once enough lines were written.
  await core.transaction(async (tx) => {
    for (let i = 0; i <= MAX_KEPT_LINES; i++) await tx.stores.kitchenTimings.close(order, 1_000 + i);
  });
  await check('back under the limit');
});
