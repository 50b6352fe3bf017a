import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../support/eventually.ts';
import { KEY_MODES, pickupOrder, twoEnginesForSuite } from './two-engines.ts';
import type { World } from '../../src/shared/world.ts';

// The pusher keeps several outbox changes on their way at once, refilling as answers come back
// (src/sync/push-window.ts, push-batch.ts): what that could break is an order's changes arriving out
// of order, a change overtaking one it must follow, and a failure in the middle of a round.
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

  const patchesOf = (id: string, lines: readonly string[]) => lines.filter((line) => line.startsWith(`PATCH /v1/orders/${id} `));

  test("while one change is slow, the window refills with the other orders' later changes; the slow order's next change waits for its answer", async () => {
    const ids = await mirroredOrders(['W-A', 'W-B', 'W-C', 'W-D', 'W-E']);
    const [slow, ...others] = ids as [string, ...string[]];
    const cursor = (await up('GET', '/events')).body.next_cursor;
    await offline();
    const path = ['en_preparacion', 'listo', 'entregado'];
    for (const target of path) {
      for (const id of ids) assert.equal((await rep('PATCH', `/orders/${id}`, { status: target })).status, 200);
    }
    const firstForwarded = sys.proxy.forwarded.length;
    // The slow order's first change is held on its way until every other change has reached the upstream.
    sys.proxy.set({ kind: 'hold-matching', match: new RegExp(`^PATCH /v1/orders/${slow} `) });
    await eventually(async () => sys.proxy.held.length, 'the slow change held', { until: (n) => n === 1 });
    await eventually(
      async () => others.map((id) => patchesOf(id, sys.proxy.forwarded.slice(firstForwarded)).length),
      "the other orders' three changes each through, the slow one still held",
      { until: (counts) => counts.every((n) => n === path.length) },
    );
    // Nothing of the slow order went past its held change.
    assert.deepEqual(patchesOf(slow, sys.proxy.forwarded.slice(firstForwarded)), []);
    sys.proxy.release();
    const status = await drained();
    assert.deepEqual(status.conflicts, []);
    const events = await feedSince(cursor);
    for (const id of ids) assert.deepEqual(historyOf(events, id), path, id);
    assert.equal(patchesOf(slow, sys.proxy.forwarded.slice(firstForwarded)).length, path.length, 'each change of the slow order sent once');
    assert.equal((await up('GET', `/orders/${slow}`)).body.status, 'entregado');
  });

  test('a new order waits for the changes before it to be answered, and the change after it waits for it', async () => {
    const [a, b, c] = await mirroredOrders(['N-A', 'N-B', 'N-C']);
    const cursor = (await up('GET', '/events')).body.next_cursor;
    await offline();
    // Queued: A's and B's changes, a new order (not about one order alone: it goes by itself), C's change.
    assert.equal((await rep('PATCH', `/orders/${a}`, { status: 'en_preparacion' })).status, 200);
    assert.equal((await rep('PATCH', `/orders/${b}`, { status: 'en_preparacion' })).status, 200);
    assert.equal((await rep('POST', '/orders', pickup('N-nuevo'))).status, 201);
    assert.equal((await rep('PATCH', `/orders/${c}`, { status: 'en_preparacion' })).status, 200);
    const firstForwarded = sys.proxy.forwarded.length;
    // A's change is held while B's is answered: the window has room, and the new order must still wait.
    sys.proxy.set({ kind: 'hold-matching', match: new RegExp(`^PATCH /v1/orders/${a} `) });
    await eventually(async () => sys.proxy.held.length, "A's change held", { until: (n) => n === 1 });
    await eventually(async () => (await up('GET', `/orders/${b}`)).body.status, "B's change through", { until: (s) => s === 'en_preparacion' });
    await eventually(syncStatus, "B's answer recorded", { until: (s) => s.outbox_pending === 3 });
    sys.proxy.release();
    const status = await drained();
    assert.deepEqual(status.conflicts, []);
    const forwarded = sys.proxy.forwarded.slice(firstForwarded).filter((line) => /^(PATCH|POST) \/v1\/orders/.test(line));
    const position = (prefix: string) => forwarded.findIndex((line) => line.startsWith(prefix));
    assert.deepEqual(
      [position(`PATCH /v1/orders/${b} `), position(`PATCH /v1/orders/${a} `), position('POST /v1/orders '), position(`PATCH /v1/orders/${c} `)],
      [0, 1, 2, 3],
      forwarded.join('\n'),
    );
    const events = await feedSince(cursor);
    assert.equal(events.filter((e) => e.type === 'order.created' && e.data.customer.name === 'N-nuevo').length, 1);
  });
}

for (const mode of KEY_MODES) describe(`pipelined outbox pushes, ${mode} key`, () => scenarios(mode));
