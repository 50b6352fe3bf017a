// A full disk, for real: the engine's file on a small tmpfs, filled up by another file. Writes are
// refused with 503 storage_full and Retry-After (never 500), reads keep answering, the app's
// status says so; once space is freed writes resume without a restart, and every acknowledged
// order is in the file, after a restart too. Needs root (mount); skipped elsewhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/engine/clock.ts';
import { seedDemo } from '../../src/engine/demo/seed-demo.ts';
import { Engine } from '../../src/engine/engine.ts';
import { startEngineServer } from '../../src/host/start-engine-server.ts';
import { R1 } from '../support/demo-ids.ts';
import { callApi, DEMO_NOW, GENEROUS_LIMITS } from '../support/engine-under-test.ts';

/** Writes zeros into `path` until the file system has no byte left. */
function fillUp(path: string): number {
  const fd = openSync(path, 'w');
  let written = 0;
  try {
    for (const chunk of [Buffer.alloc(64 * 1024), Buffer.alloc(512)]) {
      for (;;) {
        try {
          written += writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

test('disk full on a small tmpfs: writes 503 storage_full, reads 200, writes resume once space is freed, nothing acknowledged lost', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=12m', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    t.skip(`cannot mount a tmpfs here (needs root): ${(error as Error).message.split('\n')[0]}`);
    return;
  }
  const dbPath = join(dir, 'comanda.db');
  const filler = join(dir, 'filler');
  const clock = new ManualClock(DEMO_NOW);
  // A 12 MB file system: below the 64 MB a start needs, allowed here to reach the full disk.
  const server = await startEngineServer({ database: dbPath, clock, rateLimits: GENEROUS_LIMITS, logger: false, minFreeBytes: 0 });
  try {
    const [demo] = await seedDemo(server.engine, server.providers.payments);
    const writeKey = demo!.keys.live_write;
    const readKey = demo!.keys.live_read;
    const acknowledged: string[] = [];
    let serial = 0;
    const createOrder = async () => {
      serial++;
      const res = await callApi(server.baseUrl, writeKey, 'POST', '/orders', {
        body: { location_id: R1.openLocation, type: 'retiro', customer: { name: `Cliente ${serial}`, phone: '+56 9 1234 5678' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
        headers: { 'idempotency-key': `full-${serial}` },
      });
      if (res.status === 201) acknowledged.push(res.body.id as string);
      return res;
    };
    for (let i = 0; i < 20; i++) assert.equal((await createOrder()).status, 201);
    // A file that has been running a while: its pages are in the database, the log is short.
    server.engine.db.pragma('wal_checkpoint(TRUNCATE)');

    fillUp(filler);
    let refused = 0;
    let takenWhileFilling = 0;
    for (let attempt = 0; attempt < 2000 && refused < 25; attempt++) {
      const res = await createOrder();
      if (res.status === 201) {
        takenWhileFilling++;
        continue;
      }
      assert.equal(res.status, 503, `a write on a full disk: ${res.status} ${res.text}`);
      assert.equal(res.body.error.code, 'storage_full');
      assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
      refused++;
    }
    assert.equal(refused, 25, 'the disk never filled up');
    assert.equal(await server.engine.recheckStorage(), true, 'the app status says disco lleno');
    // Reads need no write, even for a key idle for a while (its last use is kept in memory).
    clock.advance(5 * 60_000);
    for (const path of ['/orders?limit=5', '/menu', `/orders/${acknowledged[0]}`, '/events?after=ev_0&limit=5']) {
      const res = await callApi(server.baseUrl, readKey, 'GET', path);
      assert.equal(res.status, 200, `GET ${path} on a full disk: ${res.status} ${res.text}`);
    }

    rmSync(filler);
    const freedAt = performance.now();
    assert.equal(await server.engine.recheckStorage(), false, 'the status clears once space is back');
    const resumed = await createOrder();
    assert.equal(resumed.status, 201, resumed.text);
    const resumeMs = performance.now() - freedAt;
    for (let i = 0; i < 10; i++) assert.equal((await createOrder()).status, 201);

    const listed = new Set((server.engine.db.prepare('SELECT id FROM orders').all() as { id: string }[]).map((r) => r.id));
    for (const id of acknowledged) assert.ok(listed.has(id), `acknowledged order ${id} is in the file`);
    await server.close();
    // And after a restart.
    const reopened = new Engine({ database: dbPath });
    const kept = new Set((reopened.db.prepare('SELECT id FROM orders').all() as { id: string }[]).map((r) => r.id));
    reopened.close();
    for (const id of acknowledged) assert.ok(kept.has(id), `acknowledged order ${id} survives a restart`);
    console.log(
      `[disk-full] tmpfs 12 MiB: ${acknowledged.length} orders acknowledged (${takenWhileFilling} taken after the filler hit ENOSPC), ` +
        `all present after a restart; ${refused} writes refused 503 storage_full; ` +
        `first write after freeing space: ${resumeMs.toFixed(1)} ms, no restart`,
    );
  } finally {
    await server.close();
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});
