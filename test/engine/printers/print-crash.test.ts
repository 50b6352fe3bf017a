// The engine killed with SIGKILL while a ticket is on its way to the printer: after the restart
// the job is printed again once, marked REIMPRESIÓN (the printer may have printed it already).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Engine } from '../../../src/engine/engine.ts';
import { addPrinter } from '../../../src/engine/services/printing/printers.ts';
import { R1 } from '../../support/demo-ids.ts';
import { eventually } from '../../support/eventually.ts';
import { StandInPrinter } from '../../support/stand-in-printer.ts';
import { startHeadlessEngine, type HeadlessEngine } from '../../hardening/headless-engine.ts';

const dir = mkdtempSync(join(tmpdir(), 'comanda-print-crash-'));
const dbPath = join(dir, 'engine.db');
let running: HeadlessEngine | null = null;
const printer = new StandInPrinter();
after(async () => {
  await running?.kill('SIGKILL');
  await printer.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The job's row, read through a connection of the test's own. */
async function jobsOf(orderId: string) {
  const engine = new Engine({ database: dbPath });
  try {
    return await engine.stores.printJobs.ofOrder(orderId);
  } finally {
    engine.db.close();
  }
}

// Two serve --demo children (Node, tsx, the demo seeded) and a send on the real clock: 7 s quiet on
// 2 cores, ten times that at load 30, past the fast tier's 60 s.
test('kill -9 of the engine mid-send: the job is printed again once, marked REIMPRESIÓN', { timeout: 240_000 }, async () => {
  await printer.start();
  running = await startHeadlessEngine(dbPath);
  const setup = new Engine({ database: dbPath });
  await addPrinter(setup, R1.id, { name: 'Cocina', host: '127.0.0.1', port: printer.port, width_mm: 80, when: ['arrival'] });
  setup.db.close();

  // The printer prints the ticket and never acknowledges it: the send is under way when the engine dies.
  printer.behaviour = 'hold-ticket';
  const key = running.restaurants.find((r) => r.id === R1.id)!.keys.live_write;
  const created = await fetch(`${running.baseUrl}/orders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      location_id: R1.openLocation,
      type: 'retiro',
      customer: { name: 'Begoña' },
      items: [{ product_id: R1.products.pastelDeChoclo, quantity: 1 }],
    }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const order = (await created.json()) as { id: string; number: string };
  await printer.waitForTickets(1);
  await running.kill('SIGKILL');
  running = null;
  assert.deepEqual((await jobsOf(order.id)).map((j) => j.status), ['sending'], 'cut off mid-send');

  printer.behaviour = 'ok';
  running = await startHeadlessEngine(dbPath);
  const tickets = await printer.waitForTickets(2);
  await eventually(async () => (await jobsOf(order.id))[0]?.status === 'printed', 'the reprint recorded as printed');
  mkdirSync(resolve(import.meta.dirname, '../../../test-artifacts/printers'), { recursive: true });
  writeFileSync(resolve(import.meta.dirname, '../../../test-artifacts/printers/kill-9-mid-send.txt'), `${printer.transcript()}\n`);
  assert.equal(tickets[0]!.lines.some((l) => l.text.includes('REIMPRESIÓN')), false);
  const mark = tickets[1]!.lines.find((l) => l.text.includes('REIMPRESIÓN'));
  assert.ok(mark?.inverted, 'the second print says it is a reprint');
  assert.ok(tickets[1]!.lines.some((l) => l.text.includes(`#${order.number}`)));
  assert.ok(tickets[1]!.lines.some((l) => l.text.includes('1 x Pastel de choclo')));
  assert.equal(printer.tickets.length, 2, 'printed again once, not more');
  assert.equal((await jobsOf(order.id))[0]!.reprint, 1);
});
