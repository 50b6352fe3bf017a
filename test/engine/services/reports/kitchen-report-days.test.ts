// Informes' long ranges (issue 33): a report reads each closed day from its stored summary. Over
// three services a week apart (honest bumps, a bump before the food could be cooked, a sweep, a
// ticket left open, an un-bump, a recall, a cancellation, a ticket bumped after midnight), the
// tickets, samples, verdicts and recalls every figure is computed from equal the former computation
// straight from the log over the whole range; the report is the same before and after the days are
// stored, and a bump synced late into a closed day deletes that day's summary, which is computed again.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { R1 } from '../../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../../screen/support.ts';
import { computeKitchenReport, judgePeriod, readKitchenReport, reportPeriod, type ReportPeriod } from '../../../../src/engine/services/reports/kitchen-report.ts';
import { classifySamples, DEFAULT_PREP_SECONDS, MIN_LEARNED_SAMPLES, type Implausible } from '../../../../src/engine/domain/prep-times.ts';
import { lineKey, ticketsFromLog } from '../../../../src/engine/domain/kitchen-report/tickets.ts';
import { logOrder, sampleRow, verdictReason } from '../../../../src/engine/domain/kitchen-report/judge-days.ts';
import { dayColumns, encodeDayColumns } from '../../../../src/engine/domain/kitchen-report/day-columns.ts';
import { cookSamples } from '../../../../src/engine/services/kitchen/learn-prep-times.ts';
import { cooksOnShift } from '../../../../src/engine/services/kitchen/kitchen-promise.ts';
import { readKitchenSettings } from '../../../../src/engine/services/kitchen/kitchen-settings.ts';
import { localDays } from '../../../../src/engine/services/reports/kitchen-report-days.ts';
import type { Actor } from '../../../../src/engine/domain/actor.ts';
import type { Engine, ReadTransaction } from '../../../../src/engine/engine.ts';

const MIN = 60_000;
const ZONE = 'America/Santiago';
/** Three Saturdays (the demo's location is open in the evening). */
const DAYS = ['2026-11-14', '2026-11-21', '2026-11-28'];
const RANGE = { location_id: R1.openLocation, from: '2026-11-13', to: '2026-11-29' };
const manager: Actor = { restaurantId: R1.id, world: 'live', canWrite: false, keyId: 'test' };
const completo = { product_id: R1.products.completo, quantity: 1 };

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
  // The days here are stored by the reports alone (the jobs' own storing: test/engine/jobs/keep-report-days.test.ts).
  await engine.server.jobs.stop();
});
after(async () => {
  await engine?.stop();
});

/** The figures' inputs as the report computed them before day summaries: from the log over the whole range at once. */
async function fromWholeLog(core: Engine, period: ReportPeriod, tx: ReadTransaction) {
  const settings = await readKitchenSettings(core, R1.id, tx);
  const reports = core.stores.kitchenReports;
  const rows = await reports.log(R1.id, period.location_id, 'live', period.from - 2 * 3_600_000, period.to + 2 * 3_600_000, 3_000_000);
  const cancelledAt = new Map((await reports.cancelled(R1.id, period.location_id, 'live', period.from - 2 * 3_600_000, period.to, 500_000)).map((r) => [r.id, r.updated_at]));
  const learned = new Map(
    (await core.stores.kitchenTimings
      .prepStats(R1.id))
      .filter((s) => s.samples >= MIN_LEARNED_SAMPLES)
      .map((s) => [`${s.station_id}\u001f${s.product_id}`, s.median_seconds]),
  );
  const typed = (productId: string) => settings.prep?.product_seconds[productId] ?? DEFAULT_PREP_SECONDS;
  const reference = (productId: string) => learned.get(`${settings.product_stations[productId] ?? ''}\u001f${productId}`) ?? typed(productId);
  const samples = cookSamples(rows, await cooksOnShift(core, R1.id, settings, undefined, tx));
  const verdicts = classifySamples(samples, reference);
  const lineVerdicts = new Map<string, Implausible | null>();
  samples.forEach((s, i) => lineVerdicts.set(lineKey(s.order_id!, s.item_index!), verdicts[i]!));
  const tickets = ticketsFromLog(rows, period, lineVerdicts, cancelledAt, core.clock.now());
  const inPeriod = new Set(tickets.map((t) => t.order_id));
  const kept = samples.map((s, i) => ({ s, v: verdicts[i]! })).filter(({ s }) => inPeriod.has(s.order_id!));
  const seen = new Set<string>();
  const recalls = rows
    .filter((r) => r.kind === 'recalled' && inPeriod.has(r.order_id))
    .map((r) => ({ order_id: r.order_id, at: r.at }))
    .filter((r) => !seen.has(`${r.order_id}@${r.at}`) && seen.add(`${r.order_id}@${r.at}`));
  const promises = (await reports.promises(period.location_id, 'live', period.from, period.to, 500_000)).map((p) => ({
    order_id: p.order_id,
    channel: p.channel,
    created_at: p.created_at,
    expected_ready_at: p.expected_ready_at,
    promised_ready_at: p.promised_ready_at,
    ready_at: p.ready_at,
  }));
  return { tickets, samples: kept.map(({ s }) => s), verdicts: kept.map(({ v }) => v), recalls, promises, cancelledAt };
}

async function assertSameAsWholeLog(core: Engine, query: typeof RANGE, label: string) {
  await core.read(async (tx) => {
    const period = await reportPeriod(core, manager, query, tx);
    const expected = await fromWholeLog(core, period, tx);
    const actual = await judgePeriod(core, manager, period, expected.cancelledAt, tx);
    assert.deepEqual(actual.tickets, expected.tickets, `${label}: tickets`);
    const inLogOrder = logOrder(actual.samples);
    assert.deepEqual(
      inLogOrder.map((i) => {
        const { mass_bump: _kept, ...sample } = sampleRow(actual, i);
        return sample;
      }),
      expected.samples,
      `${label}: samples`,
    );
    assert.deepEqual(
      inLogOrder.map((i) => verdictReason(actual.samples.verdict[i]!)),
      expected.verdicts,
      `${label}: verdicts`,
    );
    assert.deepEqual(actual.recalls, expected.recalls, `${label}: recalls`);
    assert.deepEqual(actual.promises, expected.promises, `${label}: promises`);
  });
}

const storedDays = (core: Engine) => (core.db.prepare('SELECT day FROM kitchen_report_days ORDER BY day').all() as { day: string }[]).map((r) => r.day);

test('closed days read from their summaries give the figures of the whole log; a late bump recomputes its day', async () => {
  const core = engine.server.engine;
  const kitchen = handlersFor(engine);
  const orders: Record<string, any> = {};

  for (const [d, day] of DAYS.entries()) {
    const t0 = DateTime.fromISO(`${day}T20:00:00`, { zone: ZONE }).toMillis();
    const at = (minutes: number, seconds = 0) => engine.clock.set(t0 + minutes * MIN + seconds * 1000);
    const name = (n: string) => `${n}${d}`;
    const fire = async (n: string, minutes: number) => {
      at(minutes);
      orders[name(n)] = await placeOrder(engine, { items: [completo] });
      await kitchen.ok('orders:transition', { order_id: orders[name(n)].id, target: 'en_preparacion' });
    };
    const bump = async (n: string, minutes: number, seconds = 0, done = true) => {
      at(minutes, seconds);
      await kitchen.ok('items:set-done', { order_id: orders[name(n)].id, item_index: 0, done });
    };
    // A and B honest (B un-bumped and bumped again), C bumped a minute after it fired, D–G swept, H
    // never bumped, J cancelled, K fired late and bumped after midnight; A recalled. A day apart,
    // each service shifts its times a little so that no two days are alike.
    await fire('A', 0);
    await fire('B', 1);
    await fire('J', 2);
    at(3);
    await kitchen.ok('orders:transition', { order_id: orders[name('J')].id, target: 'cancelado' });
    await bump('A', 6 + d);
    await kitchen.ok('orders:transition', { order_id: orders[name('A')].id, target: 'listo' });
    await bump('B', 9 + d);
    await bump('B', 10 + d, 0, false);
    await bump('B', 12 + d);
    await fire('C', 20);
    await bump('C', 21);
    for (const [i, n] of ['D', 'E', 'F', 'G'].entries()) await fire(n, 22 + i);
    await fire('H', 26);
    for (const [i, n] of ['D', 'E', 'F', 'G'].entries()) await bump(n, 40, i * 2);
    at(45);
    await kitchen.ok('orders:transition', { order_id: orders[name('A')].id, target: 'entregado' });
    await kitchen.ok('orders:recall', { order_id: orders[name('A')].id });
    await fire('K', 3 * 60 + 52);
    await bump('K', 4 * 60 + 3 + d);
  }
  // Every day closed (its last ticket's 2 hours after midnight are over).
  engine.clock.set(DateTime.fromISO('2026-11-30T03:00:00', { zone: ZONE }).toMillis());

  await assertSameAsWholeLog(core, RANGE, 'range, from the log');
  for (const day of DAYS) await assertSameAsWholeLog(core, { ...RANGE, from: day, to: day }, `${day}, from the log`);
  const period = await core.read(async (tx) => await reportPeriod(core, manager, RANGE, tx));
  const fromLog = await core.read(async (tx) => (await computeKitchenReport(core, manager, period, tx)).report);
  // 10 tickets a day, and one of the demo's own orders on the 21st (never bumped): A, B and K are counted.
  assert.deepEqual(fromLog.tickets, { fired: 31, counted: 9, open: 4, cancelled: 3, left_out: 19 });
  assert.deepEqual(fromLog.excluded.bumps, { mass_bump: 12, too_fast: 3, left_open: 0 });
  assert.equal(fromLog.excluded.tickets_left_open, 4);
  assert.equal(fromLog.recalls.length, 3);
  assert.deepEqual(storedDays(core), []);

  // The first report stores the 17 closed days; it and the next one equal the figures read from the log.
  const first = await readKitchenReport(core, manager, RANGE);
  assert.equal(storedDays(core).length, 17);
  assert.deepEqual(first, fromLog);
  assert.equal(first.items.find((i) => i.product_id === R1.products.completo)?.count, 9);
  assert.deepEqual(await readKitchenReport(core, manager, RANGE), fromLog);
  await assertSameAsWholeLog(core, RANGE, 'range, from the summaries');
  for (const day of DAYS) await assertSameAsWholeLog(core, { ...RANGE, from: day, to: day }, `${day}, from its summary`);

  // The summaries are what is read: an emptied one shows (its cooks and zone still match)...
  const kept = core.db.prepare("SELECT summary FROM kitchen_report_days WHERE day = '2026-11-21'").get() as { summary: string };
  const empty = encodeDayColumns(dayColumns({ tickets: [], samples: [], recalls: [], promises: [] }));
  core.db.prepare("UPDATE kitchen_report_days SET summary = ? WHERE day = '2026-11-21'").run(empty);
  assert.equal((await readKitchenReport(core, manager, RANGE)).tickets.fired, 31 - 11);
  // ...and one computed with other cooks is not used, but computed again and stored.
  core.db.prepare("UPDATE kitchen_report_days SET cooks = '[]' WHERE day = '2026-11-21'").run();
  assert.deepEqual(await readKitchenReport(core, manager, RANGE), fromLog);
  assert.equal((core.db.prepare("SELECT summary FROM kitchen_report_days WHERE day = '2026-11-21'").get() as { summary: string }).summary, kept.summary);

  // A bump synced late into the 21st (H, left open on the screen, bumped at 21:20 by a tablet that
  // was offline): that day's summary is deleted, not its neighbours' (their spans reach 2 hours into it, not to 21:20).
  engine.clock.set(DateTime.fromISO('2026-11-21T21:20:00', { zone: ZONE }).toMillis());
  await kitchen.ok('items:set-done', { order_id: orders.H1.id, item_index: 0, done: true });
  engine.clock.set(DateTime.fromISO('2026-11-30T03:00:00', { zone: ZONE }).toMillis());
  assert.deepEqual(
    storedDays(core).filter((day) => day >= '2026-11-20' && day <= '2026-11-22'),
    ['2026-11-20', '2026-11-22'],
  );
  await assertSameAsWholeLog(core, RANGE, 'range, after the late bump');
  const fromLogAfter = await core.read(async (tx) => (await computeKitchenReport(core, manager, period, tx)).report);
  assert.equal(fromLogAfter.excluded.tickets_left_open, 3);
  assert.deepEqual(fromLogAfter.excluded.bumps, { mass_bump: 12, too_fast: 3, left_open: 1 });
  const again = await readKitchenReport(core, manager, RANGE);
  assert.equal(storedDays(core).length, 17);
  assert.deepEqual(again, fromLogAfter);
  await assertSameAsWholeLog(core, RANGE, 'range, the late day stored again');

  // The 28th's H, left open, moved to listo now: its promise (made on the 28th) is kept late, and
  // that day's summary deleted.
  await kitchen.ok('orders:transition', { order_id: orders.H2.id, target: 'listo' });
  assert.ok(!storedDays(core).includes('2026-11-28'));
  await assertSameAsWholeLog(core, RANGE, 'range, after a late promise');
  const fromLogLast = await core.read(async (tx) => (await computeKitchenReport(core, manager, period, tx)).report);
  assert.notDeepEqual(fromLogLast.promises, fromLogAfter.promises);
  assert.deepEqual(await readKitchenReport(core, manager, RANGE), fromLogLast);
  assert.ok(storedDays(core).includes('2026-11-28'));
});

test("a range's local days follow the calendar across a clock change at midnight", () => {
  // Chile moves its clocks forward at midnight on 2026-09-06: that day starts at 01:00.
  const days = localDays({ zone: ZONE, from_day: '2026-09-01', to_day: '2026-09-10' });
  assert.deepEqual(
    days.map((d) => d.day),
    ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10'].map((d) => `2026-09-${d}`),
  );
  assert.ok(days.every((d, i) => i === 0 || d.from === days[i - 1]!.to));
  assert.equal(days[5]!.to - days[5]!.from, 23 * 3_600_000);
  assert.equal(days[9]!.to, DateTime.fromISO('2026-09-11T00:00:00', { zone: ZONE }).toMillis());
});
