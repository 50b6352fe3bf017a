// The sync door's item feed (what a replica long-polls for the kitchen's bumps made upstream): its
// cursor moves past the events it has read, so a long-poll woken by each commit reads only what is new.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { R1 } from '../../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../../screen/support.ts';

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(async () => {
  await engine?.stop();
});

interface ItemFeed {
  data: { seq: number; order_id: string; item_index: number; done: boolean }[];
  next_cursor: number;
}

const feed = async (after: number, query = '') => {
  const response = await engine.call('GET', `/sync/kitchen/items?after=${after}&limit=200${query}`);
  assert.equal(response.status, 200, response.text);
  return response.body as ItemFeed;
};

test('the cursor passes the events read, not only the last item change; no item change is skipped', async () => {
  const bumped = (await placeOrder(engine)) as { id: string };
  await handlersFor(engine).ok('items:set-done', { order_id: bumped.id, item_index: 0, done: true });
  // Other events after the bump: new orders, a transition.
  for (let i = 0; i < 3; i++) await placeOrder(engine, { customer: { name: `Después ${i}` } });
  const head = await engine.server.engine.stores.events.lastSeq(R1.id);

  const first = await feed(0);
  assert.deepEqual(first.data.map((e) => [e.order_id, e.item_index, e.done]), [[bumped.id, 0, true]]);
  assert.equal(first.next_cursor, head, 'the cursor is at the last event read');
  const nothing = await feed(first.next_cursor);
  assert.deepEqual(nothing.data, []);
  assert.equal(nothing.next_cursor, head);

  // A long-poll from there, woken first by a commit with no item change, then by a bump.
  const waiting = feed(head, '&wait=20');
  const later = (await placeOrder(engine, { customer: { name: 'Durante la espera' } })) as { id: string };
  await handlersFor(engine).ok('items:set-done', { order_id: later.id, item_index: 0, done: true });
  const woken = await waiting;
  assert.deepEqual(woken.data.map((e) => [e.order_id, e.item_index, e.done]), [[later.id, 0, true]]);
  assert.equal(woken.next_cursor, await engine.server.engine.stores.events.lastSeq(R1.id));
  assert.ok(woken.data[0]!.seq > head);
});

test('a full page continues from its last entry', async () => {
  const order = (await placeOrder(engine, { items: [{ product_id: R1.products.empanadaQueso, quantity: 1 }, { product_id: R1.products.bebidaLata, quantity: 1 }] })) as { id: string };
  const before = await engine.server.engine.stores.events.lastSeq(R1.id);
  for (const index of [0, 1]) {
    await handlersFor(engine).ok('items:set-done', { order_id: order.id, item_index: index, done: true });
  }
  await placeOrder(engine, { customer: { name: 'Tras la página' } });
  const response = await engine.call('GET', `/sync/kitchen/items?after=${before}&limit=1`);
  const page = response.body as ItemFeed;
  assert.deepEqual(page.data.map((e) => e.item_index), [0]);
  assert.equal(page.next_cursor, page.data[0]!.seq, 'a full page may stop before the head');
  const rest = (await engine.call('GET', `/sync/kitchen/items?after=${page.next_cursor}&limit=1`)).body as ItemFeed;
  assert.deepEqual(rest.data.map((e) => e.item_index), [1]);
});
