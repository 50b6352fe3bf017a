import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { networkPrinter } from '../../../src/engine/printers/network-printer.ts';
import { addPrinter, listPrinters, removePrinter } from '../../../src/engine/services/printing/printers.ts';
import { R1 } from '../../support/demo-ids.ts';
import { StandInPrinter, type PrintedTicket } from '../../support/stand-in-printer.ts';
import { startTestEngine, type TestEngine } from '../jobs/engine-with-jobs.ts';

const ARTIFACTS = resolve(import.meta.dirname, '../../../test-artifacts/printers');
const SECOND = 1000;

/** The stand-in's decoded text goes to the test artifacts: what a cook would read. */
function keepTranscript(name: string, printer: StandInPrinter): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, `${name}.txt`), `${printer.transcript()}\n`);
}

const lineOf = (ticket: PrintedTicket, text: string) => ticket.lines.find((l) => l.text.includes(text));

describe('kitchen printers: print jobs written with the order, sent after the commit', () => {
  let t: TestEngine;
  let horno: StandInPrinter;
  let plancha: StandInPrinter;
  let key: string;
  before(async () => {
    // A short real-time deadline per send: a stalled printer must not hold a test for 10 s. The real
    // network printer port, as the hosts assemble it: each printer's address points at a stand-in.
    t = await startTestEngine({ printTimeoutMs: 2000, printers: networkPrinter });
    key = t.demo[0]!.keys.live_write;
  });
  after(async () => {
    await t.stop();
  });
  beforeEach(async () => {
    for (const printer of await listPrinters(t.server.engine, R1.id)) await removePrinter(t.server.engine, R1.id, printer.id);
    await horno?.stop();
    await plancha?.stop();
    horno = await new StandInPrinter().start();
    plancha = await new StandInPrinter().start();
    await addPrinter(t.server.engine, R1.id, { name: 'Horno', host: '127.0.0.1', port: horno.port, width_mm: 80, stations: ['horno'], when: ['arrival'] });
    await addPrinter(t.server.engine, R1.id, { name: 'Plancha', host: '127.0.0.1', port: plancha.port, width_mm: 58, stations: ['plancha'], when: ['arrival'] });
  });
  after(async () => {
    await horno.stop();
    await plancha.stop();
  });

  const createOrder = async (name = 'Íñigo Muñoz') => {
    const created = await t.call('POST', '/orders', {
      key,
      body: {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name },
        notes: '¿Con servilletas? ¡Gracias!',
        items: [
          { product_id: R1.products.empanadaCamaronQueso, quantity: 2 },
          { product_id: R1.products.churrasco, quantity: 1, modifier_option_ids: [R1.options.marraqueta], notes: 'alergia al maní' },
        ],
      },
    });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: string; number: string };
  };
  const settle = () => t.server.jobs.runDue();

  test('an order with two stations prints one ticket at each station\'s printer, its items with accents', async () => {
    const order = await createOrder();
    const [hornoTicket] = await horno.waitForTickets(1);
    const [planchaTicket] = await plancha.waitForTickets(1);
    await settle();
    keepTranscript('two-stations-horno-80mm', horno);
    keepTranscript('two-stations-plancha-58mm', plancha);
    assert.deepEqual(horno.protocolErrors, []);
    assert.deepEqual(plancha.protocolErrors, []);
    assert.equal(horno.tickets.length, 1);
    assert.equal(plancha.tickets.length, 1);

    const number = lineOf(hornoTicket!, `#${order.number}`);
    assert.ok(number && number.width === 3 && number.height === 3, 'the order number as big as it prints');
    assert.ok(lineOf(hornoTicket!, 'RETIRO'));
    assert.ok(lineOf(hornoTicket!, 'Íñigo'), 'the first name, accents intact');
    assert.equal(lineOf(hornoTicket!, 'Muñoz'), undefined, 'no more of the customer than the first name');
    assert.ok(lineOf(hornoTicket!, '2 x Empanada de camarón queso'));
    assert.equal(lineOf(hornoTicket!, 'Churrasco'), undefined, 'the other station\'s items are not on it');
    assert.ok(lineOf(hornoTicket!, '[Horno]'));
    assert.ok(hornoTicket!.cut);

    assert.ok(lineOf(planchaTicket!, '1 x Churrasco italiano'));
    assert.ok(lineOf(planchaTicket!, 'Pan: Marraqueta'));
    const allergy = lineOf(planchaTicket!, 'alergia al maní');
    assert.ok(allergy?.inverted, 'an allergy note prints in reverse');
    assert.ok(lineOf(planchaTicket!, '¿Con servilletas? ¡Gracias!'));
    assert.equal(lineOf(planchaTicket!, 'Empanada'), undefined);
    assert.equal(lineOf(planchaTicket!, 'REIMPRESIÓN'), undefined);
    // 58 mm paper: no line is wider than its 32 columns.
    for (const line of planchaTicket!.lines) {
      const text = line.text.trimStart();
      assert.ok(line.text.length - text.length + text.length * line.width <= 32, `fits 58 mm: ${JSON.stringify(line.text)}`);
    }
  });

  test('a printer off for a minute, then back, prints every queued job once, in order', async () => {
    await horno.switchOff();
    const orders = [await createOrder('Ana'), await createOrder('Beto'), await createOrder('Cata')];
    await settle();
    for (let elapsed = 0; elapsed < 60 * SECOND; elapsed += 5 * SECOND) {
      t.clock.advance(5 * SECOND);
      await settle();
    }
    assert.equal(horno.tickets.length, 0);
    const waiting = (await listPrinters(t.server.engine, R1.id)).find((p) => p.name === 'Horno')!;
    assert.equal(waiting.state, 'unreachable');
    assert.equal(waiting.queued, 3);
    await horno.switchOn();
    t.clock.advance(60 * SECOND);
    await settle();
    const tickets = await horno.waitForTickets(3);
    await settle();
    keepTranscript('printer-back-after-a-minute', horno);
    assert.equal(tickets.length, 3, 'each job printed once');
    assert.deepEqual(
      tickets.map((ticket) => ticket.lines.find((l) => l.text.trim().startsWith('#'))!.text.trim()),
      orders.map((o) => `#${o.number}`),
      'in the order they came in',
    );
    for (const ticket of tickets) assert.equal(lineOf(ticket, 'REIMPRESIÓN'), undefined, 'never sent before: no reprint mark');
    assert.equal((await listPrinters(t.server.engine, R1.id)).find((p) => p.name === 'Horno')!.state, 'ok');
    t.clock.advance(120 * SECOND);
    await settle();
    assert.equal(horno.tickets.length, 3, 'nothing printed twice');
  });

  test('a stalled printer times out and the job is tried again; paper out is reported', async () => {
    horno.behaviour = 'stall';
    await createOrder();
    await settle();
    assert.equal(horno.tickets.length, 0);
    const stalled = (await listPrinters(t.server.engine, R1.id)).find((p) => p.name === 'Horno')!;
    assert.equal(stalled.state, 'unreachable');
    assert.match(stalled.state_detail ?? '', /did not answer the paper status question \(DLE EOT 4\) within 2000 ms/);

    horno.behaviour = 'paper-out';
    t.clock.advance(5 * SECOND);
    await settle();
    assert.equal(horno.tickets.length, 0, 'nothing is sent to a printer without paper');
    assert.equal((await listPrinters(t.server.engine, R1.id)).find((p) => p.name === 'Horno')!.state, 'paper_out');

    horno.behaviour = 'ok';
    t.clock.advance(10 * SECOND);
    await settle();
    await horno.waitForTickets(1);
    await settle();
    assert.equal(horno.tickets.length, 1);
    assert.equal((await listPrinters(t.server.engine, R1.id)).find((p) => p.name === 'Horno')!.state, 'ok');
  });

  test('a connection dropped mid-ticket prints it again, marked REIMPRESIÓN', async () => {
    horno.behaviour = 'drop-mid-ticket';
    await createOrder();
    await settle();
    assert.equal(horno.tickets.length, 0, 'half a ticket is not a cut ticket');
    horno.behaviour = 'ok';
    t.clock.advance(5 * SECOND);
    await settle();
    const [ticket] = await horno.waitForTickets(1);
    keepTranscript('dropped-mid-ticket', horno);
    const mark = lineOf(ticket!, 'REIMPRESIÓN');
    assert.ok(mark?.inverted, 'the reprint says so, in reverse');
  });
});
