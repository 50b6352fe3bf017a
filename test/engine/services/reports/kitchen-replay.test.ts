// The replay of a past service over the real engine (issue 33): a rush with known times in, read
// once through the desktop channel; the board, the cook lanes, the queue and the promises at chosen
// instants are exact.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { R1 } from '../../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../../screen/support.ts';
import { replayFrame, type KitchenReplay } from '../../../../src/shared/kitchen-replay.ts';
import { callScreenHandler } from '../../../../src/engine/screen/dispatch.ts';

const MIN = 60_000;
/** A week after the demo's evening, as the report's test: a day the demo's own orders are not in. */
const T0 = DateTime.fromISO('2026-11-28T20:00:00-03:00').toMillis();
const DAY = '2026-11-28';
const completo = { product_id: R1.products.completo, quantity: 1 };

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(async () => {
  await engine?.stop();
});

test('the replay gives the board, the cook lanes, the queue and the promises exactly at chosen instants', async () => {
  const kitchen = handlersFor(engine);
  const at = (minutes: number) => engine.clock.set(T0 + minutes * MIN);
  const orders: Record<string, { id: string; number: string }> = {};
  const fire = async (name: string, minutes: number) => {
    at(minutes);
    orders[name] = await placeOrder(engine, { items: [completo] });
    await kitchen.ok('orders:transition', { order_id: orders[name]!.id, target: 'en_preparacion' });
  };
  const bumpReady = async (name: string, minutes: number) => {
    at(minutes);
    await kitchen.ok('items:set-done', { order_id: orders[name]!.id, item_index: 0, done: true });
    await kitchen.ok('orders:transition', { order_id: orders[name]!.id, target: 'listo' });
  };

  // The plancha has 2 cooks: A and B cook at once, C waits for A's cook, J is cancelled before a cook takes it.
  await fire('A', 0);
  await fire('B', 1);
  await fire('C', 2);
  await fire('J', 3);
  at(5);
  await kitchen.ok('orders:transition', { order_id: orders.J!.id, target: 'cancelado' });
  await bumpReady('A', 6);
  await bumpReady('B', 12);
  await bumpReady('C', 18);
  at(30);
  await kitchen.ok('orders:transition', { order_id: orders.A!.id, target: 'entregado' });
  at(600);

  const replay: KitchenReplay = await kitchen.ok('reports:replay', { location_id: R1.openLocation, day: DAY });
  assert.equal(replay.day, DAY);
  assert.equal(replay.start, T0, 'the span starts at the first order');
  assert.equal(replay.end, T0 + 30 * MIN, 'and ends at the last thing that happened');
  assert.equal(replay.truncated, false);
  assert.deepEqual(replay.orders.map((o) => o.number), ['A', 'B', 'C', 'J'].map((n) => orders[n]!.number));
  const order = (name: string) => replay.orders.find((o) => o.id === orders[name]!.id)!;
  assert.deepEqual(order('A').states.map(([when, status]) => [(when - T0) / MIN, status]), [
    [0, 'recibido'],
    [0, 'en_preparacion'],
    [6, 'listo'],
    [30, 'entregado'],
  ]);
  assert.equal(order('C').ready_at, T0 + 18 * MIN);
  assert.equal(order('J').ready_at, null);
  for (const name of ['A', 'B', 'C']) assert.equal(typeof order(name).promised_ready_at, 'number', `${name} has its promise`);

  const plancha = replay.stations.find((s) => s.lanes === 2);
  assert.ok(plancha, 'the plancha and its 2 cooks');
  const lineOf = (name: string) => replay.lines.find((l) => replay.orders[l.order]!.id === orders[name]!.id)!;
  // Cook 1 takes A at once, cook 2 takes B at once; C waits for cook 1 (free at 6); J is never cooked.
  assert.deepEqual(['A', 'B', 'C'].map((n) => [lineOf(n).lane, (lineOf(n).work_from - T0) / MIN, (lineOf(n).done_at! - T0) / MIN]), [
    [0, 0, 6],
    [1, 1, 12],
    [0, 6, 18],
  ]);
  assert.equal(lineOf('J').lane, null);

  const numbers = (cards: { number: string }[]) => cards.map((c) => c.number);
  const window = 60 * MIN;
  // 20:04: A, B, C and J in preparation; A and B cooking; C and J waiting.
  const four = replayFrame(replay, T0 + 4 * MIN, window);
  assert.deepEqual(numbers(four.columns.en_preparacion), ['A', 'B', 'C', 'J'].map((n) => orders[n]!.number));
  assert.deepEqual(numbers(four.columns.listo), []);
  assert.equal(four.queue, 2);
  const lanesAtFour = four.stations.find((s) => s.station_id === plancha.station_id)!;
  assert.deepEqual(lanesAtFour.bars.map((b) => [b.lane, b.number, b.cooking, (b.to - T0) / MIN]), [
    [0, orders.A!.number, true, 4],
    [1, orders.B!.number, true, 4],
  ]);
  // 20:07: J cancelled (off the board and out of the queue), A ready, C taken by cook 1.
  const seven = replayFrame(replay, T0 + 7 * MIN, window);
  assert.deepEqual(numbers(seven.columns.en_preparacion), ['B', 'C'].map((n) => orders[n]!.number));
  assert.deepEqual(numbers(seven.columns.listo), [orders.A!.number]);
  assert.equal(seven.queue, 0);
  assert.deepEqual(
    seven.stations.find((s) => s.station_id === plancha.station_id)!.bars.map((b) => [b.lane, b.number, b.cooking]),
    [
      [0, orders.A!.number, false],
      [1, orders.B!.number, true],
      [0, orders.C!.number, true],
    ],
  );
  // 20:31: A delivered, B and C ready; a promise shows late only while the order is not yet ready.
  const later = replayFrame(replay, T0 + 31 * MIN, window);
  assert.deepEqual(numbers(later.columns.listo), ['B', 'C'].map((n) => orders[n]!.number));
  assert.equal(later.columns.listo.some((c) => c.late), false);
  const c = order('C');
  const lateC = replayFrame(replay, c.promised_ready_at! + 1000, window).columns.en_preparacion.find((card) => card.number === c.number);
  assert.equal(lateC?.late ?? false, c.promised_ready_at! + 1000 < c.ready_at!, 'C is late at a second past its promise exactly when it was not ready by then');
  // Before the service: nothing.
  const before = replayFrame(replay, T0 - MIN, window);
  assert.equal(Object.values(before.columns).flat().length, 0);
});

test('the replay is refused for a day that does not exist and a location that is not there', async () => {
  const kitchen = handlersFor(engine);
  const bad = await callScreenHandler(kitchen.handlers, 'reports:replay', { location_id: R1.openLocation, day: '2026-02-30' });
  assert.equal(bad.ok, false);
  const missing = await callScreenHandler(kitchen.handlers, 'reports:replay', { location_id: '00000000-0000-4000-8000-000000000000', day: DAY });
  assert.equal(missing.ok, false);
});
