// Recall is an engine command: done by an actor that may write, in the order's world, and on a
// replica queued in the outbox like an item bump, so the upstream shows the ticket too and accepts
// a bump on it (it used to be local only, and such a bump was refused upstream and reverted).
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/engine/domain/errors.ts';
import { createKitchenHandlers, type KitchenHandlers } from '../../src/engine/screen/kitchen-handlers.ts';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { KEY_MODES, twoEnginesForSuite } from './two-engines.ts';
import type { World } from '../../src/shared/world.ts';

function scenarios(mode: World): void {
  const { sys, up, rep, syncStatus } = twoEnginesForSuite(mode);
  let kitchen: KitchenHandlers;
  before(() => {
    kitchen = createKitchenHandlers({ engine: sys.replica.replica.engine, commands: sys.replica.replica.commands, restaurantId: sys.replica.replica.identity.restaurantId });
  });
  const drained = () => eventually(syncStatus, 'the outbox drained, online, no conflict open', { until: (s) => s.outbox_pending === 0 && s.online && s.conflicts_unresolved === 0 });

  test('a ticket recalled on the replica is recalled upstream; a bump on it reaches the upstream with no conflict', async () => {
    const created = await up('POST', '/orders', {
      location_id: R1.openLocation,
      type: 'retiro',
      customer: { name: 'Recall' },
      items: [{ product_id: R1.products.bebidaLata, quantity: 1 }, { product_id: R1.products.cazuela, quantity: 1 }],
    });
    assert.equal(created.status, 201);
    const id = created.body.id as string;
    await eventually(() => rep('GET', `/orders/${id}`), 'the order on the replica', { until: (r) => r.status === 200 });
    for (const status of ['en_preparacion', 'listo', 'entregado']) assert.equal((await rep('PATCH', `/orders/${id}`, { status })).status, 200);
    await drained();
    // The feed's own events for those transitions are applied after the pushes: wait until the
    // replica has read the upstream's feed to its end and holds the order delivered again.
    const feedEnd = (await up('GET', '/events')).body.next_cursor as string;
    const settled = await eventually(
      async () => [await sys.replica.replica.engine.stores.sync.state('cursor'), (await rep('GET', `/orders/${id}`)).body.status],
      'cursor === feedEnd && status === \'entregado\'',
      { until: ([cursor, status]) => cursor === feedEnd && status === 'entregado' },
    );
    assert.deepEqual(settled, [feedEnd, 'entregado']);
    const conflictsBefore = (await syncStatus()).conflicts.length;

    const ticket = await kitchen['orders:recall']({ order_id: id });
    assert.ok(ticket.kitchen.recalled_until !== null, 'recalled here');
    const replicaEngine = sys.replica.replica.engine;
    const queued = replicaEngine.db.prepare("SELECT payload FROM sync_outbox WHERE kind = 'recall_order' AND order_id = ?").all(id) as { payload: string }[];
    assert.equal(queued.length, 1, 'queued in the outbox with the recall');
    await drained();
    const until = await replicaEngine.stores.kitchenData.recalledUntil(id);
    assert.equal(await sys.upstream.engine.stores.kitchenData.recalledUntil(id), until, 'the upstream shows it for as long');

    await kitchen['items:set-done']({ order_id: id, item_index: 0, done: true });
    await drained();
    assert.equal((await sys.upstream.engine.stores.kitchenData.itemState(id, 0))?.done, 1, 'the bump on the recalled ticket was taken upstream');
    assert.equal((await replicaEngine.stores.kitchenData.itemState(id, 0))?.done, 1, 'and not reverted here');
    assert.equal((await syncStatus()).conflicts.length, conflictsBefore);
  });

  test('recall needs an actor that may write, in the order\'s world', async () => {
    const created = await rep('POST', '/orders', { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Solo lectura' }, items: [{ product_id: R1.products.bebidaLata, quantity: 1 }] });
    assert.equal(created.status, 201);
    const id = created.body.id as string;
    assert.equal((await rep('PATCH', `/orders/${id}`, { status: 'cancelado' })).status, 200);
    const { restaurantId } = sys.replica.replica.identity;
    const readOnly = { restaurantId, world: mode, canWrite: false, keyId: 'read' };
    await assert.rejects(async () => await sys.replica.replica.commands.recallOrder(readOnly, id), (error: Error) => error instanceof ApiError && error.code === 'forbidden');
    const otherWorld = { restaurantId, world: mode === 'live' ? ('test' as const) : ('live' as const), canWrite: true, keyId: 'other' };
    await assert.rejects(async () => await sys.replica.replica.commands.recallOrder(otherWorld, id), (error: Error) => error instanceof ApiError && error.code === 'not_found');
  });
}

for (const mode of KEY_MODES) describe(`recall through a replica, ${mode} key`, () => scenarios(mode));
