// KitchenDataStore's contract, on both databases: item bumps, recalls, channels, settings, and what
// it reads of the outbox and the feed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { orderRow } from './orders-store.contract.ts';

const sortByOrder = <T extends { order_id: string }>(rows: T[]) => [...rows].sort((a, b) => (a.order_id < b.order_id ? -1 : 1));

export function kitchenDataStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
    for (const id of ['k-1', 'k-2', 'k-3']) await db.stores.orders.insert(orderRow(id));
    await db.stores.orders.insert(orderRow('k-other', { restaurant_id: R2, location_id: null }));
  });
  after(() => db.stop());

  test('item states: set, replaced, read one, per order in item order, and for many orders at once', async () => {
    const { kitchenData } = db.stores;
    await kitchenData.setItemState('k-1', 1, true, 100);
    await kitchenData.setItemState('k-1', 0, true, 101);
    await kitchenData.setItemState('k-1', 0, false, 102);
    await kitchenData.setItemState('k-2', 0, true, 103);
    assert.deepEqual(await kitchenData.itemStates('k-1'), [
      { order_id: 'k-1', item_index: 0, done: 0, updated_at: 102, started_at: null },
      { order_id: 'k-1', item_index: 1, done: 1, updated_at: 100, started_at: null },
    ]);
    assert.deepEqual(await kitchenData.itemState('k-2', 0), { order_id: 'k-2', item_index: 0, done: 1, updated_at: 103, started_at: null });
    assert.equal(await kitchenData.itemState('k-2', 1), undefined);
    const many = await kitchenData.itemStatesOf(['k-2', 'k-1', 'none']);
    assert.deepEqual(many.map((r) => `${r.order_id}/${r.item_index}`).sort(), ['k-1/0', 'k-1/1', 'k-2/0']);
    assert.deepEqual(await kitchenData.itemStatesOf([]), []);
    // A line's start (issue 32): its own mark beside the bump, each kept when the other changes.
    await kitchenData.setItemStarted('k-2', 1, 150, 151);
    assert.deepEqual(await kitchenData.itemState('k-2', 1), { order_id: 'k-2', item_index: 1, done: 0, updated_at: 151, started_at: 150 });
    await kitchenData.setItemState('k-2', 1, true, 160);
    assert.deepEqual(await kitchenData.itemState('k-2', 1), { order_id: 'k-2', item_index: 1, done: 1, updated_at: 160, started_at: 150 });
    await kitchenData.setItemStarted('k-2', 1, null, 170);
    assert.deepEqual(await kitchenData.itemState('k-2', 1), { order_id: 'k-2', item_index: 1, done: 1, updated_at: 170, started_at: null });
  });

  test('recalls: until when, replaced, the restaurant\'s recalled orders oldest recall first, and for many orders', async () => {
    const { kitchenData } = db.stores;
    assert.equal(await kitchenData.recalledUntil('k-1'), null);
    await kitchenData.recall('k-2', 200, 800);
    await kitchenData.recall('k-1', 100, 500);
    await kitchenData.recall('k-other', 100, 900);
    assert.equal(await kitchenData.recalledUntil('k-1'), 500);
    assert.deepEqual((await kitchenData.recalled(R1, 400)).map((r) => r.id), ['k-1', 'k-2']);
    assert.deepEqual((await kitchenData.recalled(R1, 500)).map((r) => r.id), ['k-2']);
    await kitchenData.recall('k-1', 300, 1000);
    assert.deepEqual((await kitchenData.recalled(R1, 500)).map((r) => r.id), ['k-2', 'k-1']);
    assert.deepEqual(sortByOrder(await kitchenData.recallsOf(['k-1', 'k-2', 'k-3'])), [
      { order_id: 'k-1', recalled_until: 1000 },
      { order_id: 'k-2', recalled_until: 800 },
    ]);
  });

  test('channels: none, set, replaced, and for many orders', async () => {
    const { kitchenData } = db.stores;
    assert.equal(await kitchenData.channel('k-3'), null);
    await kitchenData.setChannel('k-3', 'pos');
    await kitchenData.setChannel('k-3', 'rappi');
    await kitchenData.setChannel('k-1', 'web');
    assert.equal(await kitchenData.channel('k-3'), 'rappi');
    assert.deepEqual(sortByOrder(await kitchenData.channelsOf(['k-3', 'k-1', 'k-2'])), [
      { order_id: 'k-1', channel: 'web' },
      { order_id: 'k-3', channel: 'rappi' },
    ]);
  });

  test('settings: none, set, replaced', async () => {
    const { kitchenData } = db.stores;
    assert.equal(await kitchenData.settings(R1), undefined);
    await kitchenData.setSettings(R1, '{"stations":[]}', 10);
    await kitchenData.setSettings(R1, '{"stations":["parrilla"]}', 20);
    assert.deepEqual(await kitchenData.settings(R1), { settings: '{"stations":["parrilla"]}', updated_at: 20 });
  });

  test('a pending item push is found by its order and line in the outbox\'s JSON; a sent one or another line is not', async () => {
    const { kitchenData } = db.stores;
    await db.exec(`INSERT INTO sync_outbox (idempotency_key, kind, payload, order_id, status, created_at) VALUES
      ('i-1', 'set_item_done', '{"order_id":"k-1","item_index":2,"done":true}', 'k-1', 'pending', 1),
      ('i-2', 'set_item_done', '{"order_id":"k-1","item_index":3,"done":true}', 'k-1', 'sent', 2),
      ('i-3', 'transition_order', '{"item_index":4}', 'k-1', 'pending', 3)`);
    assert.equal(await kitchenData.hasPendingItemPush('k-1', 2), true);
    assert.equal(await kitchenData.hasPendingItemPush('k-1', 3), false);
    assert.equal(await kitchenData.hasPendingItemPush('k-1', 4), false);
    assert.equal(await kitchenData.hasPendingItemPush('k-2', 2), false);
  });

  test('item events: one type of one world after a cursor, oldest first, at most the limit', async () => {
    const { events, kitchenData } = db.stores;
    const first = await events.append(R1, 'live', 'kitchen.item', 1, { order_id: 'k-1' });
    await events.append(R1, 'test', 'kitchen.item', 2, { order_id: 't-1' });
    await events.append(R1, 'live', 'order.updated', 3, {});
    const second = await events.append(R1, 'live', 'kitchen.item', 4, { order_id: 'k-2' });
    await events.append(R2, 'live', 'kitchen.item', 5, { order_id: 'k-other' });
    assert.deepEqual(await kitchenData.itemEvents(R1, 'live', 'kitchen.item', first - 1, 10), [
      { seq: first, data: '{"order_id":"k-1"}' },
      { seq: second, data: '{"order_id":"k-2"}' },
    ]);
    assert.deepEqual(await kitchenData.itemEvents(R1, 'live', 'kitchen.item', first, 10), [{ seq: second, data: '{"order_id":"k-2"}' }]);
    assert.equal((await kitchenData.itemEvents(R1, 'live', 'kitchen.item', first - 1, 1)).length, 1);
  });
}
