// The export on a real upstream file: the engine (the demo restaurants, orders over the API, a
// transition, stock) writes a SQLite file; the export moves it into PostgreSQL; every table's rows
// and ids are there, the feed after an old cursor is the same, and new writes continue the feed's
// sequence and the order numbers where the file left them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { exportSqliteToPostgres } from '../../../src/engine/postgres/export-sqlite.ts';
import { migratePostgres } from '../../../src/engine/postgres/migrate-postgres.ts';
import { createPostgresPool } from '../../../src/engine/postgres/postgres-pool.ts';
import { PostgresStorage } from '../../../src/engine/postgres/postgres-storage.ts';
import { EventsStore } from '../../../src/engine/store/events-store.ts';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { usePostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.ts';

describe('export of an upstream SQLite file into PostgreSQL', () => {
  let engine: EngineUnderTest;
  let cluster: PostgresCluster;
  let connectionString: string;
  let pool: pg.Pool;
  let sqlite: Database.Database;
  let midCursor = 0;
  before(async () => {
    engine = await startEngineUnderTest();
    for (let i = 0; i < 6; i += 1) {
      const order = await engine.call('POST', '/orders', {
        body: { location_id: R1.openLocation, type: 'retiro', customer: { name: `Cliente ${i}` }, items: [{ product_id: R1.products.empanadaQueso, quantity: 1 }] },
      });
      assert.equal(order.status, 201, order.text);
      if (i % 2 === 0) assert.equal((await engine.call('PATCH', `/orders/${order.body.id}`, { body: { status: 'en_preparacion' } })).status, 200);
    }
    await engine.server.close();
    sqlite = new Database(engine.dbPath, { readonly: true });
    // A replica's cursor somewhere in the middle of the restaurant's feed.
    midCursor = (sqlite.prepare('SELECT seq FROM events WHERE restaurant_id = ? ORDER BY seq LIMIT 1 OFFSET 2').get(R1.id) as { seq: number }).seq;
    cluster = await usePostgresCluster();
    connectionString = await cluster.createDatabase('exported');
    pool = createPostgresPool({ connectionString, max: 4, onError: () => {} });
    await migratePostgres(pool);
  });
  after(async () => {
    sqlite?.close();
    await pool?.end();
    await cluster?.release();
    await engine?.stop().catch(() => {});
  });

  test('every table: the same rows and ids; the clock rows from the file; the feed after an old cursor unchanged', async () => {
    const summary = await exportSqliteToPostgres(sqlite, pool);
    const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'sqlite_sequence'").all() as { name: string }[];
    for (const { name } of tables) {
      const expected = (sqlite.prepare(`SELECT count(*) AS n FROM ${name}`).get() as { n: number }).n;
      assert.equal(summary.rows[name], expected, name);
      assert.equal((await pool.query(`SELECT count(*)::bigint AS n FROM ${name}`)).rows[0].n, expected, name);
    }
    assert.ok(summary.rows.orders! >= 6 && summary.rows.events! >= 6);
    const sqliteOrders = sqlite.prepare('SELECT id, number, status, items, total FROM orders ORDER BY id').all();
    assert.deepEqual((await pool.query('SELECT id, number, status, items, total FROM orders ORDER BY id')).rows, sqliteOrders);
    const sqliteKeys = sqlite.prepare('SELECT id, salt, hash FROM api_keys ORDER BY id').all();
    assert.deepEqual((await pool.query('SELECT id, salt, hash FROM api_keys ORDER BY id')).rows, sqliteKeys);

    const storage = await PostgresStorage.open({ connectionString, onError: () => {} });
    try {
      const fromFile = new EventsStore(sqlite).list(R1.id, 'live', midCursor, 1000);
      assert.ok(fromFile.length > 0);
      assert.deepEqual(await storage.readFeed(R1.id, 'live', midCursor, 1000), fromFile);
      const lastSeq = (sqlite.prepare('SELECT max(seq) AS seq FROM events WHERE restaurant_id = ?').get(R1.id) as { seq: number }).seq;
      assert.equal(await storage.lastFeedSeq(R1.id), lastSeq);
      const nextNumber = (sqlite.prepare('SELECT next_order_number AS n FROM restaurants WHERE id = ?').get(R1.id) as { n: number }).n;
      // A write on PostgreSQL continues both where the file left them.
      const written = await storage.write(R1.id, async (tx) => ({
        number: await tx.takeOrderNumber(false),
        seq: await tx.appendEvent('live', 'order.updated', 0, {}),
      }));
      assert.deepEqual(written, { number: String(nextNumber), seq: lastSeq + 1 });
      // Identity columns continue after the copied ids.
      const mail = await pool.query(
        `INSERT INTO kitchen_pairing_failures (restaurant_id, at) VALUES ($1, 0) RETURNING 1`, [R1.id]);
      assert.equal(mail.rowCount, 1);
      const nextEventless = await pool.query(
        "INSERT INTO location_exceptions (location_id, local_date, closed, source) VALUES ($1, '2026-12-25', 1, 'api') RETURNING id",
        [R1.openLocation],
      );
      const maxCopied = (sqlite.prepare('SELECT COALESCE(max(id), 0) AS id FROM location_exceptions').get() as { id: number }).id;
      assert.equal(nextEventless.rows[0].id, maxCopied + 1);
    } finally {
      await storage.close();
    }
  });

  test('a second export into the same database is refused, changing nothing', async () => {
    const before = (await pool.query('SELECT count(*)::bigint AS n FROM orders')).rows[0].n;
    await assert.rejects(exportSqliteToPostgres(sqlite, pool), /already holds restaurants/);
    assert.equal((await pool.query('SELECT count(*)::bigint AS n FROM orders')).rows[0].n, before);
  });
});
