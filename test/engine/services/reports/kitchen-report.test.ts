// Informes over the real engine (issue 33): a rush with known times in, the exact figures out, the
// implausible bumps (a mass bump, one bumped before it could be cooked, a ticket left open) left out
// of every figure and counted, a recall and a cancellation listed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { R1 } from '../../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../../screen/support.ts';
import { readKitchenReport } from '../../../../src/engine/services/reports/kitchen-report.ts';
import type { Actor } from '../../../../src/engine/domain/actor.ts';

const MIN = 60_000;
/** A week after the demo's evening: the same opening hours, and a day the demo's own orders are not in. */
const T0 = DateTime.fromISO('2026-11-28T20:00:00-03:00').toMillis();
const DAY = '2026-11-28';
const manager: Actor = { restaurantId: R1.id, world: 'live', canWrite: false, keyId: 'test' };
const completo = { product_id: R1.products.completo, quantity: 1 };

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(async () => {
  await engine?.stop();
});

test('a rush with known times gives the exact figures, and the implausible bumps are left out and counted', async () => {
  const kitchen = handlersFor(engine);
  const at = (minutes: number) => engine.clock.set(T0 + minutes * MIN);
  const orders: Record<string, any> = {};
  const fire = async (name: string, minutes: number) => {
    at(minutes);
    orders[name] = await placeOrder(engine, { items: [completo] });
    // Started at once (a start tap at the firing tells the log nothing new of its start).
    await kitchen.ok('orders:transition', { order_id: orders[name].id, target: 'en_preparacion' });
  };
  const bump = async (name: string, minutes: number) => {
    at(minutes);
    await kitchen.ok('items:set-done', { order_id: orders[name].id, item_index: 0, done: true });
  };
  const ready = async (name: string) => kitchen.ok('orders:transition', { order_id: orders[name].id, target: 'listo' });

  // The plancha has 2 cooks (the demo's file): A, B and C are honest, D was bumped a minute after it
  // fired (a completo is typed 5 minutes), E–H were swept off together, I was never bumped, J was cancelled.
  await fire('A', 0);
  await fire('B', 1);
  await fire('C', 2);
  await fire('J', 3);
  at(5);
  await kitchen.ok('orders:transition', { order_id: orders.J.id, target: 'cancelado' });
  await bump('A', 6);
  await ready('A');
  await bump('B', 12);
  await ready('B');
  await bump('C', 18);
  await ready('C');
  await fire('D', 20);
  await bump('D', 21);
  await ready('D');
  for (const [i, name] of ['E', 'F', 'G', 'H'].entries()) await fire(name, 22 + i);
  await fire('I', 26);
  for (const [i, name] of ['E', 'F', 'G', 'H'].entries()) {
    engine.clock.set(T0 + 40 * MIN + i * 1000);
    await kitchen.ok('items:set-done', { order_id: orders[name].id, item_index: 0, done: true });
    await ready(name);
  }
  at(45);
  await kitchen.ok('orders:transition', { order_id: orders.A.id, target: 'entregado' });
  await kitchen.ok('orders:recall', { order_id: orders.A.id });
  // I is still open three hours after it fired: left open.
  at(180);

  const report = await readKitchenReport(engine.server.engine, manager, { location_id: R1.openLocation, from: DAY });
  assert.equal(report.slot_minutes, 15);
  assert.equal(report.rush.length, 96, 'a day of 15-minute slots');
  assert.deepEqual(report.tickets, { fired: 10, counted: 3, open: 1, cancelled: 1, left_out: 6 });

  const slot = (hhmm: string) => report.rush.find((s) => s.start === `${DAY}T${hhmm}:00-03:00`)!;
  // 20:00–20:15: A (6 min) and B (11 min) finished; C on the board at 20:15.
  assert.deepEqual(slot('20:00'), { start: `${DAY}T20:00:00-03:00`, end: `${DAY}T20:15:00-03:00`, finished: 2, p50_seconds: 510, p90_seconds: 630, in_progress: 1 });
  // 20:15–20:30: C (16 min) counted; D done too fast, not counted; E–H and I on the board at 20:30.
  assert.deepEqual(slot('20:15'), { start: `${DAY}T20:15:00-03:00`, end: `${DAY}T20:30:00-03:00`, finished: 1, p50_seconds: 960, p90_seconds: 960, in_progress: 5 });
  // 20:30–20:45: the sweep finished E–H, none counted; I still open.
  assert.deepEqual(slot('20:30'), { start: `${DAY}T20:30:00-03:00`, end: `${DAY}T20:45:00-03:00`, finished: 0, p50_seconds: null, p90_seconds: null, in_progress: 1 });
  assert.equal(slot('19:45').in_progress, 0);

  // The plancha at 20 h: A, B, C's times 6, 11, 16 minutes; p90 linear between ranks.
  assert.deepEqual(report.heatmap, [{ station_id: 'plancha', station_name: 'Plancha', hour: 20, p90_seconds: 900, tickets: 3 }]);

  // One unit's cook time from its known start: A 6 min; B 11 (one cook still free); C from 20:06 (the
  // bump 2 places before it freed a cook) to 20:18, 12 min. D (1 min) and the sweep left out.
  const item = report.items.find((i) => i.product_id === R1.products.completo)!;
  assert.deepEqual(item, {
    station_id: 'plancha',
    product_id: R1.products.completo,
    product_name: item.product_name,
    count: 3,
    excluded: 5,
    median_seconds: 660,
    p90_seconds: 708,
    typed_seconds: 300,
    learned_seconds: null,
  });
  assert.match(item.product_name, /Completo/);

  assert.deepEqual(report.excluded.bumps, { mass_bump: 4, too_fast: 1, left_open: 0 });
  assert.equal(report.excluded.tickets_left_open, 1);
  const listed = report.excluded.list.map((e) => `${e.number}:${e.reason}:${e.item_index}`).sort();
  const expected = [
    `${orders.D.number}:too_fast:0`,
    ...['E', 'F', 'G', 'H'].map((n) => `${orders[n].number}:mass_bump:0`),
    `${orders.I.number}:left_open:null`,
  ].sort();
  assert.deepEqual(listed, expected);
  assert.equal(report.excluded.list_truncated, false);
  const open = report.excluded.list.find((e) => e.item_index === null)!;
  assert.equal(open.seconds, 154 * 60, 'I has been open since 20:26');

  assert.deepEqual(report.recalls, [{ order_id: orders.A.id, number: orders.A.number, at: `${DAY}T20:45:00-03:00` }]);
  assert.deepEqual(report.cancellations, [
    { order_id: orders.J.id, number: orders.J.number, created_at: `${DAY}T20:03:00-03:00`, cancelled_at: `${DAY}T20:05:00-03:00`, reached_kitchen: true },
  ]);

  // Promises: every order made one; those ready by it are counted from the engine's own answers.
  const promised = Object.entries(orders).filter(([, o]) => o.promise);
  assert.equal(report.promises.orders, promised.length);
  const readyAt: Record<string, number> = { A: 6, B: 12, C: 18, D: 21, E: 40, F: 40, G: 40, H: 40 };
  const readyMs = (name: string) => T0 + readyAt[name]! * MIN + (['E', 'F', 'G', 'H'].indexOf(name) >= 0 ? ['E', 'F', 'G', 'H'].indexOf(name) * 1000 : 0);
  const wasReady = promised.filter(([name]) => name in readyAt);
  const kept = wasReady.filter(([name, o]) => readyMs(name) <= DateTime.fromISO(o.promise.promised_ready_at).toMillis()).length;
  assert.equal(report.promises.ready, wasReady.length);
  assert.equal(report.promises.not_ready, promised.length - wasReady.length);
  assert.equal(report.promises.kept, kept);
  assert.equal(report.promises.kept_share, kept / wasReady.length);
  assert.equal(report.promises.asked_quantile, 0.9);
  assert.equal(report.promises.histogram.reduce((n, b) => n + b.orders, 0), wasReady.length);
  assert.deepEqual(report.promises.by_station, [{ key: 'plancha', ready: wasReady.length, kept, share: kept / wasReady.length }]);
  assert.deepEqual(report.promises.by_hour.map((h) => h.key), ['20']);
});

test('a day with nothing is empty, not an error; a location of another restaurant is not found; a range is capped', async () => {
  const empty = await readKitchenReport(engine.server.engine, manager, { location_id: R1.openLocation, from: '2026-10-01' });
  assert.equal(empty.tickets.fired, 0);
  assert.ok(empty.rush.every((s) => s.finished === 0 && s.in_progress === 0));
  assert.deepEqual(empty.heatmap, []);
  await assert.rejects(async () => await readKitchenReport(engine.server.engine, manager, { location_id: '21000000-0000-4000-8000-000000000001', from: DAY }), /not found/);
  await assert.rejects(async () => await readKitchenReport(engine.server.engine, manager, { location_id: R1.openLocation, from: '2026-01-01', to: '2026-06-01' }), /at most 92 days/);
  await assert.rejects(async () => await readKitchenReport(engine.server.engine, manager, { location_id: R1.openLocation, from: DAY, to: '2026-11-01' }), /not be before/);
  const week = await readKitchenReport(engine.server.engine, manager, { location_id: R1.openLocation, from: '2026-11-22', to: DAY });
  assert.equal(week.slot_minutes, 60);
  assert.equal(week.rush.length, 7 * 24);
});
