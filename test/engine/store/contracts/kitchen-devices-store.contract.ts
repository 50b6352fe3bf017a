// KitchenDevicesStore's contract, on both databases: paired screens, pairing codes and the pairing
// guard's rows (wrong codes per restaurant, token buckets per address).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { KitchenDeviceRow } from '../../../../src/engine/store/kitchen-devices-store.ts';
import { R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';

const device = (id: string, restaurantId: string, pairedAt: number): Omit<KitchenDeviceRow, 'last_seen_at' | 'revoked_at'> => ({
  id, restaurant_id: restaurantId, name: `Pantalla ${id}`, lookup: `lookup-${id}`, salt: Buffer.from([0, 1, 2, 255]),
  hash: Buffer.from('hash of the token'), paired_at: pairedAt, role: 'kitchen',
});

export function kitchenDevicesStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
  });
  after(() => db.stop());

  test('devices: read back byte for byte, by lookup and id in their restaurant, listed by pairing, counted, revoked once, seen', async () => {
    const { kitchenDevices } = db.stores;
    await kitchenDevices.insert(device('d-b', R1, 100));
    await kitchenDevices.insert(device('d-A', R1, 100));
    await kitchenDevices.insert({ ...device('d-0', R1, 50), role: 'pickup' });
    await kitchenDevices.insert(device('d-other', R2, 10));
    const found = await kitchenDevices.findByLookup('lookup-d-b');
    assert.deepEqual(found, { ...device('d-b', R1, 100), last_seen_at: null, revoked_at: null });
    assert.ok(Buffer.isBuffer(found?.salt) && Buffer.isBuffer(found?.hash));
    assert.equal((await kitchenDevices.find(R1, 'd-other')), undefined);
    assert.equal((await kitchenDevices.find(R2, 'd-other'))?.id, 'd-other');
    assert.deepEqual((await kitchenDevices.listForRestaurant(R1)).map((d) => d.id), ['d-0', 'd-A', 'd-b']);
    assert.equal(await kitchenDevices.count(R1), 3);
    assert.equal(await kitchenDevices.revoke(R2, 'd-b', 200), false, 'another restaurant cannot revoke it');
    assert.equal(await kitchenDevices.revoke(R1, 'd-b', 200), true);
    assert.equal(await kitchenDevices.revoke(R1, 'd-b', 300), false, 'revoked once');
    await kitchenDevices.touch('d-b', 400);
    assert.deepEqual(await kitchenDevices.sighting('d-b'), { revoked_at: 200, last_seen_at: 400 });
    assert.equal(await kitchenDevices.sighting('none'), undefined);
  });

  test('pairing codes: live by digits until used, voided or expired; by secret digest until used; spent once', async () => {
    const { kitchenDevices } = db.stores;
    const secret = Buffer.from('a digest of the URL secret');
    const code = { id: 'pc-1', restaurant_id: R1, code: '123456', device_name: 'Parrilla', device_role: 'kitchen' as const, created_at: 100, expires_at: 1000, secret_hash: secret };
    await kitchenDevices.insertPairingCode(code);
    await kitchenDevices.insertPairingCode({ ...code, id: 'pc-2', restaurant_id: R2, code: '654321', secret_hash: null, expires_at: 500 });
    const live = await kitchenDevices.findLiveCode('123456', 999);
    assert.deepEqual(live, { ...code, used_at: null, device_id: null, code_voided_at: null });
    assert.equal(await kitchenDevices.findLiveCode('123456', 1000), undefined, 'expired');
    assert.equal((await kitchenDevices.findLiveSecret(secret, 999))?.id, 'pc-1');
    assert.deepEqual((await kitchenDevices.restaurantsWithLiveCodes(400)).sort(), [R1, R2]);
    assert.deepEqual(await kitchenDevices.restaurantsWithLiveCodes(600), [R1]);
    await kitchenDevices.insert(device('d-new', R1, 300));
    assert.equal(await kitchenDevices.markCodeUsed('pc-1', 300, 'd-new'), true);
    assert.equal(await kitchenDevices.markCodeUsed('pc-1', 301, 'd-new'), false, 'spent once');
    assert.equal(await kitchenDevices.findLiveCode('123456', 400), undefined);
    assert.equal(await kitchenDevices.findLiveSecret(secret, 400), undefined);
  });

  test('wrong codes are counted per restaurant in a window; a lockout voids the live codes (not the secret) and starts afresh', async () => {
    const { kitchenDevices } = db.stores;
    const secret = Buffer.from('another digest');
    await kitchenDevices.insertPairingCode({ id: 'pc-3', restaurant_id: R1, code: '111111', device_name: null, device_role: 'pickup', created_at: 0, expires_at: 10_000, secret_hash: secret });
    assert.equal(await kitchenDevices.countFailure(R1, 100, 0), 1);
    assert.equal(await kitchenDevices.countFailure(R1, 200, 0), 2);
    assert.equal(await kitchenDevices.countFailure(R2, 200, 0), 1);
    assert.equal(await kitchenDevices.countFailure(R1, 300, 100), 2, 'the one at 100 left the window');
    assert.equal(await kitchenDevices.lockout(R1), undefined);
    assert.equal(await kitchenDevices.voidLiveCodes(R1, 400, 5), 1);
    assert.deepEqual(await kitchenDevices.lockout(R1), { voided_at: 400, failures: 5 });
    assert.equal(await kitchenDevices.findLiveCode('111111', 500), undefined);
    assert.equal((await kitchenDevices.findLiveSecret(secret, 500))?.id, 'pc-3', 'voided digits do not void the secret');
    assert.equal(await kitchenDevices.countFailure(R1, 500, 0), 1, 'counting starts afresh');
    assert.equal(await kitchenDevices.countFailure(R2, 500, 0), 2, 'the other restaurant keeps its count');
  });

  test('pairing buckets: none, put, replaced, counted, and pruned once full again, at most the limit, soonest full first', async () => {
    const { kitchenDevices } = db.stores;
    assert.equal(await kitchenDevices.pairingBucket('10.0.0.1'), undefined);
    const before = await kitchenDevices.pairingBucketCount();
    await kitchenDevices.putPairingBucket('10.0.0.1', 4.5, 100, 300, true);
    await kitchenDevices.putPairingBucket('10.0.0.1', 3.25, 110, 400, false);
    await kitchenDevices.putPairingBucket('10.0.0.2', 9, 120, 200, true);
    await kitchenDevices.putPairingBucket('10.0.0.3', 9, 130, 250, true);
    assert.deepEqual(await kitchenDevices.pairingBucket('10.0.0.1'), { tokens: 3.25, updated_at: 110 });
    assert.equal(await kitchenDevices.pairingBucketCount(), before + 3);
    await kitchenDevices.prunePairingBuckets(300, 1);
    assert.equal(await kitchenDevices.pairingBucket('10.0.0.2'), undefined, 'the soonest full goes first');
    assert.equal(await kitchenDevices.pairingBucketCount(), before + 2);
    await kitchenDevices.prunePairingBuckets(300, 10);
    assert.equal(await kitchenDevices.pairingBucket('10.0.0.3'), undefined);
    assert.deepEqual(await kitchenDevices.pairingBucket('10.0.0.1'), { tokens: 3.25, updated_at: 110 }, 'not full again until 400');
    assert.equal(await kitchenDevices.pairingBucketCount(), before + 1);
  });
}
