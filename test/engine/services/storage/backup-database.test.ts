import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { Engine } from '../../../../src/engine/engine.ts';
import { backupDatabase, BackupError, backupSqlite } from '../../../../src/engine/services/storage/backup-database.ts';
import { startEngineServer } from '../../../../src/host/start-engine-server.ts';
import { R1 } from '../../../support/demo-ids.ts';
import { DEMO_NOW, GENEROUS_LIMITS, startEngineUnderTest, type EngineUnderTest } from '../../../support/engine-under-test.ts';
import { eventually } from '../../../support/eventually.ts';
import { InvariantChecker } from '../../../hardening/invariants.ts';

let t: EngineUnderTest;
let dir: string;
before(async () => {
  t = await startEngineUnderTest();
  dir = mkdtempSync(join(tmpdir(), 'comanda-backup-'));
});
after(async () => {
  await t.stop();
  rmSync(dir, { recursive: true, force: true });
});

const order = (name: string) => ({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name },
  items: [{ product_id: R1.products.cazuela, quantity: 1 }, { product_id: R1.products.empanadaQueso, quantity: 1 }],
});

// Honest work, not a wait: 45 orders and more written over HTTP, a backup, a full invariant check of
// the copy and an engine started on it (6 s quiet on 2 cores); at load 30 that passes the fast
// tier's 60 s, so each says how long it may take.
for (const pagesPerStep of [undefined, 4]) {
test(`a backup taken while orders are being written restores to a sound engine with every order committed before it${pagesPerStep ? ` (copied ${pagesPerStep} pages a step)` : ''}`, { timeout: 240_000 }, async () => {
  await t.call('PUT', '/stock', { body: { location_id: R1.openLocation, items: [{ product_id: R1.products.empanadaQueso, quantity: 100_000 }] } });
  const committed: string[] = [];
  let writing = true;
  let written = 0;
  const writers = Array.from({ length: 8 }, async (_, w) => {
    while (writing) {
      const res = await t.call('POST', '/orders', { body: order(`writer ${w} #${written++}`) });
      assert.equal(res.status, 201, res.text);
      committed.push(res.body.id);
      if (written % 7 === 0) {
        const moved = await t.call('PATCH', `/orders/${res.body.id}`, { body: { status: 'cancelado' } });
        assert.equal(moved.status, 200);
      }
    }
  });
  // Writing is under way (counted, not timed: a busy machine writes slower).
  await eventually(() => committed.length >= 40, '40 orders committed', { timeoutMs: 60_000 });
  // Everything answered before the backup starts must be in it; what comes during may or may not.
  const before = [...committed];
  const out = join(dir, `comanda-backup-${pagesPerStep ?? 'default'}.db`);
  const result = await (pagesPerStep ? backupSqlite(t.server.engine.db, out, { pagesPerStep }) : backupDatabase(t.server.engine, out));
  const duringBackup = committed.length - before.length;
  // Writes go on after it (counted, not timed).
  const atEnd = committed.length;
  await eventually(() => committed.length >= atEnd + 5, 'five more orders after the backup', { timeoutMs: 60_000 });
  writing = false;
  await Promise.all(writers);
  assert.ok(before.length > 20, `only ${before.length} orders before the backup`);
  assert.equal(result.file, out);
  assert.ok(result.bytes > 0 && result.pages > 0);
  // Only the backup is left in the folder: no partial file, no WAL beside it.
  assert.deepEqual(readdirSync(dir).filter((f) => !f.startsWith('comanda-backup-') || f.includes('.partial') || f.endsWith('-wal')), []);

  // Restore: the copy opens as an engine (migrations, WAL), is intact and holds its feed's story.
  const restored = new Engine({ database: out, clock: new ManualClock(DEMO_NOW) });
  try {
    assert.equal(restored.db.pragma('integrity_check', { simple: true }), 'ok');
    for (const id of before) assert.ok(await restored.stores.orders.getById(id), `order ${id} committed before the backup is missing`);
    new InvariantChecker(restored.db).check({ full: true });
    const inCopy = restored.db.prepare('SELECT COUNT(*) FROM orders').pluck().get() as number;
    const live = t.server.engine.db.prepare('SELECT COUNT(*) FROM orders').pluck().get() as number;
    assert.ok(inCopy >= before.length + 1 && inCopy <= live, `${inCopy} orders in the copy, ${live} live`);
    console.log(`[hardening] backup${pagesPerStep ? ` in steps of ${pagesPerStep} pages` : ''}: ${result.pages} pages in ${result.durationMs} ms while ${duringBackup} orders were written; ${before.length} orders committed before it all restored`);
  } finally {
    await restored.close();
  }

  // And it serves: the restored engine answers the API and takes new orders.
  const server = await startEngineServer({ database: out, clock: new ManualClock(DEMO_NOW), rateLimits: GENEROUS_LIMITS });
  try {
    const { createApiKey } = await import('../../../../src/engine/services/keys/api-keys.ts');
    const key = (await createApiKey(server.engine, { restaurantId: R1.id, world: 'live', write: true })).key;
    const read = await fetch(`${server.baseUrl}/orders/${before[0]}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(read.status, 200);
    const created = await fetch(`${server.baseUrl}/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(order('after the restore')),
    });
    assert.equal(created.status, 201);
  } finally {
    await server.close();
  }
});
}

test('a new backup replaces an old one only once it is complete', async () => {
  const out = join(dir, 'replace.db');
  writeFileSync(out, 'an older backup');
  const result = await backupDatabase(t.server.engine, out);
  assert.equal(result.file, out);
  const copy = new Engine({ database: out });
  assert.equal(copy.db.pragma('integrity_check', { simple: true }), 'ok');
  await copy.close();
});

test('the database itself, a missing folder and an in-memory engine are refused', async () => {
  await assert.rejects(backupDatabase(t.server.engine, t.dbPath), BackupError);
  await assert.rejects(backupDatabase(t.server.engine, `${t.dbPath}-wal`), BackupError);
  await assert.rejects(backupDatabase(t.server.engine, join(dir, 'no-such-folder', 'x.db')), BackupError);
  const memory = new Engine({ database: ':memory:' });
  await assert.rejects(backupDatabase(memory, join(dir, 'memory.db')), BackupError);
  await memory.close();
  assert.equal(existsSync(join(dir, 'memory.db')), false);
});
