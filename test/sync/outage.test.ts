import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { KEY_MODES, pickupOrder, twoEnginesForSuite } from './two-engines.ts';
import type { World } from '../../src/shared/world.ts';

function scenarios(mode: World): void {
  const { sys, up, rep, syncStatus, drained, feedSince } = twoEnginesForSuite(mode);

  const pickup = pickupOrder;

  test('injected faults: a 500, a 429 with Retry-After and a reset mid-response deliver each change exactly once', async () => {
    const order = await rep('POST', '/orders', pickup('Faults'));
    assert.equal(order.status, 201);
    let status = await drained();
    assert.equal(status.outbox_pending, 0);
    const upstreamId = (await rep('GET', `/orders/${order.body.id}`)).body.id;

    sys.proxy.set({ kind: 'status', status: 500 });
    assert.equal((await rep('PATCH', `/orders/${order.body.id}`, { status: 'en_preparacion' })).status, 200);
    await eventually(syncStatus, 'a failed push', { until: (s) => s.last_error !== null });
    assert.equal((await syncStatus()).outbox_pending, 1);
    const injected = sys.proxy.injected;
    sys.proxy.set({ kind: 'status', status: 429, retryAfterSeconds: 1 });
    await eventually(async () => sys.proxy.injected, 'one more injected 429', { until: (n) => n > injected });
    assert.equal((await up('GET', `/orders/${upstreamId}`)).body.status, 'recibido', 'nothing got through');
    sys.proxy.set({ kind: 'pass' });
    await drained();
    assert.equal((await up('GET', `/orders/${upstreamId}`)).body.status, 'en_preparacion');

    // The upstream applies the create, the answer is cut: the retry with the same key is replayed.
    const before = sys.proxy.forwarded.filter((l) => l.startsWith('POST /v1/orders')).length;
    sys.proxy.set({ kind: 'reset-mid-response', afterBytes: 40 });
    const cut = await rep('POST', '/orders', pickup('Cut answer'));
    assert.equal(cut.status, 201);
    await eventually(async () => sys.proxy.forwarded.filter((l) => l.startsWith('POST /v1/orders')).length, 'the POST forwarded', { until: (n) => n > before });
    // The cut answer is a failed attempt on the replica's side before the network comes back.
    await eventually(async () => (await sys.replica.replica.engine.stores.sync.nextToPush())?.attempts ?? 0, 'a failed attempt', { until: (n) => n >= 1 });
    sys.proxy.set({ kind: 'pass' });
    status = await drained();
    assert.equal(status.conflicts.length, 0);
    const named = (await up('GET', '/orders?limit=100')).body.data.filter((o: any) => o.customer.name === 'Cut answer');
    assert.equal(named.length, 1, 'created exactly once upstream');
    assert.ok(sys.proxy.forwarded.filter((l) => l.startsWith('POST /v1/orders')).length >= before + 2, 'it was sent twice');
    const local = await rep('GET', `/orders/${cut.body.id}`);
    assert.equal(local.body.id, named[0].id);
  });

  test('a 10-minute outage with 200 kitchen changes: all arrive once, in order, and both sides end equal', async () => {
    const cursor = (await up('GET', '/events')).body.next_cursor;
    sys.proxy.set({ kind: 'refuse' });
    await eventually(syncStatus, 'the replica to see the upstream gone', { until: (s) => s.online === false });

    const expected = new Map<string, string[]>();
    const localIds: string[] = [];
    let changes = 0;
    const tick = () => sys.clock.advance(3_000); // 200 changes over 10 minutes
    for (let i = 0; i < 20; i++) {
      tick();
      const created = await rep('POST', '/orders', pickup(`Outage ${i}`));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      localIds.push(created.body.id);
      changes++;
      const path = i % 4 === 3 ? ['en_preparacion', 'cancelado'] : ['en_preparacion', 'listo', 'entregado'];
      for (const target of path) {
        tick();
        const moved = await rep('PATCH', `/orders/${created.body.id}`, { status: target });
        assert.equal(moved.status, 200);
        changes++;
      }
      expected.set(`Outage ${i}`, path);
    }
    // Meanwhile the store front keeps selling upstream.
    const direct = await up('POST', '/orders', pickup('Direct during outage'));
    assert.equal(direct.status, 201);
    let quantity = 0;
    while (changes < 175) {
      tick();
      quantity = (quantity + 7) % 50;
      const product = changes % 2 === 0 ? R1.products.empanadaQueso : R1.products.pastelDeChoclo;
      const set = await rep('PUT', '/stock', { location_id: R1.closedLocation, items: [{ product_id: product, quantity }] });
      assert.equal(set.status, 200);
      changes++;
    }
    let open = false;
    while (changes < 200) {
      tick();
      open = !open;
      const res = await rep('POST', `/locations/${R1.closedLocation}/${open ? 'open' : 'close'}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.open_now, open, 'the kitchen sees its own open/close at once');
      changes++;
    }
    const during = await syncStatus();
    // Sandbox stock and open/close are simulated: only the 75 order changes have anything to send.
    assert.equal(during.outbox_pending, mode === 'live' ? 200 : 75);
    assert.equal(during.online, false);
    assert.equal((await rep('GET', '/orders?limit=1')).status, 200, 'reads are served offline');

    sys.proxy.set({ kind: 'pass' });
    const status = await drained();
    assert.equal(status.outbox_pending, 0, JSON.stringify(status));
    assert.deepEqual(status.conflicts, []);

    // Exactly once, in order: each order's history upstream is the kitchen's history.
    const events = await feedSince(cursor);
    for (const [name, path] of expected) {
      const history = events.filter((e) => e.type.startsWith('order.') && e.data.customer.name === name).map((e) => e.data.status);
      assert.deepEqual(history, ['recibido', ...path], name);
    }
    const upstreamOrders = (await up('GET', '/orders?limit=100')).body.data;
    for (const name of expected.keys()) {
      assert.equal(upstreamOrders.filter((o: any) => o.customer.name === name).length, 1, name);
    }
    // Both sides equal: every order, every stock quantity, every location.
    // The feed's pages may still be catching up with states the pushes' answers already brought.
    const replicaOrders = await eventually(
      async () => (await rep('GET', '/orders?limit=100')).body.data,
      'JSON.stringify(orders) === JSON.stringify(upstreamOrders)',
      { until: (orders) => JSON.stringify(orders) === JSON.stringify(upstreamOrders) },
    );
    assert.deepEqual(replicaOrders, upstreamOrders);
    // Stock too: the feed's stock events, older than the answers the replica mirrored, are applied
    // in order after the replay and end at the upstream's last one.
    for (const location of [R1.openLocation, R1.closedLocation, R1.inactiveLocation]) {
      const [here, there] = await eventually(
        async () => [(await rep('GET', `/stock?location_id=${location}`)).body, (await up('GET', `/stock?location_id=${location}`)).body],
        `the stock at ${location} equal on both sides`,
        { until: ([a, b]) => JSON.stringify(a) === JSON.stringify(b) },
      );
      assert.deepEqual(here, there);
    }
    const locations = await eventually(
      async () => [(await rep('GET', '/locations')).body.data, (await up('GET', '/locations')).body.data],
      'JSON.stringify(a) === JSON.stringify(b)',
      { until: ([a, b]) => JSON.stringify(a) === JSON.stringify(b) },
    );
    assert.deepEqual(locations[0], locations[1]);
    for (const id of localIds) assert.equal((await rep('GET', `/orders/${id}`)).status, 200, 'local ids still answer');
  });

  test('a change the upstream refuses is a conflict: recorded with both sides, the upstream state wins', async () => {
    const order = await up('POST', '/orders', pickup('Conflict'));
    await eventually(() => rep('GET', `/orders/${order.body.id}`), 'the order on the replica', { until: (r) => r.status === 200 });
    sys.proxy.set({ kind: 'refuse' });
    await eventually(syncStatus, 'the replica to see the upstream gone', { until: (s) => s.online === false });
    assert.equal((await up('PATCH', `/orders/${order.body.id}`, { status: 'cancelado' })).status, 200);
    const local = await rep('PATCH', `/orders/${order.body.id}`, { status: 'en_preparacion' });
    assert.equal(local.status, 200);
    assert.equal(local.body.status, 'en_preparacion');
    sys.proxy.set({ kind: 'pass' });
    await drained();
    // The upstream's state is read after the refusal is recorded (an intent, retried until read).
    const status = await eventually(syncStatus, 'the conflict resolved', { until: (s) => s.conflicts_unresolved === 0 });
    assert.equal(status.conflicts.length, 1);
    const conflict = status.conflicts[0];
    assert.equal(conflict.kind, 'transition_order');
    assert.equal(conflict.order_id, order.body.id);
    assert.deepEqual(conflict.local_change, { status: 'en_preparacion' });
    assert.equal(conflict.upstream_error.code, 'illegal_transition');
    assert.equal(conflict.upstream_state.status, 'cancelado');
    const mirrored = await eventually(() => rep('GET', `/orders/${order.body.id}`), 'the cancel mirrored on the replica', { until: (r) => r.body.status === 'cancelado' });
    assert.equal(mirrored.body.status, 'cancelado');
  });

  test('the upstream killed and restarted: the kitchen goes on, then everything arrives', async () => {
    const order = await rep('POST', '/orders', pickup('Restart'));
    await drained();
    await sys.restartUpstream(async () => {
      await eventually(syncStatus, 'the replica to see the upstream gone', { until: (s) => s.online === false });
      assert.equal((await rep('PATCH', `/orders/${order.body.id}`, { status: 'en_preparacion' })).status, 200);
      assert.equal((await syncStatus()).outbox_pending, 1);
    });
    await drained();
    const id = (await rep('GET', `/orders/${order.body.id}`)).body.id;
    assert.equal((await up('GET', `/orders/${id}`)).body.status, 'en_preparacion');
  });
}

for (const mode of KEY_MODES) describe(`sync through faults, ${mode} key`, () => scenarios(mode));
