// Free disk beside the database, for real on small tmpfs mounts: below 64 MB the engine refuses to
// start (one line, nothing left behind); below 256 MB it starts and warns in the kitchen's
// heartbeat (the status strip's data). Needs root (mount); skipped elsewhere.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/engine/clock.ts';
import { LOW_FREE_BYTES } from '../../src/engine/domain/free-space.ts';
import { heartbeatPush, STANDALONE_STATUS } from '../../src/engine/screen/live-hub.ts';
import { readFreeSpace } from '../../src/engine/services/storage/free-space.ts';
import { StorageRefusal } from '../../src/engine/store/database-checks.ts';
import { startEngineServer } from '../../src/host/start-engine-server.ts';
import { R1 } from '../support/demo-ids.ts';
import { DEMO_NOW, GENEROUS_LIMITS } from '../support/engine-under-test.ts';

function tmpfs(t: TestContext, size: string): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-free-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    t.skip(`cannot mount a tmpfs here (needs root): ${(error as Error).message.split('\n')[0]}`);
    return null;
  }
  t.after(() => {
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

test('less than 64 MB free: the start is refused, saying how much is free and how much it needs; nothing is left behind', async (t) => {
  const dir = tmpfs(t, '48m');
  if (!dir) return;
  await assert.rejects(
    startEngineServer({ database: join(dir, 'comanda.db'), clock: new ManualClock(DEMO_NOW), rateLimits: GENEROUS_LIMITS, logger: false }),
    (error: Error) =>
      error instanceof StorageRefusal && /only \d+\.\d MB free on the file system that holds it, less than the 64\.0 MB the engine needs/.test(error.message) && /nothing to restore/.test(error.message),
  );
  assert.deepEqual(readdirSync(dir), [], 'no database, -wal, -shm or lock file');
});

test('between 64 and 256 MB free: the engine starts, and the kitchen heartbeat carries the warning with the free bytes', async (t) => {
  const dir = tmpfs(t, '100m');
  if (!dir) return;
  const server = await startEngineServer({ database: join(dir, 'comanda.db'), clock: new ManualClock(DEMO_NOW), rateLimits: GENEROUS_LIMITS, logger: false });
  try {
    const free = readFreeSpace(server.engine);
    assert.equal(free.low, true);
    assert.ok(free.free_bytes !== null && free.free_bytes < LOW_FREE_BYTES && free.free_bytes > 64 * 1024 * 1024, String(free.free_bytes));
    const beat = await heartbeatPush(server.engine, R1.id, STANDALONE_STATUS, 2000);
    assert.equal(beat.kind, 'heartbeat');
    assert.ok(beat.kind === 'heartbeat' && beat.low_disk && beat.low_disk.free_bytes > 64 * 1024 * 1024, JSON.stringify(beat));
  } finally {
    // Before the tmpfs is unmounted (t.after hooks run in the order they were added).
    await server.close();
  }
});

test('with room to spare the heartbeat says nothing of the disk', async (t) => {
  const dir = tmpfs(t, '400m');
  if (!dir) return;
  const server = await startEngineServer({ database: join(dir, 'comanda.db'), clock: new ManualClock(DEMO_NOW), rateLimits: GENEROUS_LIMITS, logger: false });
  try {
    assert.equal(readFreeSpace(server.engine).low, false);
    const beat = await heartbeatPush(server.engine, R1.id, STANDALONE_STATUS, 2000);
    assert.equal('low_disk' in beat, false);
  } finally {
    await server.close();
  }
});
