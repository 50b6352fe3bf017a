import { mapInOrder } from '../../../src/shared/in-order.ts';
// print_jobs retention (issue 22): printed and dropped jobs are purged once older than 7 days of the
// engine's clock, by the jobs runner, a bounded number per pass; a job still to print (queued,
// sending) is never purged, however old.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PRINT_JOB_RETENTION_MS, purgeFinishedPrintJobs } from '../../../src/engine/services/printing/print-jobs.ts';
import { addPrinter } from '../../../src/engine/services/printing/printers.ts';
import { R1 } from '../../support/demo-ids.ts';
import { eventually } from '../../support/eventually.ts';
import { StandInPrinter } from '../../support/stand-in-printer.ts';
import { startTestEngine, type TestEngine } from '../jobs/engine-with-jobs.ts';

const DAY = 24 * 60 * 60 * 1000;

describe('print_jobs retention', () => {
  let t: TestEngine;
  let printer: StandInPrinter;
  let gonePort: number;
  before(async () => {
    t = await startTestEngine({ printTimeoutMs: 2000 });
    printer = await new StandInPrinter().start();
    // A printer that is never there: its jobs stay queued, retried.
    const gone = await new StandInPrinter().start();
    gonePort = gone.port;
    await gone.stop();
    await addPrinter(t.server.engine, R1.id, { name: 'Cocina', host: '127.0.0.1', port: printer.port, width_mm: 80, when: ['arrival'] });
    await addPrinter(t.server.engine, R1.id, { name: 'Apagada', host: '127.0.0.1', port: gonePort, width_mm: 58, when: ['arrival'] });
  });
  after(async () => {
    await printer?.stop();
    await t?.stop();
  });

  const order = async () => {
    const created = await t.call('POST', '/orders', {
      body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Retención' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
    });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: string };
  };
  const jobsOf = async (orderId: string) =>
    Object.fromEntries((await mapInOrder((await t.server.engine.stores.printJobs.ofOrder(orderId)), async (j) => [(await t.server.engine.stores.printers.get(j.printer_id))!.name, j.status])));

  test('finished jobs older than 7 days are purged by the runner; younger ones and jobs still to print stay', async () => {
    const old = await order();
    await eventually(async () => await jobsOf(old.id), 'printed at Cocina, still to print at Apagada', { until: (s) => s.Cocina === 'printed' && s.Apagada !== undefined });
    t.clock.advance(6 * DAY);
    const young = await order();
    await eventually(async () => (await jobsOf(young.id)).Cocina, 'the younger order printed', { until: (s) => s === 'printed' });

    // Day 7 and a minute of the old one: the runner's next pass purges its printed job only.
    t.clock.advance(DAY + 60_000);
    await t.server.jobs.runDue();
    const left = await eventually(async () => await jobsOf(old.id), 'the old printed job purged', { until: (s) => s.Cocina === undefined });
    assert.ok(left.Apagada === 'queued' || left.Apagada === 'sending', `a job still to print stays however old (${left.Apagada})`);
    assert.equal((await jobsOf(young.id)).Cocina, 'printed', 'six days old: kept');

    // A week after the younger one too: it goes as well.
    t.clock.advance(6 * DAY);
    await t.server.jobs.runDue();
    await eventually(async () => (await jobsOf(young.id)).Cocina, 'the younger printed job purged', { until: (s) => s === undefined });
    assert.ok((await jobsOf(old.id)).Apagada !== undefined, 'the unprinted job is still there, a fortnight on');
  });

  test('a pass purges at most its batch, oldest first', async () => {
    const engine = t.server.engine;
    const orders = [await order(), await order(), await order()];
    for (const o of orders) await eventually(async () => (await jobsOf(o.id)).Cocina, 'printed', { until: (s) => s === 'printed' });
    // Past the retention without a pass of the runner in between (the clock moved by hand, its listener off).
    const printed = (await mapInOrder(orders, async (o) => (await engine.stores.printJobs.ofOrder(o.id)).find((j) => j.status === 'printed')!));
    engine.db.prepare('UPDATE print_jobs SET updated_at = updated_at - ? WHERE id IN (?, ?, ?)').run(PRINT_JOB_RETENTION_MS + 1, ...printed.map((j) => j.id));
    assert.equal(await purgeFinishedPrintJobs(engine, 2), 2);
    assert.deepEqual((await mapInOrder(printed, async (j) => await engine.stores.printJobs.get(j.id) === undefined)), [true, true, false], 'the two oldest went first');
    assert.equal(await purgeFinishedPrintJobs(engine, 2), 1);
    assert.equal(await purgeFinishedPrintJobs(engine, 2), 0);
  });
});
