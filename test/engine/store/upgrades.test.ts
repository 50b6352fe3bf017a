// Upgrades: a database written at each earlier schema version opens in this release with every
// order, key and event intact. The old files are made here, deterministically, from the migration
// SQL of those versions (migrations are never edited once released) and the rows a real engine
// wrote (orders in several states, a cancel that gave stock back, a revoked key, the events);
// older releases set no application_id, so neither does this. A gap in the migration list or a
// file newer than this release is refused, untouched.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Engine } from '../../../src/engine/engine.ts';
import { startEngineServer } from '../../../src/host/start-engine-server.ts';
import { revokeApiKey } from '../../../src/engine/services/keys/api-keys.ts';
import { COMANDA_APPLICATION_ID, StorageRefusal } from '../../../src/engine/store/database-checks.ts';
import { MIGRATIONS } from '../../../src/engine/store/migrations/index.ts';
import { openDatabase } from '../../../src/engine/store/open-database.ts';
import { R1 } from '../../support/demo-ids.ts';
import { callApi, startEngineUnderTest } from '../../support/engine-under-test.ts';

type Row = Record<string, unknown>;
const KEPT_TABLES = ['orders', 'api_keys', 'events', 'stock', 'restaurants', 'payment_sessions'] as const;

function tableRows(db: Database.Database, table: string): Row[] {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  if (!hasTable) return [];
  // In a fixed order whatever the table's key (some are WITHOUT ROWID).
  const rows = db.prepare(`SELECT * FROM ${table}`).all() as Row[];
  const keyOf = (row: Row) => JSON.stringify(Object.entries(row).slice(0, 3));
  return rows.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

/** Columns a later migration renamed: table → old name → today's name (0022: api_keys.mode → world). */
const RENAMED_COLUMNS: Record<string, Record<string, string>> = { api_keys: { mode: 'world' } };

/** A file at schema `version`, as that release made it, holding the source's rows (the columns that version has). */
function writeOldFile(path: string, version: number, sourcePath: string): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  for (const m of MIGRATIONS.slice(0, version)) {
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  db.exec(`ATTACH DATABASE '${sourcePath.replaceAll("'", "''")}' AS source`);
  const tables = (db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((r) => r.name);
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    for (const table of tables) {
      const here = (db.prepare(`SELECT name FROM pragma_table_info(?, 'main')`).all(table) as { name: string }[]).map((c) => c.name);
      const there = new Set((db.prepare(`SELECT name FROM pragma_table_info(?, 'source')`).all(table) as { name: string }[]).map((c) => c.name));
      const sourceName = (c: string) => (there.has(c) ? c : RENAMED_COLUMNS[table]?.[c]);
      const copied = here.filter((c) => sourceName(c) !== undefined && there.has(sourceName(c)!));
      const columns = copied.map((c) => `"${c}"`).join(', ');
      const selected = copied.map((c) => `"${sourceName(c)}"`).join(', ');
      if (columns) db.exec(`INSERT INTO main."${table}" (${columns}) SELECT ${selected} FROM source."${table}"`);
    }
  })();
  db.exec('DETACH DATABASE source');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

describe('upgrades from every earlier schema version', () => {
  let dir: string;
  let sourcePath: string;
  let liveKey: string;
  let revokedKey: string;
  let expected: Record<string, Row[]>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-upgrades-'));
    // The rows: a real engine's, over HTTP.
    const t = await startEngineUnderTest();
    liveKey = t.demo[0]!.keys.live_write;
    revokedKey = t.demo[0]!.keys.live_read;
    const order = (productId: string, quantity: number, name: string) =>
      t.call('POST', '/orders', {
        body: { location_id: R1.openLocation, type: 'retiro', customer: { name, phone: '+56 9 1234 5678' }, items: [{ product_id: productId, quantity }] },
        headers: { 'idempotency-key': `upgrade-${name}` },
      });
    const ids: string[] = [];
    for (const [i, name] of ['Camila Rojas', 'Matías González', 'Valentina Muñoz', 'Benjamín Soto', 'Isidora Díaz'].entries()) {
      const created = await order(i % 2 ? R1.products.empanadaQueso : R1.products.cazuela, i + 1, name);
      assert.equal(created.status, 201, created.text);
      ids.push(created.body.id as string);
    }
    for (const status of ['en_preparacion', 'listo', 'entregado']) assert.equal((await t.call('PATCH', `/orders/${ids[0]}`, { body: { status } })).status, 200);
    assert.equal((await t.call('PATCH', `/orders/${ids[1]}`, { body: { status: 'cancelado' } })).status, 200);
    assert.equal((await t.call('PATCH', `/orders/${ids[2]}`, { body: { status: 'en_preparacion' } })).status, 200);
    // The demo's live read key, revoked: it must stay revoked after the upgrade.
    assert.ok((await revokeApiKey(t.server.engine, R1.id, readKeyId(t.server.engine))).revoked_at);
    sourcePath = join(dir, 'source.db');
    // Through SQLite's online backup: everything committed, whatever the log holds. Copying the
    // file after a TRUNCATE checkpoint whose result was not checked missed the last commits when
    // the engine's checkpointer worker held the log (the revoked key, on a loaded machine).
    await t.server.engine.db.backup(sourcePath);
    await t.stop();
    const source = new Database(sourcePath, { readonly: true });
    expected = Object.fromEntries(KEPT_TABLES.map((table) => [table, tableRows(source, table)]));
    source.close();
    assert.ok(expected.orders!.length >= 6, 'orders (the demo POS order and five more)');
    assert.ok(expected.events!.length >= 10, 'events');
    assert.ok(expected.api_keys!.some((k) => k.revoked_at !== null), 'a revoked key');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const { version } of MIGRATIONS) {
    test(`schema version ${version}: opens with every order, key and event intact, and serves them`, async () => {
      const path = join(dir, `v${version}.db`);
      writeOldFile(path, version, sourcePath);
      const old = new Database(path, { readonly: true });
      assert.equal(old.pragma('application_id', { simple: true }), 0, 'older releases set no application_id');
      old.close();

      const server = await startEngineServer({ database: path, logger: false });
      try {
        const db = server.engine.db;
        assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
        assert.equal(db.pragma('application_id', { simple: true }), COMANDA_APPLICATION_ID);
        for (const table of KEPT_TABLES) {
          const now = tableRows(db, table);
          assert.equal(now.length, expected[table]!.length, `${table}: row count`);
          now.forEach((row, i) => {
            const before = expected[table]![i]!;
            // Columns later versions added may be new; every column the old row had is unchanged.
            for (const column of Object.keys(row)) if (column in before) assert.deepEqual(row[column], before[column], `${table} row ${i} ${column}`);
          });
        }
        // The keys still authenticate, the orders and the feed read back through the API.
        const orders = await callApi(server.baseUrl, liveKey, 'GET', '/orders?limit=100');
        assert.equal(orders.status, 200, orders.text);
        const liveIds = expected.orders!.filter((o) => o.restaurant_id === R1.id && o.test === 0).map((o) => o.id as string).sort();
        assert.deepEqual((orders.body.data as { id: string }[]).map((o) => o.id).sort(), liveIds);
        const revoked = await callApi(server.baseUrl, revokedKey, 'GET', '/menu');
        assert.equal(revoked.status, 401, 'the revoked key stays revoked');
        const events = await callApi(server.baseUrl, liveKey, 'GET', '/events?after=ev_0&limit=100');
        assert.equal(events.status, 200, events.text);
        // The feed answers the live world's events of that restaurant as they were stored, in order.
        const liveEvents = expected.events!.filter((e) => e.restaurant_id === R1.id && e.world !== 'test')
          .sort((a, b) => Number(a.seq) - Number(b.seq))
          .map((e) => [`ev_${e.seq}`, e.type]);
        assert.ok(liveEvents.length >= 10, 'the live events of the five orders and their transitions');
        assert.deepEqual(
          (events.body.data as { id: string; type: string }[]).map((e) => [e.id, e.type]),
          liveEvents.slice(0, 100),
        );
        const created = await callApi(server.baseUrl, liveKey, 'POST', '/orders', {
          body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Tras la actualización' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
          headers: { 'idempotency-key': `after-upgrade-${version}` },
        });
        assert.equal(created.status, 201, created.text);
      } finally {
        await server.close();
      }
    });
  }

  test('a gap in the migration list, or a file newer than this release: refused, untouched', () => {
    const path = join(dir, 'v2-gap.db');
    writeOldFile(path, 2, sourcePath);
    const before = readFileSync(path);
    const withGap = [MIGRATIONS[0]!, MIGRATIONS[2]!];
    assert.throws(() => openDatabase(path, { migrations: withGap }), /migration list has a gap: expected version 2, found 3/);
    assert.deepEqual(readFileSync(path), before);

    const newer = join(dir, 'newer.db');
    copyFileSync(sourcePath, newer);
    const db = new Database(newer);
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const newerBefore = readFileSync(newer);
    assert.throws(
      () => new Engine({ database: newer }),
      (error: Error) => error instanceof StorageRefusal && error.message.includes(`schema version ${MIGRATIONS.length + 1} is newer`) && error.message.includes(newer),
    );
    assert.deepEqual(readFileSync(newer), newerBefore);
  });
});

function readKeyId(engine: Engine): string {
  const row = engine.db.prepare("SELECT id FROM api_keys WHERE restaurant_id = ? AND world = 'live' AND can_write = 0 AND revoked_at IS NULL LIMIT 1").get(R1.id) as { id: string };
  return row.id;
}
