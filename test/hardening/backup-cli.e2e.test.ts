// `npm run backup -- --db PATH --out FILE` from another process while the headless engine takes
// a storm of orders: the copy is sound, holds every order answered before the backup began, and
// an engine started on it serves them.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { startHeadlessEngine, type HeadlessEngine } from './headless-engine.ts';
import { callApi } from './http-client.ts';
import { InvariantChecker } from './invariants.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'comanda-backup-cli-'));
const engines: HeadlessEngine[] = [];
after(async () => {
  for (const e of engines) await e.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('npm run backup copies a running engine under a write storm; the copy restores and serves', async () => {
  const dbPath = join(dir, 'engine.db');
  const engine = await startHeadlessEngine(dbPath);
  engines.push(engine);
  const keys = engine.restaurants[0]!.keys;
  const committed: { id: string; key: string }[] = [];
  let writing = true;
  const writers = Array.from({ length: 6 }, async (_, w) => {
    let n = 0;
    while (writing) {
      const key = w % 2 === 0 ? keys.live_write : keys.test_write;
      const res = await callApi(engine.baseUrl, 'POST', '/orders', {
        key,
        body: { location_id: R1.openLocation, type: 'retiro', customer: { name: `w${w}-${n++}` }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
      });
      if (res.status === 429) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      assert.equal(res.status, 201, res.text);
      committed.push({ id: res.body.id, key });
    }
  });
  await eventually(() => committed.length >= 40, '40 orders committed before the backup');
  const before = [...committed];
  const out = join(dir, 'backups', 'comanda.db');
  await assert.rejects(run('npm', ['run', '--silent', 'backup', '--', '--db', dbPath, '--out', out], { cwd: ROOT }), /does not exist/);
  mkdirSync(join(dir, 'backups'));
  const { stdout } = await run('npm', ['run', '--silent', 'backup', '--', '--db', dbPath, '--out', out], { cwd: ROOT });
  writing = false;
  await Promise.all(writers);
  const report = JSON.parse(stdout.trim().split('\n').pop()!);
  assert.equal(report.out, out);
  assert.ok(report.pages > 0);
  assert.deepEqual(readdirSync(join(dir, 'backups')), ['comanda.db']);
  assert.ok(before.length > 10, `only ${before.length} orders before the backup`);

  const copy = new Database(out, { readonly: true });
  assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
  for (const { id } of before) assert.ok(copy.prepare('SELECT 1 FROM orders WHERE id = ?').get(id), `order ${id} answered before the backup is missing`);
  new InvariantChecker(copy).check({ full: true });
  copy.close();

  // Restore: the headless engine on the copy serves the orders (with the keys it issues there).
  const restored = await startHeadlessEngine(out);
  engines.push(restored);
  for (const { id, key } of before.slice(0, 20)) {
    const res = await callApi(restored.baseUrl, 'GET', `/orders/${id}`, { key });
    assert.equal(res.status, 200, 'the old keys are in the backup too');
    assert.equal(res.body.id, id);
  }
  console.log(`[hardening] backup CLI: ${report.pages} pages in ${report.duration_ms} ms from a running engine; ${before.length} orders answered before it, all in the copy; restored engine serves them`);
  assert.equal(existsSync(`${out}-wal`), true, 'the restored engine runs the copy in WAL mode');
});
