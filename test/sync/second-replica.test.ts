// A second replica started on a file a replica serves, with another restaurant's key: refused
// before it opens, migrates, identifies or refreshes anything, so the file is byte for byte as it
// was and the other restaurant's key is no key of this one (it used to be registered as a write
// key of the first restaurant, and to move `sync_state.upstream_url`, before a raw UNIQUE error).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseAlreadyServed } from '../../src/engine/serving-lock.ts';
import Database from 'better-sqlite3';
import { UpstreamRefusedKey } from '../../src/sync/first-pull.ts';
import { startReplicaServer } from '../../src/host/start-replica-server.ts';
import { eventually } from '../support/eventually.ts';
import { TwoEngines } from './two-engines.ts';

/** The replica's database and its side files (not the -shm, which every reader maps and touches). */
function filesOf(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('replica.db') && !name.endsWith('-shm')) files[name] = readFileSync(join(dir, name)).toString('base64');
  }
  return files;
}

test('a second replica on a served file is refused and writes nothing into it', async () => {
  const sys = new TwoEngines('live');
  await sys.start();
  try {
    // The first replica keeps serving (and holding the file) with its sync loops stopped: a quiet file.
    // Its jobs stopped too, and its log copied into the file and emptied: nothing is left to write.
    await sys.replica.replica.stop();
    await sys.replica.server.jobs.stop();
    await eventually(
      () => sys.replica.server.engine.db.pragma('wal_checkpoint(TRUNCATE)', { simple: false }) as { busy: number; log: number }[],
      'the first replica to leave its file alone (its log checkpointed and empty)',
      { until: ([result]) => result!.busy === 0 && result!.log === 0 },
    );
    const before = filesOf(sys.dir);
    const otherKey = sys.demo[1]!.keys.live_write;
    await assert.rejects(
      startReplicaServer({ database: sys.replicaDatabase, upstreamUrl: sys.proxy.baseUrl, apiKey: otherKey, clock: sys.clock, logger: false }),
      (error: Error) => error instanceof DatabaseAlreadyServed && error.message.includes(sys.replicaDatabase),
    );
    assert.deepEqual(filesOf(sys.dir), before, 'the served file, byte for byte');
    // Through a symlinked or hard-linked name it is the same file (test/engine/serving-lock.test.ts).
    const menu = await fetch(`${sys.replica.server.baseUrl}/menu`, { headers: { authorization: `Bearer ${otherKey}` } });
    assert.equal(menu.status, 401, "restaurant 2's key is no key of this replica");
  } finally {
    await sys.stop();
  }
});

/** What a replica's identity is made of: its sync state and its API keys. */
function identityRows(path: string): unknown {
  const db = new Database(path, { readonly: true });
  try {
    return {
      state: db.prepare('SELECT key, value FROM sync_state ORDER BY key').all(),
      keys: db.prepare('SELECT id, restaurant_id, world, can_write, label FROM api_keys ORDER BY id').all(),
    };
  } finally {
    db.close();
  }
}

test("a replica's file restarted with another restaurant's key: refused, that key registered nowhere, the upstream kept", async () => {
  const sys = new TwoEngines('live');
  await sys.start();
  try {
    await sys.replica.close();
    const before = identityRows(sys.replicaDatabase);
    const otherKey = sys.demo[1]!.keys.live_write;
    await assert.rejects(
      startReplicaServer({ database: sys.replicaDatabase, upstreamUrl: sys.proxy.baseUrl, apiKey: otherKey, clock: sys.clock, logger: false }),
      (error: Error) => error instanceof UpstreamRefusedKey && /mirrors another restaurant/.test(error.message),
    );
    assert.deepEqual(identityRows(sys.replicaDatabase), before);
    // Its own restaurant's key still starts it.
    sys.replica = await startReplicaServer({ database: sys.replicaDatabase, upstreamUrl: sys.proxy.baseUrl, apiKey: sys.key, clock: sys.clock, logger: false });
  } finally {
    await sys.stop();
  }
});
