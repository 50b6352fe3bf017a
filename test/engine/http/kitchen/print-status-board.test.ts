// The board in headless Chromium over real HTTP with a kitchen printer out of paper: the status
// strip says so (from the heartbeat), and a ticket's Reimprimir button queues its reprint; a ticket
// the printer never confirms is set aside, said in the strip, and Reintentar there prints it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SET_ASIDE_AFTER_FAILED_SENDS } from '../../../../src/engine/services/printing/print-jobs.ts';
import { addPrinter } from '../../../../src/engine/services/printing/printers.ts';
import { R1 } from '../../../support/demo-ids.ts';
import { StandInPrinter } from '../../../support/stand-in-printer.ts';
import { startServedKitchen, type ServedKitchen } from './served-kitchen.ts';

const ARTIFACTS = resolve(import.meta.dirname, '../../../../test-artifacts/printers');
let kitchen: ServedKitchen;
const printer = new StandInPrinter();
before(async () => {
  kitchen = await startServedKitchen();
  await printer.start();
  mkdirSync(ARTIFACTS, { recursive: true });
});
after(async () => {
  await kitchen?.close();
  await printer.stop();
});

// A tablet in Chromium and several sends each: 3–15 s on a quiet machine, 30–35 s at load 20 (three
// copies beside stress-ng), past the fast tier's 60 s at load 30. The timeout is a safety net only.
test('paper out shows in the board\'s status strip; Reimprimir on a ticket prints it again once paper is back', { timeout: 180_000 }, async () => {
  await addPrinter(kitchen.server.engine, R1.id, { name: 'Cocina', host: '127.0.0.1', port: printer.port, width_mm: 80, stations: ['cocina'], when: ['arrival'] });
  printer.behaviour = 'paper-out';
  const { page } = await kitchen.tablet({ width: 1280, height: 800 });
  await page.goto(await kitchen.pairingUrl());
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

test('a ticket the printer never confirms is set aside: the strip says so, and its Reintentar prints it again, marked', { timeout: 180_000 }, async () => {
  const printed = printer.tickets.length;
  // Takes the paper question, then drops the line as the ticket arrives: never a confirmation.
  printer.behaviour = 'close-early';
  const { page } = await kitchen.tablet({ width: 1280, height: 800 });
  await page.goto(await kitchen.pairingUrl());
  await page.waitForSelector('[data-testid="status-bar"]');
  const created = await kitchen.call('POST', '/orders', {
    body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Inés' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
  });
  assert.equal(created.status, 201, created.text);
  for (let i = 0; i < SET_ASIDE_AFTER_FAILED_SENDS; i++) {
    await kitchen.server.jobs.runDue();
    kitchen.clock.advance(60_000);
  }
  await kitchen.server.jobs.runDue();
  const chip = await page.waitForSelector('[data-testid="print-status"][data-set-aside="1"]');
  assert.match((await chip.textContent()) ?? '', /apartadas sin confirmar: 1/);
  assert.equal(printer.tickets.length, printed, 'nothing printed whole');
  await page.screenshot({ path: join(ARTIFACTS, 'set-aside-status-strip.png') });

  printer.behaviour = 'ok';
  await page.click('[data-testid="retry-printer"]');
  const tickets = await printer.waitForTickets(printed + 1);
  const again = tickets[printed]!;
  assert.ok(again.text.some((l) => l.includes('REIMPRESIÓN')));
  assert.ok(again.text.some((l) => l.includes(`#${created.body.number}`)));
  await page.waitForSelector('[data-testid="print-status"]', { state: 'detached' });
});
