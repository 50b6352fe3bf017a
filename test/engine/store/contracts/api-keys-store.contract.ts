// ApiKeysStore's contract, on both databases.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ApiKeyRow } from '../../../../src/engine/store/api-keys-store.ts';
import { R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';

function keyRow(id: string, changes: Partial<ApiKeyRow> = {}): Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'> {
  return {
    id, restaurant_id: R1, lookup: `lookup-${id}`, salt: Buffer.from([0, 1, 2, 255]), hash: Buffer.alloc(32, 7),
    world: 'live', can_write: 1, kind: 'client', label: null, last4: 'wxyz', created_at: 1_000, ...changes,
  };
}

export function apiKeysStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
  });
  after(() => db.stop());

  test('an inserted key is found by its lookup and id, salt and hash as bytes, its kind kept', async () => {
    const row = keyRow('k-a', { label: 'Tienda', world: 'test', kind: 'hub' });
    await db.stores.apiKeys.insert(row);
    const expected = { ...row, last_used_at: null, revoked_at: null };
    assert.deepEqual(await db.stores.apiKeys.findByLookup('lookup-k-a'), expected);
    assert.deepEqual(await db.stores.apiKeys.find(R1, 'k-a'), expected);
    assert.equal(await db.stores.apiKeys.find(R2, 'k-a'), undefined);
    assert.equal(await db.stores.apiKeys.findByLookup('lookup-none'), undefined);
  });

  test('a restaurant\'s keys are listed by creation, ties by id byte by byte', async () => {
    await db.stores.apiKeys.insert(keyRow('k-b', { created_at: 2_000 }));
    await db.stores.apiKeys.insert(keyRow('K-c', { created_at: 2_000 }));
    await db.stores.apiKeys.insert(keyRow('k-r2', { restaurant_id: R2 }));
    assert.deepEqual((await db.stores.apiKeys.listForRestaurant(R1)).map((k) => k.id), ['k-a', 'K-c', 'k-b']);
  });

  test('revoke holds once, for its restaurant only; setWrite and revoke move the write count, touch does not', async () => {
    const before = db.stores.apiKeys.writeCount;
    assert.equal(await db.stores.apiKeys.revoke(R2, 'k-b', 5_000), false);
    assert.equal(await db.stores.apiKeys.revoke(R1, 'k-b', 5_000), true);
    assert.equal(await db.stores.apiKeys.revoke(R1, 'k-b', 6_000), false);
    assert.equal((await db.stores.apiKeys.find(R1, 'k-b'))?.revoked_at, 5_000);
    await db.stores.apiKeys.setWrite('k-b', false);
    assert.equal((await db.stores.apiKeys.find(R1, 'k-b'))?.can_write, 0);
    await db.stores.apiKeys.touch('k-b', 7_000);
    assert.equal(db.stores.apiKeys.writeCount, before + 4);
  });

  test('touch records a use, an earlier one is ignored', async () => {
    await db.stores.apiKeys.touch('k-a', 9_000);
    await db.stores.apiKeys.touch('k-a', 8_000);
    assert.equal((await db.stores.apiKeys.find(R1, 'k-a'))?.last_used_at, 9_000);
  });
}
