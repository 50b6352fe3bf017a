// Issue 29: whatever answers at a printer's address (a device that took its address, a web page, a
// printer slower than its ticket, one that never answers or never closes) cannot take the engine
// down, never gets a ticket recorded printed unless it said so, and never holds the later tickets.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { networkPrinter } from '../../../src/engine/printers/network-printer.ts';
import { retrySetAsideJobs, SET_ASIDE_AFTER_FAILED_SENDS } from '../../../src/engine/services/printing/print-jobs.ts';
import { addPrinter, listPrinters, removePrinter } from '../../../src/engine/services/printing/printers.ts';
import { R1 } from '../../support/demo-ids.ts';
import { eventually } from '../../support/eventually.ts';
import { socketsTo } from '../../support/tcp-sockets.ts';
import { StandInPrinter, type PrinterBehaviour } from '../../support/stand-in-printer.ts';
import { startTestEngine, type TestEngine } from '../jobs/engine-with-jobs.ts';

const SECOND = 1000;
/** Each phase's real-time deadline here: loopback answers long before; only a device that does not answer reaches it. */
const PHASE_MS = 1000;

describe('a printer port that trusts nothing at the printer\'s address', () => {
  let t: TestEngine;
  let printer: StandInPrinter;
  let key: string;
  before(async () => {
    t = await startTestEngine({ printTimeoutMs: PHASE_MS, printers: networkPrinter });
    key = t.demo[0]!.keys.live_write;
  });
  after(async () => {
    await printer?.stop();
    await t.stop();
  });
  beforeEach(async () => {
    for (const p of await listPrinters(t.server.engine, R1.id)) await removePrinter(t.server.engine, R1.id, p.id);
    await printer?.stop();
    printer = await new StandInPrinter().start();
    await addPrinter(t.server.engine, R1.id, { name: 'Cocina', host: '127.0.0.1', port: printer.port, width_mm: 80, when: ['arrival'] });
  });

  const createOrder = async (items = [{ product_id: R1.products.cazuela, quantity: 1, notes: 'sin cilantro' }], notes: string | null = null) => {
    const created = await t.call('POST', '/orders', { key, body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Ana Pérez' }, notes, items } });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: string; number: string };
  };
  const settle = () => t.server.jobs.runDue();
  const jobsOf = async (orderId: string) => await t.server.engine.stores.printJobs.ofOrder(orderId);
  const printedJobs = async (orderId: string) => (await jobsOf(orderId)).filter((j) => j.status === 'printed').length;
  /**
   * Runs the due jobs until every one of these orders has its ticket printed. A send that should
   * print can still miss its real-time PHASE_MS on a loaded machine (the process not scheduled for a
   * second: the deadline's timer runs before the printer's answer is read), and its retry is due
   * only on the engine's clock: one settle() and a wait for the ticket would hang until the test's
   * timeout (the 60 s seen at load 30).
   */
  const settleUntilPrinted = async (orders: { id: string }[]) =>
    await eventually(
      async () => {
        await settle();
        const printed = (await Promise.all(orders.map(async (o) => await printedJobs(o.id)))).filter((n) => n === 1).length;
        if (printed < orders.length) t.clock.advance(60 * SECOND);
        return printed;
      },
      `${orders.length} orders' tickets printed`,
      { until: (n) => n === orders.length },
    );
  const cocina = async () => (await listPrinters(t.server.engine, R1.id)).find((p) => p.name === 'Cocina')!;

  test('a device streaming bytes without end is cut off: memory stays bounded, the API answers, nothing counts as printed', async (context) => {
    // Warmed up first (the encoder loaded, a ticket printed): what grows after is the stream's doing.
    await settleUntilPrinted([await createOrder()]);
    printer.behaviour = 'stream';
    const rssBefore = process.memoryUsage().rss;
    const order = await createOrder();
    // Ten tries, each met by the stream, while the API is asked for the menu.
    for (let i = 0; i < Number(process.env.STREAM_TRIES ?? 10); i++) {
      await settle();
      const menu = await t.call('GET', '/menu');
      assert.equal(menu.status, 200);
      t.clock.advance(60 * SECOND);
    }
    await settle();
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    assert.ok(rssGrowth < 64 * 1024 * 1024, `RSS grew ${Math.round(rssGrowth / 1024 / 1024)} MB`);
    context.diagnostic(`stream: ${printer.connections} connections, ${printer.bytesStreamed} bytes offered by the device, RSS ${(rssGrowth / 1024 / 1024).toFixed(1)} MB more`);
    assert.equal(await printedJobs(order.id), 0);
    assert.equal((await cocina()).state, 'unreachable');
    assert.match((await cocina()).state_detail ?? '', /sends what no printer sends unasked/);
    assert.ok(printer.connections >= 11, `${printer.connections} connections`);
    assert.equal((await jobsOf(order.id))[0]!.status, 'queued', 'never sent its ticket: tried again, never set aside');
    await eventually(() => printer.openConnections, 'every streaming connection closed by the engine', { until: (n) => n === 0 });
  });

  // Each answers something at the printer's address without printing the ticket whole.
  const notPrinted: { behaviour: PrinterBehaviour; detail: RegExp; state: 'unreachable' | 'paper_out' }[] = [
    { behaviour: 'garbage', detail: /answered the paper status question with 00 ff 41 0d, not a printer's status/, state: 'unreachable' },
    { behaviour: 'http', detail: /answered the paper status question with 48 54 54 50/, state: 'unreachable' },
    { behaviour: 'close-early', detail: /closed the connection|ECONNRESET|EPIPE/, state: 'unreachable' },
    { behaviour: 'reset-after-20', detail: /ECONNRESET|closed the connection|EPIPE/, state: 'unreachable' },
    { behaviour: 'paper-end-after', detail: /out of paper/, state: 'paper_out' },
    { behaviour: 'hold-ticket', detail: /did not answer the paper status question/, state: 'unreachable' },
  ];
  for (const { behaviour, detail, state } of notPrinted) {
    test(`${behaviour}: the ticket is not recorded printed, the printer's state says why`, async () => {
      printer.behaviour = behaviour;
      const order = await createOrder();
      await settle();
      assert.equal(await printedJobs(order.id), 0);
      const [job] = await jobsOf(order.id);
      assert.equal(job!.status, 'queued');
      assert.equal((await cocina()).state, state);
      assert.match((await cocina()).state_detail ?? '', detail);
      await eventually(() => printer.openConnections, 'the connection closed', { until: (n) => n === 0 });
    });
  }

  test('a ticket the printer never confirms is set aside after a few sends; the later tickets print; retry prints it once, as a reprint', async () => {
    printer.behaviour = 'hold-ticket';
    const stuck = await createOrder();
    for (let i = 0; i < SET_ASIDE_AFTER_FAILED_SENDS; i++) {
      await settle();
      t.clock.advance(60 * SECOND);
    }
    await settle();
    const [job] = await jobsOf(stuck.id);
    assert.equal(job!.status, 'set_aside');
    assert.equal(job!.failed_sends, SET_ASIDE_AFTER_FAILED_SENDS);
    assert.equal(printer.tickets.length, SET_ASIDE_AFTER_FAILED_SENDS, 'sent as many times as tried, then no more');
    assert.equal((await cocina()).set_aside, 1);
    const board = await t.call('GET', '/menu');
    assert.equal(board.status, 200);

    printer.behaviour = 'ok';
    const later = await createOrder();
    await settle();
    assert.equal(await printedJobs(later.id), 1, 'the later ticket printed');
    t.clock.advance(10 * 60 * SECOND);
    await settle();
    assert.equal((await jobsOf(stuck.id))[0]!.status, 'set_aside', 'never printed again by itself');
    assert.equal(printer.tickets.length, SET_ASIDE_AFTER_FAILED_SENDS + 1);

    assert.deepEqual(await retrySetAsideJobs(t.server.engine, R1.id, 'Cocina'), { printer: 'Cocina', retried: 1 });
    await settle();
    assert.equal((await jobsOf(stuck.id))[0]!.status, 'printed');
    const reprinted = printer.tickets.at(-1)!;
    assert.ok(reprinted.text.some((l) => l.includes('REIMPRESIÓN')));
    assert.equal((await cocina()).set_aside, 0);
  });

  test('stopping the engine cuts a send waiting on its printer short: not counted against it, printed again after the restart, marked', async () => {
    printer.behaviour = 'hold-ticket';
    const order = await createOrder();
    void settle();
    // The ticket has gone out and its confirmation is awaited when the engine stops.
    await eventually(() => printer.statusRequests, 'the question after the ticket asked', { until: (n) => n >= 2 });
    await t.restart();
    const [job] = await jobsOf(order.id);
    assert.equal(job!.failed_sends, 0, 'the engine stopping is not the printer failing');
    assert.equal(job!.reprint, 1, 'part of it may be on paper: printed again as a reprint');
    printer.behaviour = 'ok';
    await settle();
    await eventually(async () => await printedJobs(order.id), 'printed after the restart', { until: (n) => n === 1 });
    assert.ok(printer.tickets.at(-1)!.text.some((l) => l.includes('REIMPRESIÓN')));
  });

  test('a printer that never closes its side: every socket is closed by the engine after its tickets', async () => {
    printer.behaviour = 'never-close';
    const orders = [];
    for (let i = 0; i < 5; i++) orders.push(await createOrder());
    await settleUntilPrinted(orders);
    for (const order of orders) assert.equal(await printedJobs(order.id), 1);
    // The kernel's view: none of the engine's sockets to the printer is left, not even half-closed (FIN-WAIT-2).
    await eventually(() => socketsTo(printer.port), 'the engine closed every connection', { until: (states) => states.length === 0 });
  });

  test('a stalled printer: the socket does not outlive its deadline', async () => {
    printer.behaviour = 'stall';
    const order = await createOrder();
    await settle();
    assert.equal(await printedJobs(order.id), 0);
    await eventually(() => printer.openConnections, 'the stalled connection closed', { until: (n) => n === 0 });
    await eventually(() => socketsTo(printer.port), 'the engine\'s side gone', { until: (states) => states.length === 0 });
  });

  test('the largest order the API accepts prints whole on a printer reading 1.5 KB/s, and the next ticket after it', { timeout: 240_000 }, async (context) => {
    printer.behaviour = 'slow';
    const note = 'Sin sal, sin ají, con pebre aparte y la carne bien cocida por favor; '.repeat(8).slice(0, 500);
    const items = Array.from({ length: 100 }, () => ({ product_id: R1.products.cazuela, quantity: 999, notes: note }));
    const big = await createOrder(items, 'x'.repeat(1000));
    const next = await createOrder();
    const started = performance.now();
    await settle();
    await printer.waitForTickets(2);
    context.diagnostic(`slow printer: ${printer.bytesReceived} bytes at ${printer.readBytesPerSecond} B/s, both tickets in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    assert.ok(printer.bytesReceived > 55_000, `${printer.bytesReceived} bytes`);
    assert.equal(await printedJobs(big.id), 1);
    assert.equal(await printedJobs(next.id), 1);
    assert.equal(printer.tickets[0]!.cut, true);
    assert.equal(printer.tickets[0]!.text.filter((l) => l.includes('Cazuela')).length, 100);
    assert.deepEqual(printer.protocolErrors, []);
  });
});
