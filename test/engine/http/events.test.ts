import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_NOW, startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1 } from '../../support/demo-ids.ts';
import { eventually } from '../../support/eventually.ts';

const R2_CALIFORNIA_ROLL = '23000000-0000-4000-8000-000000000001';
const R2_LAS_CONDES = '21000000-0000-4000-8000-000000000002';

interface FeedEvent {
  id: string;
  type: string;
  created_at: string;
  data: any;
}

describe('GET /events', () => {
  let engine: EngineUnderTest;
  let r1: { live_write: string; live_read: string; test_write: string; test_read: string };
  let r2: { live_write: string; live_read: string; test_write: string; test_read: string };

  before(async () => {
    engine = await startEngineUnderTest();
    r1 = engine.demo[0]!.keys;
    r2 = engine.demo[1]!.keys;
  });
  after(async () => {
    await engine.stop();
  });

  const feedEnd = async (key: string): Promise<string> => {
    const res = await engine.call('GET', '/events', { key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, []);
    return res.body.next_cursor;
  };
  const page = async (key: string, query: string) => {
    const res = await engine.call('GET', `/events?${query}`, { key });
    assert.equal(res.status, 200, res.text);
    return res.body as { data: FeedEvent[]; next_cursor: string; has_more: boolean };
  };
  const createOrder = async (key: string, productId: string = R1.products.cazuela, locationId: string = R1.openLocation) => {
    const res = await engine.call('POST', '/orders', {
      key,
      body: { location_id: locationId, type: 'retiro', customer: { name: 'Ana' }, items: [{ product_id: productId, quantity: 1 }] },
    });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };
  const setStock = async (quantity: number) => {
    const res = await engine.call('PUT', '/stock', {
      key: r1.live_write,
      body: { location_id: R1.closedLocation, items: [{ product_id: R1.products.pastelDeChoclo, quantity }] },
    });
    assert.equal(res.status, 200);
  };

  test('no cursor means from now: empty page whose next_cursor is usable', async () => {
    await createOrder(r1.live_write); // history before "now" is not replayed
    const now = await engine.call('GET', '/events', { key: r1.live_read });
    assert.equal(now.status, 200);
    assert.equal(now.body.data.length, 0);
    assert.equal(now.body.has_more, false);
    assert.match(now.body.next_cursor, /^ev_[0-9]+$/);
    assert.deepEqual(Object.keys(now.body).sort(), ['data', 'has_more', 'next_cursor']);

    const order = await createOrder(r1.live_write);
    const next = await page(r1.live_read, `after=${now.body.next_cursor}`);
    assert.equal(next.data.length, 1);
    assert.equal(next.data[0]!.type, 'order.created');
    assert.equal(next.data[0]!.data.id, order.id);
    assert.equal(next.next_cursor, next.data[0]!.id);
    assert.equal(next.has_more, false);
  });

  test('events after a cursor come oldest first with every type, order events carrying the full order', async () => {
    engine.clock.set(DEMO_NOW);
    const cursor = await feedEnd(r1.live_read);

    const created = await createOrder(r1.live_write);
    engine.clock.advance(60_000);
    const patched = await engine.call('PATCH', `/orders/${created.id}`, { key: r1.live_write, body: { status: 'en_preparacion' } });
    assert.equal(patched.status, 200);
    engine.clock.advance(60_000);
    await setStock(6);
    engine.clock.advance(60_000);
    const opened = await engine.call('POST', `/locations/${R1.closedLocation}/open`, { key: r1.live_write });
    assert.equal(opened.status, 200);

    const result = await page(r1.live_read, `after=${cursor}`);
    assert.equal(result.has_more, false);
    // The orders of the tests before wait at the same stations: a promise of theirs moved later by
    // the kitchen's load (issue 32, an order.updated carrying `promise`) is not this test's business.
    const ours = result.data.filter((e) => !(e.type === 'order.updated' && (e.data as { promise?: unknown }).promise !== undefined));
    assert.deepEqual(
      ours.map((e) => [e.type, e.created_at]),
      [
        ['order.created', '2026-11-21T20:00:00-03:00'],
        ['order.updated', '2026-11-21T20:01:00-03:00'],
        ['stock.updated', '2026-11-21T20:02:00-03:00'],
        ['location.updated', '2026-11-21T20:03:00-03:00'],
      ],
    );
    const [c, u, s, l] = ours as [FeedEvent, FeedEvent, FeedEvent, FeedEvent];
    const { promise: _promise, ...order } = created; // the promise is the creation's answer, not the event's
    assert.deepEqual(c.data, order);
    assert.equal(c.data.status, 'recibido');
    assert.deepEqual(u.data, patched.body);
    assert.equal(u.data.status, 'en_preparacion');
    assert.deepEqual(u.data, (await engine.call('GET', `/orders/${created.id}`, { key: r1.live_read })).body);
    assert.deepEqual(s.data, { location_id: R1.closedLocation, items: [{ product_id: R1.products.pastelDeChoclo, quantity: 6 }] });
    assert.deepEqual(l.data, opened.body);
    assert.equal(l.data.reason, 'caja_abierta');

    // ids are cursors, increasing; the page's next_cursor is its last id
    const seqs = result.data.map((e) => Number(e.id.slice(3)));
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b));
    assert.equal(new Set(seqs).size, 4);
    assert.equal(result.next_cursor, l.id);
    assert.deepEqual(
      (await page(r1.live_read, `after=${u.id}`)).data.map((e) => e.id),
      [s.id, l.id],
    );
    // nothing after the end: empty, the cursor stays
    assert.deepEqual(await page(r1.live_read, `after=${l.id}`), { data: [], next_cursor: l.id, has_more: false });

    const closed = await engine.call('POST', `/locations/${R1.closedLocation}/close`, { key: r1.live_write });
    assert.equal(closed.status, 200);
  });

  test('limit and has_more page through the feed', async () => {
    const cursor = await feedEnd(r1.live_read);
    for (const quantity of [1, 2, 3, 4, 5]) await setStock(quantity);

    const first = await page(r1.live_read, `after=${cursor}&limit=2`);
    assert.equal(first.data.length, 2);
    assert.equal(first.has_more, true);
    assert.equal(first.next_cursor, first.data[1]!.id);
    const second = await page(r1.live_read, `after=${first.next_cursor}&limit=2`);
    assert.equal(second.data.length, 2);
    assert.equal(second.has_more, true);
    const third = await page(r1.live_read, `after=${second.next_cursor}&limit=2`);
    assert.equal(third.data.length, 1);
    assert.equal(third.has_more, false);
    assert.deepEqual(
      [...first.data, ...second.data, ...third.data].map((e) => e.data.items[0].quantity),
      [1, 2, 3, 4, 5],
    );
    // exactly `limit` left: has_more is false
    const exact = await page(r1.live_read, `after=${first.next_cursor}&limit=3`);
    assert.equal(exact.data.length, 3);
    assert.equal(exact.has_more, false);
    // default limit and the largest one
    assert.equal((await page(r1.live_read, `after=${cursor}`)).data.length, 5);
    assert.equal((await page(r1.live_read, `after=${cursor}&limit=500`)).data.length, 5);
  });

  /** Starts a long-poll and resolves once the engine holds it (waits on the feed), with whether it has answered yet. */
  async function held(key: string, restaurantId: string, query: string) {
    const before = engine.server.engine.notifier.waiting(restaurantId);
    let answered = false;
    const pending = engine.call('GET', `/events?${query}`, { key }).then((res) => {
      answered = true;
      return res;
    });
    await eventually(() => engine.server.engine.notifier.waiting(restaurantId) > before || answered, 'the long-poll to be held');
    assert.equal(answered, false, 'held, not answered at once');
    // Wrapped: an async function returning the promise itself would wait for its answer.
    return { answer: pending };
  }

  test('long-poll: a wait answers as soon as an order is created, not at its end', async () => {
    const cursor = await feedEnd(r1.live_read);
    // wait=30: an answer at the end of the wait would carry no event, so no clock is needed to tell.
    const pending = await held(r1.live_read, R1.id, `after=${cursor}&wait=30`);
    const order = await createOrder(r1.live_write);
    const res = await pending.answer;
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.map((e: FeedEvent) => [e.type, e.data.id]),
      [['order.created', order.id]],
    );
  });

  test('long-poll: wait=1 with nothing new answers empty, after at least 1 s', async () => {
    const cursor = await feedEnd(r1.live_read);
    const started = performance.now();
    const res = await engine.call('GET', `/events?after=${cursor}&wait=1`, { key: r1.live_read });
    const elapsed = performance.now() - started;
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: [], next_cursor: cursor, has_more: false });
    // A lower bound only: a loaded machine makes it later, never sooner.
    assert.ok(elapsed >= 950, `held about 1 s (${elapsed} ms)`);
  });

  test('long-poll: another world\'s or another restaurant\'s event does not answer the wait', async () => {
    const testCursor = await feedEnd(r1.test_read);
    const r2Cursor = await feedEnd(r2.live_read);
    const started = performance.now();
    const sandboxPoll = await held(r1.test_read, R1.id, `after=${testCursor}&wait=1`);
    const otherPoll = await held(r2.live_read, engine.demo[1]!.id, `after=${r2Cursor}&wait=1`);
    await createOrder(r1.live_write);
    const [sandbox, other] = await Promise.all([sandboxPoll.answer, otherPoll.answer]);
    const elapsed = performance.now() - started;
    assert.deepEqual(sandbox.body, { data: [], next_cursor: testCursor, has_more: false });
    assert.deepEqual(other.body, { data: [], next_cursor: r2Cursor, has_more: false });
    assert.ok(elapsed >= 950, `both held for the whole wait (${elapsed} ms)`);

    // while a sandbox order answers the sandbox wait at once (wait=30: the end of the wait carries no event)
    const pending = await held(r1.test_read, R1.id, `after=${testCursor}&wait=30`);
    const sandboxOrder = await createOrder(r1.test_write);
    const res = await pending.answer;
    assert.deepEqual(
      res.body.data.map((e: FeedEvent) => [e.type, e.data.id, e.data.test]),
      [['order.created', sandboxOrder.id, true]],
    );
  });

  test('each key sees its own world: orders by world, stock and location events in both; never another restaurant', async () => {
    const live = await feedEnd(r1.live_read);
    const sandbox = await feedEnd(r1.test_read);
    const other = await feedEnd(r2.test_read);

    const liveOrder = await createOrder(r1.live_write, R1.products.empanadaQueso);
    const testOrder = await createOrder(r1.test_write, R1.products.empanadaQueso);
    const testPatched = await engine.call('PATCH', `/orders/${testOrder.id}`, { key: r1.test_write, body: { status: 'cancelado' } });
    assert.equal(testPatched.status, 200);
    await setStock(11);
    const closed = await engine.call('POST', `/locations/${R1.closedLocation}/open`, { key: r1.live_write });
    assert.equal(closed.status, 200);
    // a sandbox stock write or open/close changes nothing and writes no event
    assert.equal(
      (
        await engine.call('PUT', '/stock', {
          key: r1.test_write,
          body: { location_id: R1.openLocation, items: [{ product_id: R1.products.empanadaQueso, quantity: 1 }] },
        })
      ).status,
      200,
    );
    assert.equal((await engine.call('POST', `/locations/${R1.openLocation}/close`, { key: r1.test_write })).status, 200);

    const liveEvents = (await page(r1.live_read, `after=${live}`)).data;
    const testEvents = (await page(r1.test_read, `after=${sandbox}`)).data;
    const summary = (events: FeedEvent[]) =>
      events.map((e) => (e.type.startsWith('order.') ? `${e.type} ${e.data.id}` : `${e.type} ${e.data.location_id}`)).sort();

    // the live order took stock (a stock.updated event); the sandbox order did not
    assert.deepEqual(
      summary(liveEvents),
      [
        `location.updated ${R1.closedLocation}`,
        `order.created ${liveOrder.id}`,
        `stock.updated ${R1.closedLocation}`,
        `stock.updated ${R1.openLocation}`,
      ].sort(),
    );
    assert.deepEqual(
      summary(testEvents),
      [
        `location.updated ${R1.closedLocation}`,
        `order.created ${testOrder.id}`,
        `order.updated ${testOrder.id}`,
        `stock.updated ${R1.closedLocation}`,
        `stock.updated ${R1.openLocation}`,
      ].sort(),
    );
    const liveStock = liveEvents.find((e) => e.type === 'stock.updated' && e.data.location_id === R1.openLocation)!;
    assert.deepEqual(liveStock.data, { location_id: R1.openLocation, items: [{ product_id: R1.products.empanadaQueso, quantity: 29 }] });
    assert.deepEqual(testEvents.find((e) => e.type === 'order.updated')!.data, testPatched.body);
    // the shared events are the same entries in both feeds
    assert.deepEqual(
      liveEvents.filter((e) => !e.type.startsWith('order.')),
      testEvents.filter((e) => !e.type.startsWith('order.')),
    );

    assert.deepEqual((await page(r2.test_read, `after=${other}`)).data, []);
    assert.deepEqual((await page(r2.live_read, `after=${other}`)).data, []);

    // and restaurant 2's own events are its own
    const r1Cursor = await feedEnd(r1.live_read);
    const r2Order = await createOrder(r2.live_write, R2_CALIFORNIA_ROLL, R2_LAS_CONDES);
    assert.deepEqual(
      (await page(r2.live_read, `after=${other}`)).data.map((e) => [e.type, e.data.id]),
      [['order.created', r2Order.id]],
    );
    assert.deepEqual((await page(r1.live_read, `after=${r1Cursor}`)).data, []);

    assert.equal((await engine.call('POST', `/locations/${R1.closedLocation}/close`, { key: r1.live_write })).status, 200);
  });

  test('malformed cursor is 400', async () => {
    for (const after of ['abc', 'ev_', 'ev_-1', 'ev_01', 'ev_1.5', 'ev_99999999999999999', encodeURIComponent('ev_1 ')]) {
      const res = await engine.call('GET', `/events?after=${after}`, { key: r1.live_read });
      assert.equal(res.status, 400, after);
      assert.deepEqual(res.body, {
        error: { code: 'invalid_request', message: 'after is not a cursor this API gave out (use next_cursor as it came)' },
      });
    }
  });

  test('limit outside 1..500 and wait outside 0..30 are 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['limit=0', 'limit must be >= 1'],
      ['limit=501', 'limit must be <= 500'],
      ['limit=abc', 'limit must be integer'],
      ['limit=2.5', 'limit must be integer'],
      ['wait=31', 'wait must be <= 30'],
      ['wait=-1', 'wait must be >= 0'],
      ['wait=1.5', 'wait must be integer'],
    ];
    for (const [query, message] of cases) {
      const res = await engine.call('GET', `/events?${query}`, { key: r1.live_read });
      assert.equal(res.status, 400, query);
      assert.deepEqual(res.body, { error: { code: 'invalid_request', message } }, query);
    }
    assert.equal((await engine.call('GET', '/events?limit=1&wait=0', { key: r1.live_read })).status, 200);
  });
});
