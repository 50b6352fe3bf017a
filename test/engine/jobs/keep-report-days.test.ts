// Informes (issue 33): the jobs runner stores each closed day's report inputs once the day is over
// (2 hours after midnight), a day per tick, oldest first, days without activity skipped; a report then
// reads the stored day and gives the same figures as from the log. The clock is the engine's (a
// ManualClock): moving it runs the jobs at once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../screen/support.ts';
import { computeKitchenReport, readKitchenReport, reportPeriod } from '../../../src/engine/services/reports/kitchen-report.ts';
import type { Actor } from '../../../src/engine/domain/actor.ts';
import type { Engine } from '../../../src/engine/engine.ts';

const ZONE = 'America/Santiago';
const MIN = 60_000;
const manager: Actor = { restaurantId: R1.id, world: 'live', canWrite: false, keyId: 'test' };
const completo = { product_id: R1.products.completo, quantity: 1 };
const at = (iso: string) => DateTime.fromISO(iso, { zone: ZONE }).toMillis();
const storedDays = (core: Engine) => (core.db.prepare('SELECT day FROM kitchen_report_days ORDER BY day').all() as { day: string }[]).map((r) => r.day);

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest({ now: '2026-11-19T20:00:00-03:00' });
});
after(async () => {
  await engine?.stop();
});

test('the jobs store each closed day with activity once it closes, a day per tick, and a report reads it', async () => {
  const core = engine.server.engine;
  const kitchen = handlersFor(engine);
  // The demo's own orders are on the 19th. Two services, on the 21st and the 22nd (the 20th stays
  // empty): three orders each, bumped after 6 to 10 minutes.
  for (const day of ['2026-11-21', '2026-11-22']) {
    for (let i = 0; i < 3; i++) {
      engine.clock.set(at(`${day}T20:00:00`) + i * MIN);
      const order = await placeOrder(engine, { items: [completo] });
      await kitchen.ok('orders:transition', { order_id: order.id, target: 'en_preparacion' });
      engine.clock.set(at(`${day}T20:06:00`) + i * 2 * MIN);
      await kitchen.ok('items:set-done', { order_id: order.id, item_index: 0, done: true });
    }
  }
  // Past midnight: the 22nd's last 2 hours are not over; the 19th and the 21st are closed, and
  // stored (each as the clock passed its close); the empty 20th is not.
  engine.clock.set(at('2026-11-23T01:00:00'));
  await engine.server.jobs.runDue();
  assert.deepEqual(storedDays(core), ['2026-11-19', '2026-11-21']);

  // At 02:30 the 22nd closes: the next pass after the interval stores it (the clock's move runs the jobs at once).
  engine.clock.set(at('2026-11-23T02:30:00'));
  await engine.server.jobs.databaseJobs();
  assert.deepEqual(storedDays(core), ['2026-11-19', '2026-11-21', '2026-11-22']);

  // The report over the three days reads the two stored days, and equals the one from the log.
  const range = { location_id: R1.openLocation, from: '2026-11-20', to: '2026-11-22' };
  const stored = await readKitchenReport(core, manager, range);
  assert.equal(stored.tickets.fired, 6);
  assert.equal(stored.tickets.counted, 6);
  // A pass that finds nothing more to store ends the backlog: no pass runs again before the interval.
  await engine.server.jobs.runDue();
  core.db.prepare('DELETE FROM kitchen_report_days').run();
  const fromLog = await core.read(async (tx) => (await computeKitchenReport(core, manager, await reportPeriod(core, manager, range, tx), tx)).report);
  assert.deepEqual(stored, fromLog);
});

test('a backlog of closed days is stored a day per tick, oldest first', async () => {
  const core = engine.server.engine;
  // No pass under way (the jobs' tick may have started one since the previous test emptied the table).
  await engine.server.jobs.databaseJobs();
  core.db.prepare('DELETE FROM kitchen_report_days').run();
  // Ten minutes on (the pass's interval): one day per pass while days wait, then none.
  engine.clock.set(engine.clock.now() + 10 * MIN);
  await engine.server.jobs.databaseJobs();
  assert.deepEqual(storedDays(core), ['2026-11-19']);
  await engine.server.jobs.runDue();
  await engine.server.jobs.runDue();
  assert.deepEqual(storedDays(core), ['2026-11-19', '2026-11-21', '2026-11-22']);
  await engine.server.jobs.runDue();
  assert.deepEqual(storedDays(core), ['2026-11-19', '2026-11-21', '2026-11-22']);
});

test("the sandbox's closed days are stored by the jobs too, in their own world: a live report never reads them", async () => {
  const core = engine.server.engine;
  const sandbox: Actor = { ...manager, world: 'test' };
  const worlds = (day: string) => (core.db.prepare('SELECT test FROM kitchen_report_days WHERE day = ? ORDER BY test').all(day) as { test: number }[]).map((r) => r.test);
  // The 24th: two sandbox orders (an integration's test orders) and nothing live.
  for (let i = 0; i < 2; i++) {
    engine.clock.set(at('2026-11-24T13:00:00') + i * MIN);
    await placeOrder(engine, { items: [completo] }, engine.demo[0]!.keys.test_write);
  }
  // Once the 24th is closed, the passes store it for the sandbox, and no live day for it (a pass a tick while days wait).
  engine.clock.set(at('2026-11-25T03:00:00'));
  await engine.server.jobs.databaseJobs();
  for (let pass = 0; pass < 10 && worlds('2026-11-24').length === 0; pass++) await engine.server.jobs.runDue();
  assert.deepEqual(worlds('2026-11-24'), [1], 'stored once, in the sandbox');
  const range = { location_id: R1.openLocation, from: '2026-11-24', to: '2026-11-24' };
  const live = await readKitchenReport(core, manager, range);
  assert.equal(live.tickets.fired, 0, 'the live report has none of the sandbox orders');
  const stored = await readKitchenReport(core, sandbox, range);
  assert.equal(stored.tickets.fired, 2);
  // The stored day gives what the log gives.
  await engine.server.jobs.databaseJobs();
  core.db.prepare('DELETE FROM kitchen_report_days').run();
  const fromLog = await core.read(async (tx) => (await computeKitchenReport(core, sandbox, await reportPeriod(core, sandbox, range, tx), tx)).report);
  assert.deepEqual({ ...stored, generated_at: '' }, { ...fromLog, generated_at: '' });
});
