// IdempotencyStore's contract, on both databases.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PENDING_STATUS, pendingMarker } from '../../../../src/engine/domain/idempotency-record.ts';
import { R1, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';

export function idempotencyStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(`${RESTAURANTS_SEED}
      INSERT INTO api_keys (id, restaurant_id, lookup, salt, hash, world, can_write, last4, created_at)
        VALUES ('k-1', '${R1}', 'lookup-1', ${db.bytes('00')}, ${db.bytes('01')}, 'live', 1, 'abcd', 0);`);
  });
  after(() => db.stop());

  test('a saved answer is found while younger than the bound, and a second save replaces it', async () => {
    await db.stores.idempotency.save('k-1', 'key-a', 'hash-1', 201, '{"id":"o-1"}', 1_000);
    assert.deepEqual(await db.stores.idempotency.get('k-1', 'key-a', 999), { request_hash: 'hash-1', status: 201, body: '{"id":"o-1"}' });
    assert.equal(await db.stores.idempotency.get('k-1', 'key-a', 1_000), undefined);
    assert.equal(await db.stores.idempotency.get('k-1', 'other', 0), undefined);
    await db.stores.idempotency.save('k-1', 'key-a', 'hash-2', 409, '{}', 2_000);
    assert.deepEqual(await db.stores.idempotency.get('k-1', 'key-a', 0), { request_hash: 'hash-2', status: 409, body: '{}' });
  });

  test('remove forgets one key; removePending only an in-flight marker', async () => {
    await db.stores.idempotency.save('k-1', 'key-b', 'h', 201, '{}', 3_000);
    await db.stores.idempotency.save('k-1', 'key-p', 'h', PENDING_STATUS, pendingMarker('o-9'), 3_000);
    await db.stores.idempotency.save('k-1', 'key-q', 'h', 201, pendingMarker('o-9'), 3_000);
    await db.stores.idempotency.remove('k-1', 'key-b');
    assert.equal(await db.stores.idempotency.get('k-1', 'key-b', 0), undefined);
    await db.stores.idempotency.removePending(pendingMarker('o-9'));
    assert.equal(await db.stores.idempotency.get('k-1', 'key-p', 0), undefined);
    assert.equal((await db.stores.idempotency.get('k-1', 'key-q', 0))?.status, 201);
  });

  test('deleteOlderThan purges records at or before a time and says how many', async () => {
    await db.exec('DELETE FROM idempotency_keys');
    for (const [key, at] of [['old-1', 10], ['old-2', 20], ['new', 21]] as const) {
      await db.stores.idempotency.save('k-1', key, 'h', 201, '{}', at);
    }
    assert.equal(await db.stores.idempotency.deleteOlderThan(20), 2);
    assert.deepEqual((await db.rows('SELECT key FROM idempotency_keys')).map((r) => r.key), ['new']);
    assert.equal(await db.stores.idempotency.deleteOlderThan(20), 0);
  });
}
