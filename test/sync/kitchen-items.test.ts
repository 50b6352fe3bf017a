import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Engine } from '../../src/engine/engine.ts';
import { createKitchenHandlers, type KitchenHandlers } from '../../src/engine/screen/kitchen-handlers.ts';
import { localCommands } from '../../src/engine/services/engine-commands.ts';
import { readKitchenBoard } from '../../src/engine/services/kitchen/kitchen-board.ts';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { KEY_MODES, twoEnginesForSuite } from './two-engines.ts';
import type { World } from '../../src/shared/world.ts';

const twoLines = {
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name: 'Cocina' },
  items: [
    { product_id: R1.products.empanadaQueso, quantity: 2 },
    { product_id: R1.products.bebidaLata, quantity: 1 },
  ],
};

/** Each line's done flag on the engine's board (a replica knows the restaurant under its own id). */
const doneOf = async (engine: Engine, restaurantId: string, orderId: string): Promise<boolean[] | undefined> =>
  (await readKitchenBoard(engine, restaurantId)).tickets.find((t) => t.order.id === orderId)?.kitchen.items.map((i) => i.done);

function scenarios(mode: World): void {
  const { sys, up, rep } = twoEnginesForSuite(mode);
  let replicaKitchen: KitchenHandlers;
  let upstreamKitchen: KitchenHandlers;

  before(() => {
    replicaKitchen = createKitchenHandlers({
      engine: sys.replica.replica.engine,
      commands: sys.replica.replica.commands,
      restaurantId: sys.replica.replica.identity.restaurantId,
    });
    upstreamKitchen = createKitchenHandlers({ engine: sys.upstream.engine, commands: localCommands(sys.upstream.engine, sys.upstream.providers.couriers), restaurantId: R1.id });
  });

  test('a bump on the replica is queued with it and reaches the upstream; one there comes back down', async () => {
    const created = await up('POST', '/orders', twoLines);
    assert.equal(created.status, 201);
    const orderId = created.body.id as string;
    await eventually(() => rep('GET', `/orders/${orderId}`), 'the order on the replica', { until: (r) => r.status === 200 });

    const replicaEngine = sys.replica.replica.engine;
    await replicaKitchen['items:set-done']({ order_id: orderId, item_index: 1, done: true });
    // Written to the durable outbox with the bump, whether or not it was sent yet.
    const queued = replicaEngine.db
      .prepare("SELECT payload FROM sync_outbox WHERE kind = 'set_item_done' AND order_id = ?")
      .all(orderId) as { payload: string }[];
    assert.deepEqual(queued.map((q) => JSON.parse(q.payload)), [{ item_index: 1, done: true }]);
    const upstreamDone = await eventually(async () => await doneOf(sys.upstream.engine, R1.id, orderId), 'the second item done', { until: (d) => d?.[1] === true });
    assert.deepEqual(upstreamDone, [false, true]);

    // The restaurant file's stations reached the replica with the item feed.
    const replicaBoard = await eventually(
      async () => await readKitchenBoard(replicaEngine, sys.replica.replica.identity.restaurantId),
      'b.stations.length > 0',
      { until: (b) => b.stations.length > 0 },
    );
    assert.deepEqual(replicaBoard.stations, (await readKitchenBoard(sys.upstream.engine, R1.id)).stations);
    assert.deepEqual(
      replicaBoard.tickets.find((t) => t.order.id === orderId)?.kitchen.items.map((i) => i.station_id),
      ['horno', 'bar'],
    );

    await upstreamKitchen['items:set-done']({ order_id: orderId, item_index: 0, done: true });
    const replicaDone = await eventually(async () => await doneOf(replicaEngine, sys.replica.replica.identity.restaurantId, orderId), 'the first item done', { until: (d) => d?.[0] === true });
    assert.deepEqual(replicaDone, [true, true]);
    // And un-striking travels the same way.
    await upstreamKitchen['items:set-done']({ order_id: orderId, item_index: 1, done: false });
    assert.deepEqual(await eventually(async () => await doneOf(replicaEngine, sys.replica.replica.identity.restaurantId, orderId), 'the second item undone', { until: (d) => d?.[1] === false }), [true, false]);

    // Kitchen data never shows in the public API, upstream or on the replica.
    for (const api of [up, rep]) {
      const feed = await api('GET', '/events?after=ev_0&limit=500');
      assert.ok(!feed.body.data.some((e: { type: string }) => e.type.startsWith('kitchen.')));
    }
  });

  test('a bump of an order still on its way up follows it, under the upstream\'s id', async () => {
    const created = await rep('POST', '/orders', twoLines);
    assert.equal(created.status, 201);
    await replicaKitchen['items:set-done']({ order_id: created.body.id, item_index: 0, done: true });
    const upstreamId = await eventually(
      async () => await sys.replica.replica.engine.stores.sync.upstreamIdOf(created.body.id) ?? (await sys.upstream.engine.stores.orders.getById(created.body.id) ? created.body.id : undefined),
      'id !== undefined',
      { until: (id) => id !== undefined },
    );
    assert.ok(upstreamId);
    assert.deepEqual(await eventually(async () => await doneOf(sys.upstream.engine, R1.id, upstreamId), 'the first item done', { until: (d) => d?.[0] === true }), [true, false]);
  });

  test('the sync door needs the platform key and replays an Idempotency-Key', async () => {
    const created = await up('POST', '/orders', twoLines);
    const url = `${sys.upstream.baseUrl}/sync/kitchen/orders/${created.body.id}/items/0`;
    const put = (headers: Record<string, string>) =>
      fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ done: true }) });
    assert.equal((await put({})).status, 401);
    const key = randomUUID();
    const first = await put({ authorization: `Bearer ${sys.key}`, 'idempotency-key': key });
    assert.equal(first.status, 200);
    assert.deepEqual(await first.json(), { order_id: created.body.id, data: [{ item_index: 0, done: true }] });
    const again = await put({ authorization: `Bearer ${sys.key}`, 'idempotency-key': key });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const openapi = await up('GET', '/openapi.json');
    assert.ok(!Object.keys(openapi.body.paths).some((p) => p.includes('sync/kitchen')), 'not part of the public API');
  });
}

for (const mode of KEY_MODES) {
  describe(`kitchen item states through a replica (${mode} key)`, () => scenarios(mode));
}
