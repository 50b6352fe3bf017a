// Row 12: Informes over a 90-day history (issue 33). One service of 500 orders of the rush's mix
// (src/shared/demo-rush.ts) is run through the engine's services on the demo's open location (fired,
// started, each line bumped after a few minutes, listo), then copied to the 89 days before it in
// SQL (ids, numbers and times shifted), so the database holds 90 days × 500 orders and their item
// timing log. The job that stores each closed day (89 of them here) is timed once;
// then each view (a day, a week, 30 days, 90 days) through the report's service, beside the ceiling:
// the bare reads of the same rows (the days' summaries, the open day's log and promises, the cancellations).
import type { Database } from 'better-sqlite3';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { DateTime } from 'luxon';
import { ManualClock } from '../../src/engine/clock.ts';
import { seedDemo } from '../../src/engine/demo/seed-demo.ts';
import { kitchenActor } from '../../src/engine/screen/kitchen-handlers.ts';
import { createOrder } from '../../src/engine/services/orders/create-order.ts';
import { setItemDone } from '../../src/engine/services/kitchen/kitchen-items.ts';
import { readKitchenReport, reportPeriod } from '../../src/engine/services/reports/kitchen-report.ts';
import { keepRecentReportDays } from '../../src/engine/services/reports/keep-report-days.ts';
import { decodeDayColumns } from '../../src/engine/domain/kitchen-report/day-columns.ts';
import { transitionOrder } from '../../src/engine/services/orders/transition-order.ts';
import { startEngineServer } from '../../src/host/start-engine-server.ts';
import { rushOrder } from '../../src/shared/demo-rush.ts';
import { R1 } from '../../test/support/demo-ids.ts';
import type { BenchContext } from '../lib/context.ts';
import { figure, type Figure } from '../lib/report.ts';

const DAYS = 90;
const ORDERS_PER_DAY = 500;
/** The smoke run's (`--quick`) day: the same service and copies, a fifth of the orders. */
const QUICK_ORDERS_PER_DAY = 100;
const MIN = 60_000;
const DAY_MS = 86_400_000;
/** The last day of the history (a Saturday); the 89 before it are copies of it. */
const LAST_DAY = '2026-11-21';

/** The columns of a table but `skip`, each as itself or as `shift` says. */
function copyTable(db: Database, table: string, where: string, shift: Record<string, string>, skip: string[] = [], order = ''): (days: number) => void {
  const columns = (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name).filter((c) => !skip.includes(c));
  const select = columns.map((c) => shift[c] ?? c).join(', ');
  const statement = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) SELECT ${select} FROM ${table} WHERE ${where}${order}`);
  return (days) => statement.run({ days, shift_ms: days * DAY_MS, suffix: `-${days}` });
}

export async function benchKitchenReports(context: BenchContext): Promise<Figure[]> {
  const dir = join(context.workDir, 'kitchen-reports');
  mkdirSync(dir, { recursive: true });
  const open = DateTime.fromISO(`${LAST_DAY}T12:00:00`, { zone: 'America/Santiago' }).toMillis();
  const clock = new ManualClock(open - 60 * MIN);
  const server = await startEngineServer({ database: join(dir, 'reports.db'), clock, logger: false });
  try {
    const engine = server.engine;
    await seedDemo(engine, server.providers.payments);
    engine.db.prepare('UPDATE stock SET quantity = 1000000').run();
    const actor = kitchenActor(R1.id, 'live');
    // One day: 200 orders over lunch (12:00–15:00), 300 over dinner (19:00–23:00) (the smoke run: 40 and 60).
    const ordersPerDay = context.quick ? QUICK_ORDERS_PER_DAY : ORDERS_PER_DAY;
    const lunch = (ordersPerDay * 2) / 5;
    const steps: { at: number; run: () => Promise<unknown> }[] = [];
    const ids: string[] = [];
    for (let i = 0; i < ordersPerDay; i++) {
      const at = i < lunch ? open + Math.floor((i / lunch) * 180 * MIN) : open + 7 * 60 * MIN + Math.floor(((i - lunch) / (ordersPerDay - lunch)) * 240 * MIN);
      const { scheduled_for: _scheduled, ...body } = rushOrder(i, { now: at });
      steps.push({
        at,
        run: async () => {
          ids[i] = (await createOrder(engine, actor, { ...body, payment: 'external' } as never, { payments: server.providers.payments, origin: 'http://bench' })).id;
          await transitionOrder(engine, actor, ids[i]!, 'en_preparacion', server.providers.couriers);
        },
      });
      let last = at;
      body.items.forEach((_, line) => {
        const done = at + (3 + ((i * 7 + line * 11) % 16)) * MIN + ((i * 13 + line) % 60) * 1000;
        last = Math.max(last, done);
        steps.push({ at: done, run: () => setItemDone(engine, actor, ids[i]!, line, true) });
      });
      steps.push({ at: last + 1000, run: () => transitionOrder(engine, actor, ids[i]!, 'listo', server.providers.couriers) });
    }
    steps.sort((a, b) => a.at - b.at);
    const generated = performance.now();
    for (const step of steps) {
      if (step.at > clock.now()) clock.set(step.at);
      await step.run();
    }
    context.log(`  one service of ${ordersPerDay} orders in ${((performance.now() - generated) / 1000).toFixed(1)} s`);
    // The jobs stop here: the closed days are stored below, timed (the runner would store them a day per tick).
    await server.jobs.stop();
    // The 89 days before it: the same service, ids, numbers and times shifted.
    const dayOrders = `restaurant_id = '${R1.id}' AND created_at >= ${open - 60 * MIN} AND id NOT LIKE '%-%-%-%-%-%'`;
    const copies = [
      copyTable(engine.db, 'orders', dayOrders, { id: 'id || @suffix', number: 'number || @suffix', created_at: 'created_at - @shift_ms', updated_at: 'updated_at - @shift_ms', scheduled_for: 'scheduled_for - @shift_ms' }),
      copyTable(engine.db, 'kitchen_order_channels', `order_id IN (SELECT id FROM orders WHERE ${dayOrders})`, { order_id: 'order_id || @suffix' }),
      copyTable(engine.db, 'kitchen_item_timings', `order_id IN (SELECT id FROM orders WHERE ${dayOrders})`, { order_id: 'order_id || @suffix', at: 'at - @shift_ms' }, ['seq'], ' ORDER BY seq'),
      copyTable(engine.db, 'order_promises', `order_id IN (SELECT id FROM orders WHERE ${dayOrders})`, {
        order_id: 'order_id || @suffix',
        created_at: 'created_at - @shift_ms',
        expected_ready_at: 'expected_ready_at - @shift_ms',
        promised_ready_at: 'promised_ready_at - @shift_ms',
        ready_at: 'ready_at - @shift_ms',
      }),
    ];
    // The copies' log rows come after the day's own in seq; the report reads them by time, then in seq (a line's own rows keep their order).
    engine.db.transaction(() => {
      for (let d = DAYS - 1; d >= 1; d--) for (const copy of copies) copy(d);
    })();
    engine.db.pragma('optimize');
    const rows = (engine.db.prepare('SELECT count(*) AS n FROM kitchen_item_timings').get() as { n: number }).n;
    const orders = (engine.db.prepare(`SELECT count(*) AS n FROM orders WHERE location_id = '${R1.openLocation}'`).get() as { n: number }).n;
    context.log(`  ${orders} orders, ${rows} item timing rows over ${DAYS} days`);
    clock.set(DateTime.fromISO(`${LAST_DAY}T23:59:00`, { zone: 'America/Santiago' }).toMillis());

    // The jobs runner stores each closed day as it closes (services/reports/keep-report-days.ts, a
    // day per tick while a backlog lasts): here the 89 closed days at once, timed apart from the
    // views, which then read them (the last day, still open, from the log).
    const firstStart = performance.now();
    await keepRecentReportDays(engine, DAYS);
    const firstMs = performance.now() - firstStart;
    const storedDays = (engine.db.prepare('SELECT count(*) AS n FROM kitchen_report_days').get() as { n: number }).n;
    context.log(`  the job storing ${storedDays} closed days: ${Math.round(firstMs)} ms (${Math.round(firstMs / Math.max(1, storedDays))} ms a day, one day per tick)`);

    const last = DateTime.fromISO(LAST_DAY);
    const views = [
      { name: 'a day', from: LAST_DAY },
      { name: '7 days', from: last.minus({ days: 6 }).toISODate()! },
      { name: '30 days', from: last.minus({ days: 29 }).toISODate()! },
      { name: '90 days', from: last.minus({ days: DAYS - 1 }).toISODate()! },
    ];
    const figures: Figure[] = [];
    for (const view of views) {
      const query = { location_id: R1.openLocation, from: view.from, to: LAST_DAY };
      const period = await reportPeriod(engine, actor, query);
      const ours: number[] = [];
      const ceiling: number[] = [];
      let tickets = 0;
      for (let run = 0; run < Math.max(1, context.runs); run++) {
        const t0 = performance.now();
        tickets = (await readKitchenReport(engine, actor, query)).tickets.fired;
        ours.push(performance.now() - t0);
        const t1 = performance.now();
        // The bare reads of what the report reads: the closed days' stored columns (decoded), the open
        // day's log and promises, the cancellations; nothing computed.
        await engine.read(async () => {
          const reports = engine.stores.kitchenReports;
          for (const day of await engine.stores.kitchenReportDays.get(R1.id, R1.openLocation, 'live', period.from_day, period.to_day)) decodeDayColumns(day.summary);
          await reports.log(R1.id, R1.openLocation, 'live', period.to - DAY_MS - 2 * 3_600_000, period.to + 2 * 3_600_000, 3_000_000);
          await reports.promises(R1.openLocation, 'live', period.to - DAY_MS, period.to, 500_000);
          await reports.cancelled(R1.id, R1.openLocation, 'live', period.from, period.to, 500_000);
        });
        ceiling.push(performance.now() - t1);
      }
      figures.push(
        figure(
          { row: 12, name: `Informes: ${view.name} (${tickets} tickets)`, unit: 'ms', better: 'lower', note: `ceiling: the bare reads of the same rows (stored days' columns decoded, the open day's log and promises, cancellations); the job stored ${storedDays} closed days in ${Math.round(firstMs)} ms` },
          { ours, ceiling },
          (value) => ({ text: '≤ 1000 ms', met: value <= 1000 }),
        ),
      );
    }
    if (context.profileDir) {
      // --profile: one more 90-day report under the inspector's CPU profiler (this row runs in the bench's own process).
      const session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      await readKitchenReport(engine, actor, { location_id: R1.openLocation, from: views[views.length - 1]!.from, to: LAST_DAY });
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      mkdirSync(context.profileDir, { recursive: true });
      writeFileSync(join(context.profileDir, 'kitchen-reports-90-days.cpuprofile'), JSON.stringify(profile));
    }
    return figures;
  } finally {
    await server.close();
  }
}
