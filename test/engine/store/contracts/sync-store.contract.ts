// SyncStore's contract, on both databases: a replica's outbox in queue order, its conflicts and
// divergences, the aliases of renamed orders and the sync state.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { L1, L2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';

export function syncStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
  });
  after(() => db.stop());

  test('sync state: none, set, replaced', async () => {
    const { sync } = db.stores;
    assert.equal(await sync.state('cursor'), undefined);
    await sync.setState('cursor', '10');
    await sync.setState('cursor', '20');
    assert.equal(await sync.state('cursor'), '20');
  });

  test('the outbox: appended in order, pending ones counted and read by order, location and kind, then sent', async () => {
    const { sync } = db.stores;
    const create = await sync.append('k-1', 'create_order', { id: 'o-1' }, { orderId: 'o-1', locationId: L1 }, 100);
    const bump = await sync.append('k-2', 'set_item_done', { order_id: 'o-1', item_index: 0 }, { orderId: 'o-1' }, 101);
    const stock = await sync.append('k-3', 'set_stock', { items: [{ product_id: 'p-1' }, { product_id: 'p-2' }] }, { locationId: L1 }, 102);
    const open_ = await sync.append('k-4', 'set_location_open', { open: true }, { locationId: L2 }, 103);
    const move = await sync.append('k-5', 'transition_order', { status: 'listo' }, { orderId: 'o-1' }, 104);
    assert.ok(create < bump && bump < stock && stock < open_ && open_ < move);
    await assert.rejects(Promise.resolve().then(() => sync.append('k-1', 'set_stock', {}, {}, 105)), 'an idempotency key is queued once');
    const next = await sync.nextToPush();
    assert.deepEqual(next, {
      seq: create, idempotency_key: 'k-1', kind: 'create_order', payload: '{"id":"o-1"}', order_id: 'o-1', location_id: L1,
      status: 'pending', attempts: 0, last_error: null, created_at: 100, sent_at: null,
    });
    assert.deepEqual((await sync.firstToPush(2)).map((r) => r.seq), [create, bump]);
    assert.equal(await sync.pending(), 5);
    assert.equal(await sync.hasPendingCreates(), true);
    assert.equal(await sync.hasPendingForOrder('o-1'), true);
    assert.equal(await sync.hasPendingOpenClose(L2), true);
    assert.equal(await sync.hasPendingOpenClose(L1), false);
    assert.deepEqual([...(await sync.productsWithPendingStock(L1))].sort(), ['p-1', 'p-2']);
    assert.deepEqual([...(await sync.ordersWithPendingKitchenData())], ['o-1']);
    assert.deepEqual((await sync.pendingAfter('o-1', create)).map((r) => r.seq), [bump, move]);
    await sync.failedAttempt(create, 'sin conexión');
    await sync.sent(create, 200);
    const sent = (await sync.firstToPush(10)).map((r) => r.seq);
    assert.deepEqual(sent, [bump, stock, open_, move]);
    assert.equal(await sync.hasPendingCreates(), false);
    await sync.sent(move, 201);
    assert.equal(await sync.hasPendingForOrder('o-1'), false, 'an item bump does not hold back the order');
    await sync.rewritePayload(stock, '{"items":[{"product_id":"p-2"}]}');
    assert.deepEqual([...(await sync.productsWithPendingStock(L1))], ['p-2']);
  });

  test('conflicts: a refused change closed with its conflict, resolved now or later (due, failed, resolved), divergences recorded apart', async () => {
    const { sync } = db.stores;
    const [bump, stock, open_] = await sync.firstToPush(3);
    const resolvedNow = await sync.conflict(bump!, { code: 'gone' }, { done: false }, 300);
    const later = await sync.conflict(open_!, { code: 'closed' }, null, 301, false);
    const part = await sync.recordConflict(stock!, '{"items":[{"product_id":"p-2"}]}', { code: 'stock' }, [{ product_id: 'p-2', quantity: 0 }], 302);
    await sync.closeAsConflict(stock!.seq, { code: 'stock' });
    assert.ok(resolvedNow < later && later < part);
    assert.equal(await sync.pending(), 0);
    assert.equal(await sync.unresolvedConflicts(), 1);
    assert.deepEqual(await sync.dueConflicts(300), []);
    const due = await sync.dueConflicts(301);
    assert.deepEqual(due.map((c) => [c.id, c.outbox_kind, c.outbox_location_id, c.outbox_payload, c.upstream_state]), [[later, 'set_location_open', L2, '{"open":true}', null]]);
    await sync.resolveFailed(later, 'timeout', 400);
    assert.deepEqual(await sync.dueConflicts(399), []);
    assert.equal((await sync.dueConflicts(400))[0]?.resolve_attempts, 1);
    await sync.resolved(later, { open: false }, 450);
    assert.equal(await sync.unresolvedConflicts(), 0);
    await sync.divergence('o-1', { status: 'listo' }, { code: 'divergence' }, { status: 'entregado' }, 500);
    await sync.divergence('o-1', { status: 'listo' }, { code: 'divergence' }, null, 501);
    await sync.itemsDivergence('o-1', [true], { code: 'items' }, [false], 502);
    await sync.stockDivergence({ 'p-1': 1 }, { code: 'stock' }, { 'p-1': 0 }, 503);
    assert.deepEqual([(await sync.lastDivergenceOf('o-1'))?.created_at, (await sync.lastDivergenceOf('o-1'))?.upstream_state], [501, null]);
    assert.equal((await sync.lastItemsDivergenceOf('o-1'))?.upstream_state, '[false]');
    assert.equal(await sync.lastDivergenceOf('o-2'), undefined);
    const all = await sync.conflicts();
    assert.deepEqual(all.map((c) => c.kind), ['stock_divergence', 'items_divergence', 'order_divergence', 'order_divergence', 'set_stock', 'set_location_open', 'set_item_done']);
    assert.deepEqual([all[0]!.outbox_seq, all[0]!.order_id, all[0]!.resolved_at], [0, null, 503]);
    const resolved = all.find((c) => c.id === later)!;
    assert.deepEqual([resolved.resolved_at, resolved.upstream_state, resolved.last_error, resolved.resolve_attempts], [450, '{"open":false}', 'timeout', 2]);
  });

  test('an alias: the local id answers to the upstream\'s, and queued changes move to it', async () => {
    const { sync } = db.stores;
    await sync.append('k-6', 'transition_order', { status: 'listo' }, { orderId: 'L-7' }, 600);
    assert.equal(await sync.upstreamIdOf('L-7'), undefined);
    await sync.alias('L-7', 'u-7');
    assert.equal(await sync.upstreamIdOf('L-7'), 'u-7');
    assert.equal(await sync.hasPendingForOrder('u-7'), true);
    assert.equal(await sync.hasPendingForOrder('L-7'), false);
  });
}
