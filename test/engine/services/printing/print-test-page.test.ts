// "Imprimir prueba" tells a printer that is not there from something that takes the connection and
// never answers as a printer (a new user's listener on the port, a printer's web port): checking
// that the printer is switched on and on the network helps with the first only.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { networkPrinter } from '../../../../src/engine/printers/network-printer.ts';
import { newSendProgress } from '../../../../src/engine/printers/printer-port.ts';
import { printTestPage } from '../../../../src/engine/services/printing/print-test-page.ts';
import { addPrinter, listPrinters, removePrinter } from '../../../../src/engine/services/printing/printers.ts';
import { R1 } from '../../../support/demo-ids.ts';
import { eventually } from '../../../support/eventually.ts';
import { StandInPrinter } from '../../../support/stand-in-printer.ts';
import { startTestEngine, type TestEngine } from '../../jobs/engine-with-jobs.ts';

/** The page's deadline: only the stalled printer reaches it (loopback connects long before). */
const DEADLINE_MS = 3000;

describe('Imprimir prueba: a printer that is not there, one that never answers, one that prints', () => {
  let t: TestEngine;
  let printer: StandInPrinter;
  before(async () => {
    t = await startTestEngine();
  });
  after(async () => {
    await printer?.stop();
    await t.stop();
  });
  beforeEach(async () => {
    for (const p of await listPrinters(t.server.engine, R1.id)) await removePrinter(t.server.engine, R1.id, p.id);
    await printer?.stop();
    printer = await new StandInPrinter().start();
  });
  const added = async () => await addPrinter(t.server.engine, R1.id, { name: 'Cocina', host: '127.0.0.1', port: printer.port, width_mm: 80, when: ['arrival'] });

  test('the network printer says it was connected when the send fails on its deadline', async () => {
    printer.behaviour = 'stall';
    const controller = new AbortController();
    const progress = newSendProgress();
    const sending = networkPrinter.send({ host: '127.0.0.1', port: printer.port }, Uint8Array.of(0x1b, 0x40), { signal: controller.signal, phaseMs: DEADLINE_MS, progress });
    await eventually(() => progress.connected, 'the stalled printer to take the connection', { until: (connected) => connected });
    controller.abort(new Error('deadline'));
    await assert.rejects(sending, /deadline/);
    assert.deepEqual(progress, { connected: true, ticketStarted: false, reply: [], replyBytes: 0 });
    assert.equal(printer.connections, 1);
  });

  test('connected, then no answer: silent, and not said to be unreachable', async () => {
    const entry = await added();
    printer.behaviour = 'stall';
    const result = await printTestPage(t.server.engine, networkPrinter, R1.id, entry.id, DEADLINE_MS);
    assert.equal(result.printed, false);
    assert.equal(result.silent, true);
    assert.equal(result.printer.state, 'unreachable');
    assert.equal(result.failure, 'no_answer');
    assert.match(result.error ?? '', /did not answer the paper status question/);
  });

  test('nothing listening: not silent', async () => {
    const entry = await added();
    await printer.switchOff();
    const result = await printTestPage(t.server.engine, networkPrinter, R1.id, entry.id, DEADLINE_MS);
    assert.equal(result.printed, false);
    assert.equal(result.silent, false);
    assert.match(result.error ?? '', /ECONNREFUSED/);
  });

  test('a web server on the port (issue 29): not printed, not silent, what it answered reported', async () => {
    const entry = await added();
    printer.behaviour = 'http';
    const result = await printTestPage(t.server.engine, networkPrinter, R1.id, entry.id, DEADLINE_MS);
    assert.deepEqual([result.printed, result.silent, result.failure, result.printer.state], [false, false, 'not_a_printer', 'unreachable']);
    assert.match(result.reply, /^48 54 54 50 2f 31 2e 31/, 'HTTP/1.1');
    assert.ok(result.reply_bytes > 16);
  });

  test('a printer that answers prints the page: not silent', async () => {
    const entry = await added();
    const result = await printTestPage(t.server.engine, networkPrinter, R1.id, entry.id, DEADLINE_MS);
    assert.deepEqual([result.printed, result.silent, result.printer.state], [true, false, 'ok']);
    assert.deepEqual([result.failure, result.reply, result.reply_bytes], [null, '12 12', 2], 'exactly the two paper answers came back');
    assert.equal((await printer.waitForTickets(1)).length, 1);
  });
});
