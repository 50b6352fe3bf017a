// The project's one rush: its mix holds over the first 45 orders and over longer runs, the same seed
// replays the same night, and every order of it is one a real engine accepts and moves to the peak.
import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { FAMILY_LINES, RUSH_PEAK, rushOrder, rushPeakStates, stepsTo, type RushOrderBody } from '../../src/shared/demo-rush.ts';
import { DEMO_NOW, startEngineUnderTest, type EngineUnderTest } from '../support/engine-under-test.ts';

const now = Date.parse(DEMO_NOW);
const run = (count: number, seed?: number) => Array.from({ length: count }, (_, i) => rushOrder(i, { now, ...(seed === undefined ? {} : { seed }) }));
const share = (orders: RushOrderBody[], has: (o: RushOrderBody) => boolean) => orders.filter(has).length / orders.length;

describe('the rush generator', () => {
  test('replays: the same seed gives the same orders, another seed another night', () => {
    assert.deepEqual(run(45), run(45));
    assert.notDeepEqual(run(45, 7), run(45));
  });

  for (const count of [45, 450]) {
    test(`the mix over ${count} orders`, () => {
      const orders = run(count);
      const sizes = orders.map((o) => o.items.length);
      const close = (what: string, got: number, want: number, slack: number) => assert.ok(Math.abs(got - want) <= slack, `${what}: ${got.toFixed(3)}, want ${want} ± ${slack}`);
      const slack = count === 45 ? 0.05 : 0.02;
      const notFamily = sizes.filter((n) => n !== FAMILY_LINES);
      const of = (min: number, max: number) => notFamily.filter((n) => n >= min && n <= max).length / notFamily.length;
      close('1 item', of(1, 1), 0.2, slack);
      close('2 items', of(2, 2), 0.25, slack);
      close('3 items', of(3, 3), 0.2, slack);
      close('4 items', of(4, 4), 0.15, slack);
      close('5–6 items', of(5, 6), 0.12, slack);
      close('7–10 items', of(7, 10), 0.08, slack);
      assert.equal(sizes.filter((n) => n === FAMILY_LINES).length, count / 45, 'one family order of 12 lines in every 45');
      const items = orders.flatMap((o) => o.items);
      close('items with modifiers', items.filter((i) => i.modifier_option_ids).length / items.length, 0.3, slack);
      close('items with a note', items.filter((i) => i.notes).length / items.length, 0.2, slack);
      close('allergy notes', share(orders, (o) => /alergia|celíaco/i.test(o.notes ?? '')), 0.08, slack);
      close('order notes', share(orders, (o) => /timbre|cubiertos|tío|conserjería|boleta/i.test(o.notes ?? '')), 0.1, slack);
      close('delivery', share(orders, (o) => o.type === 'delivery'), 0.4, slack);
      close('scheduled', share(orders, (o) => o.scheduled_for !== undefined), 0.1, slack);
    });
  }

  test('the peak: 25 new, 10 preparing, 8 ready, 2 out; a scheduled order is never "new"', () => {
    const orders = run(45);
    const states = rushPeakStates(orders);
    const count = (s: string) => states.filter((x) => x === s).length;
    assert.deepEqual({ recibido: count('recibido'), en_preparacion: count('en_preparacion'), listo: count('listo'), en_reparto: count('en_reparto') }, RUSH_PEAK);
    states.forEach((s, i) => {
      if (orders[i]!.scheduled_for) assert.notEqual(s, 'recibido', `#${i} is scheduled`);
      if (s === 'en_reparto') assert.equal(orders[i]!.type, 'delivery');
    });
  });
});

describe('the rush on a real engine', () => {
  let e: EngineUnderTest;
  before(async () => {
    e = await startEngineUnderTest();
  });
  after(async () => {
    await e?.stop();
  });

  test('every order of 90 is accepted, and the first 45 reach the peak by PATCH', async () => {
    const orders = run(90);
    const made: { id: string; status: string }[] = [];
    for (const [i, body] of orders.entries()) {
      const created = await e.call('POST', '/orders', { body });
      assert.equal(created.status, 201, `order ${i}: ${created.text}`);
      made.push(created.body);
    }
    const states = rushPeakStates(orders.slice(0, 45));
    for (const [i, state] of states.entries()) {
      for (const target of stepsTo(state, orders[i]!.type)) {
        const moved = await e.call('PATCH', `/orders/${made[i]!.id}`, { body: { status: target } });
        assert.equal(moved.status, 200, `order ${i} → ${target}: ${moved.text}`);
      }
    }
    const list = await e.call('GET', '/orders?limit=100');
    assert.equal(list.status, 200, list.text);
  });
});
