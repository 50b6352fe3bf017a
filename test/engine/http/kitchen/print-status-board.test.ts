// The board in headless Chromium over real HTTP with a kitchen printer out of paper: the status
// strip says so (from the heartbeat), and a ticket's Reimprimir button queues its reprint.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { addPrinter } from '../../../../src/engine/services/printers.ts';
import { R1 } from '../../../support/demo-ids.ts';
import { StandInPrinter } from '../../../support/stand-in-printer.ts';
import { startServedKitchen, type ServedKitchen } from './served-kitchen.ts';

let kitchen: ServedKitchen;
const printer = new StandInPrinter();
before(async () => {
  kitchen = await startServedKitchen();
  await printer.start();
});
after(async () => {
  await kitchen?.close();
  await printer.stop();
});

test('paper out shows in the board\'s status strip; Reimprimir on a ticket prints it again once paper is back', async () => {
  addPrinter(kitchen.server.engine, R1.id, { name: 'Cocina', host: '127.0.0.1', port: printer.port, width_mm: 80, stations: ['cocina'], when: ['arrival'] });
  printer.behaviour = 'paper-out';
  const { page } = await kitchen.tablet({ width: 1280, height: 800 });
  await page.goto(kitchen.pairingUrl());
  await page.waitForSelector('[data-testid="status-bar"]');
  const created = await kitchen.call('POST', '/orders', {
    body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Tomás' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
  });
  assert.equal(created.status, 201, created.text);
  await kitchen.server.jobs.runDue();
  const chip = await page.waitForSelector('[data-testid="print-status"][data-state="paper_out"]');
  assert.match((await chip.textContent()) ?? '', /Cocina: sin papel/);

  printer.behaviour = 'ok';
  kitchen.clock.advance(10_000);
  await kitchen.server.jobs.runDue();
  await printer.waitForTickets(1);
  await page.waitForSelector('[data-testid="print-status"]', { state: 'detached' });

  await page.click(`[data-order-id="${created.body.id}"] [data-testid="reprint"]`);
  await kitchen.server.jobs.runDue();
  const [, again] = await printer.waitForTickets(2);
  assert.ok(again!.text.some((l) => l.includes('REIMPRESIÓN')));
});
