import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../support/eventually.ts';
import { KEY_MODES, pickupOrder, twoEnginesForSuite } from './two-engines.ts';
import type { World } from '../../src/shared/world.ts';

// The pusher sends several outbox changes at once (src/sync/push-batch.ts): what that could break
// is an order's changes arriving out of order, and a failure in the middle of a batch.
function scenarios(mode: World): void {
  const { sys, up, rep, syncStatus, drained, feedSince } = twoEnginesForSuite(mode);

  const pickup = pickupOrder;

  /** Orders placed upstream and mirrored on the replica (so their changes are order-scoped, no create goes first). */
  async function mirroredOrders(names: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const name of names) {
      const created = await up('POST', '/orders', pickup(name));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      ids.push(created.body.id);
    }
    for (const id of ids) await eventually(async () => (await rep('GET', `/orders/${id}`)).status, `order ${id} on the replica`, { until: (s) => s === 200 });
    return ids;
  }

  async function offline(): Promise<void> {
    sys.proxy.set({ kind: 'refuse' });
    await eventually(syncStatus, 'the replica to see the upstream gone', { until: (s) => s.online === false });
  }

  const historyOf = (events: { type: string; data: any }[], id: string) =>
    events.filter((e) => e.type.startsWith('order.') && e.data.id === id).map((e) => e.data.status);

  test("changes to many orders queued offline, interleaved: each order's arrive once, in the order made", async () => {
    const ids = await mirroredOrders(['P1', 'P2', 'P3', 'P4', 'P5', 'P6']);
    const cursor = (await up('GET', '/events')).body.next_cursor;
    await offline();
    const path = ['en_preparacion', 'listo', 'entregado'];
    for (const target of path) {
      for (const id of ids) assert.equal((await rep('PATCH', `/orders/${id}`, { status: target })).status, 200);
    }
    assert.equal((await syncStatus()).outbox_pending, ids.length * path.length);
    sys.proxy.set({ kind: 'pass' });
    const status = await drained();
    assert.deepEqual(status.conflicts, []);
    const events = await feedSince(cursor);
    for (const id of ids) assert.deepEqual(historyOf(events, id), path, id);
    const forwarded = sys.proxy.forwarded.filter((line) => line.startsWith('PATCH /v1/orders/'));
    for (const id of ids) assert.equal(forwarded.filter((line) => line.includes(id)).length, path.length, `each change of ${id} sent once`);
  });

  test('a change failing in the middle of a batch is retried with its key, the others of the batch go through, and its order waits for it', async () => {
    const [a, b, c] = await mirroredOrders(['F-A', 'F-B', 'F-C']);
    const cursor = (await up('GET', '/events')).body.next_cursor;
    await offline();
    // Queued: A1, B1, A2, C1, B2. The first batch is A1, B1, C1 (A2 and B2 wait behind their order's).
    for (const [id, target] of [[a, 'en_preparacion'], [b, 'en_preparacion'], [a, 'listo'], [c, 'en_preparacion'], [b, 'listo']] as const) {
      assert.equal((await rep('PATCH', `/orders/${id}`, { status: target })).status, 200);
    }
    const firstForwarded = sys.proxy.forwarded.length;
    // A's first change is answered 503 once, without reaching the upstream; everything else passes.
    sys.proxy.set({ kind: 'fail-matching', match: new RegExp(`^PATCH /v1/orders/${a} `), times: 1, status: 503 });
    const status = await drained();
    assert.deepEqual(status.conflicts, []);
    assert.equal(sys.proxy.failed.length, 1);
    const events = await feedSince(cursor);
    assert.deepEqual(historyOf(events, a!), ['en_preparacion', 'listo']);
    assert.deepEqual(historyOf(events, b!), ['en_preparacion', 'listo']);
    assert.deepEqual(historyOf(events, c!), ['en_preparacion']);
    const forwarded = sys.proxy.forwarded.slice(firstForwarded).filter((line) => line.startsWith('PATCH /v1/orders/'));
    const at = (id: string, nth = 0) => forwarded.map((line, index) => (line.includes(id) ? index : -1)).filter((i) => i >= 0)[nth]!;
    assert.equal(forwarded.filter((line) => line.includes(a!)).length, 2, 'A: the retried change and the next, once each');
    // The batch went on past the failure: B's and C's first changes reached the upstream before A's retry.
    assert.ok(at(b!) < at(a!) && at(c!) < at(a!), forwarded.join('\n'));
    assert.equal((await up('GET', `/orders/${a}`)).body.status, 'listo');
  });
}

for (const mode of KEY_MODES) describe(`pipelined outbox pushes, ${mode} key`, () => scenarios(mode));
