import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1 } from '../../support/demo-ids.ts';
import { Engine } from '../../../src/engine/engine.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../../../src/engine/services/keys/api-keys.ts';

// Keys are verified once and kept in memory; these check that what another connection (the keys
// CLI, another process on the same file) does to keys is seen at once, and that reading writes nothing.
describe('authentication: verified keys in memory, last use written later', () => {
  let engine: EngineUnderTest;
  /** A second connection to the same file, as the keys CLI opens. */
  let other: Engine;

  before(async () => {
    // The jobs run when a test moves the clock or calls runDue(), never on their real-time tick: a
    // tick inside the window where a test holds the write lock (below) wrote the noted key uses,
    // waited out busy_timeout (5 s) with the engine's event loop stopped, and did so again on each
    // tick while the window lasted. That window's four reads took 51 s in CI's loaded fast tier.
    engine = await startEngineUnderTest({ jobsIntervalMs: 3_600_000 });
    other = new Engine({ database: engine.dbPath });
  });
  after(async () => {
    await other.close();
    await engine.stop();
  });

  const lastUsedOf = (keyId: string): number | null =>
    (other.db.prepare('SELECT last_used_at FROM api_keys WHERE id = ?').get(keyId) as { last_used_at: number | null }).last_used_at;

  test('a key created by another connection works on its next request; one revoked there is refused on the next', async () => {
    const { key, record } = await createApiKey(other, { restaurantId: R1.id, world: 'live', write: false, label: 'from the CLI' });
    assert.equal((await engine.call('GET', '/menu', { key })).status, 200);
    assert.equal((await engine.call('GET', '/orders?limit=1', { key })).status, 200);
    await revokeApiKey(other, R1.id, record.id);
    const refused = await engine.call('GET', '/menu', { key });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'unauthorized');
    // the engine's own keys are unaffected
    assert.equal((await engine.call('GET', '/menu')).status, 200);
  });

  test('a key revoked by the keys CLI (another process) is refused on every request sent after it exits, under a load of kept-alive requests', { timeout: 120_000 }, async () => {
    // Authentication reads data_version once per turn of the engine's event loop (the requests of
    // one turn share it): several connections keep requests in flight while the CLI revokes, so
    // turns carry many requests, and none sent after the CLI is gone may still be let in.
    const { key, record } = await createApiKey(engine.server.engine, { restaurantId: R1.id, world: 'live', write: false, label: 'revoked by the CLI' });
    assert.equal((await engine.call('GET', '/orders?limit=1', { key })).status, 200);
    let cliExited = false;
    const repo = join(import.meta.dirname, '..', '..', '..');
    const cli = spawn(join(repo, 'node_modules/.bin/node'), ['--import', 'tsx', 'src/cli/keys.ts', 'revoke', '--restaurant', R1.id, '--key', record.id, '--db', engine.dbPath], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    cli.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    cli.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      cli.once('exit', (code) => {
        cliExited = true;
        resolve(code);
      }),
    );
    const statuses = { before: new Map<number, number>(), after: new Map<number, number>() };
    const count = (into: Map<number, number>, status: number) => into.set(status, (into.get(status) ?? 0) + 1);
    const worker = async () => {
      // Until this worker has an answer to a request it sent after the CLI exited.
      for (;;) {
        const sentAfterExit = cliExited;
        const { status } = await engine.call('GET', '/orders?limit=1', { key });
        count(sentAfterExit ? statuses.after : statuses.before, status);
        if (sentAfterExit) return;
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    assert.equal(await exited, 0, output);
    assert.match(output, new RegExp(`revoked ${record.id}`));
    // Before the CLI exited the key was accepted (the load ran against a verified key)...
    assert.ok((statuses.before.get(200) ?? 0) > 0, `before: ${JSON.stringify([...statuses.before])}`);
    // ...and after it, every request was refused.
    assert.deepEqual([...statuses.after], [[401, 8]]);
  });

  test('a permission changed by another connection applies on the next request', async () => {
    const { key, record } = await createApiKey(other, { restaurantId: R1.id, world: 'live', write: true, label: 'downgraded' });
    assert.equal((await engine.call('POST', `/locations/${R1.closedLocation}/close`, { key })).status, 200);
    await other.stores.apiKeys.setWrite(record.id, false);
    assert.equal((await engine.call('POST', `/locations/${R1.closedLocation}/close`, { key })).status, 403);
  });

  test('a read writes nothing, even for a key idle over a minute: its use is written by the jobs runner', async () => {
    const { key, record } = await createApiKey(engine.server.engine, { restaurantId: R1.id, world: 'live', write: false, label: 'idle' });
    assert.equal((await engine.call('GET', '/menu', { key })).status, 200);
    await engine.server.jobs.runDue();
    const firstUse = engine.clock.now();
    assert.equal(lastUsedOf(record.id), firstUse);
    await engine.advance(5 * 60_000);
    // Any write now would wait: another connection holds the write lock (the engine would wait 5 s
    // on timers and answer 503). Reads still see the last commit.
    other.db.exec('BEGIN IMMEDIATE');
    try {
      for (const path of ['/menu', '/orders?limit=5', '/locations', `/stock?location_id=${R1.openLocation}`]) {
        const res = await engine.call('GET', path, { key });
        assert.equal(res.status, 200, path);
      }
    } finally {
      other.db.exec('ROLLBACK');
    }
    // noted in memory (and shown by the app's key list), not yet written
    const laterUse = engine.clock.now();
    assert.equal(lastUsedOf(record.id), firstUse);
    const listed = (await listApiKeys(engine.server.engine, R1.id)).find((k) => k.id === record.id)!;
    assert.equal(Date.parse(listed.last_used_at!), laterUse);
    await engine.server.jobs.runDue();
    assert.equal(lastUsedOf(record.id), laterUse);
  });

  test('a failing write of last uses fails no request and is tried again on a later tick', async () => {
    const { key, record } = await createApiKey(engine.server.engine, { restaurantId: R1.id, world: 'live', write: false, label: 'retried' });
    await engine.server.jobs.runDue();
    // A write that SQLite refuses, standing in for a full disk.
    other.db.exec(`CREATE TRIGGER refuse_key_use BEFORE UPDATE OF last_used_at ON api_keys
                   BEGIN SELECT RAISE(ABORT, 'no space left (stand-in)'); END`);
    try {
      assert.equal((await engine.call('GET', '/menu', { key })).status, 200);
      const used = engine.clock.now();
      await engine.server.jobs.runDue();
      assert.equal(lastUsedOf(record.id), null);
      assert.equal((await engine.call('GET', '/menu', { key })).status, 200);
      other.db.exec('DROP TRIGGER refuse_key_use');
      await engine.server.jobs.runDue();
      assert.equal(lastUsedOf(record.id), used);
    } finally {
      other.db.exec('DROP TRIGGER IF EXISTS refuse_key_use');
    }
  });

  test('a use noted but not yet written is written when the engine closes', async () => {
    const second = await startEngineUnderTest();
    try {
      const { key, record } = await createApiKey(second.server.engine, { restaurantId: R1.id, world: 'live', write: false, label: 'closing' });
      assert.equal((await second.call('GET', '/menu', { key })).status, 200);
      const used = second.clock.now();
      await second.server.close();
      const reader = new Engine({ database: second.dbPath });
      try {
        assert.equal((await reader.stores.apiKeys.find(R1.id, record.id))!.last_used_at, used);
      } finally {
        await reader.close();
      }
    } finally {
      await second.stop();
    }
  });
});
