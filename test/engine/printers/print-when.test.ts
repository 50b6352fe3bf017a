// When printers print besides arrival: fallback (only while no kitchen screen has been live for the
// printer's seconds), a bag label on expo's bump of a delivery to listo, and Reimprimir from the
// kitchen channel; paper out on the board's snapshot and heartbeat.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createKitchenHandlers } from '../../../src/engine/screen/kitchen-handlers.ts';
import { startLiveFeed } from '../../../src/engine/screen/live-feed.ts';
import { heartbeatPush } from '../../../src/engine/screen/live-hub.ts';
import { localCommands } from '../../../src/engine/services/engine-commands.ts';
import { readKitchenBoard } from '../../../src/engine/services/kitchen/kitchen-board.ts';
import { addPrinter, listPrinters, removePrinter } from '../../../src/engine/services/printing/printers.ts';
import { R1 } from '../../support/demo-ids.ts';
import { StandInPrinter } from '../../support/stand-in-printer.ts';
import { startTestEngine, type TestEngine } from '../jobs/engine-with-jobs.ts';

const ARTIFACTS = resolve(import.meta.dirname, '../../../test-artifacts/printers');
const SECOND = 1000;
const has = (lines: string[], text: string) => lines.some((l) => l.includes(text));

describe('fallback printing, bag labels, Reimprimir, paper out', () => {
  let t: TestEngine;
  let printer: StandInPrinter;
  let key: string;
  before(async () => {
    t = await startTestEngine({ printTimeoutMs: 2000 });
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
  });
  const settle = () => t.server.jobs.runDue();
  const order = async (type: 'retiro' | 'delivery' = 'retiro') => {
    const created = await t.call('POST', '/orders', {
      key,
      body: {
        location_id: R1.openLocation,
        type,
        ...(type === 'delivery' ? { address: 'Irarrázaval 3456, depto 12, Ñuñoa', shipping_fee: 1990 } : {}),
        customer: { name: 'Sofía Peña' },
        items: [{ product_id: R1.products.cazuela, quantity: 1 }],
      },
    });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: string; number: string };
  };

  test('fallback prints only after the screens have been gone its seconds, and stops once one is back', async () => {
    await addPrinter(t.server.engine, R1.id, { name: 'Respaldo', host: '127.0.0.1', port: printer.port, width_mm: 80, when: ['fallback'], fallback_seconds: 30 });
    const engine = t.server.engine;
    // A kitchen screen is live (the desktop window's feed hears its heartbeat).
    const feed = await startLiveFeed({ engine, restaurantId: R1.id, send: () => {}, connectionStatus: () => ({ mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null }), heartbeatMs: 60_000 });
    await feed.heartbeat();
    const seen = await order();
    t.clock.advance(SECOND);
    await feed.heartbeat();
    await settle();
    t.clock.advance(60 * SECOND);
    await settle();
    assert.equal(printer.tickets.length, 0, 'a screen had the order: no paper');
    assert.deepEqual((await engine.stores.printJobs.ofOrder(seen.id)).map((j) => j.status), ['dropped']);

    // The screen goes away: nothing prints until it has been gone 30 s.
    await feed.heartbeat();
    feed.stop();
    const lastLive = engine.clock.now();
    const missed = await order();
    t.clock.advance(10 * SECOND);
    await settle();
    assert.equal(printer.tickets.length, 0, `held while the screens have been gone ${(engine.clock.now() - lastLive) / 1000} s`);
    t.clock.advance(30 * SECOND);
    await settle();
    const [ticket] = await printer.waitForTickets(1);
    assert.ok(has(ticket!.text, `#${missed.number}`));
    assert.ok(has(ticket!.text, '1 x Cazuela de vacuno'));

    // A screen is back: the next order is not printed.
    const back = await startLiveFeed({ engine, restaurantId: R1.id, send: () => {}, connectionStatus: () => ({ mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null }), heartbeatMs: 60_000 });
    try {
      const next = await order();
      t.clock.advance(SECOND);
      await back.heartbeat();
      t.clock.advance(60 * SECOND);
      await back.heartbeat();
      await settle();
      assert.equal(printer.tickets.length, 1);
      assert.deepEqual((await engine.stores.printJobs.ofOrder(next.id)).map((j) => j.status), ['dropped']);
    } finally {
      back.stop();
    }
  });

  test('expo bumps a delivery to listo: a bag label with the address; a pickup order gets none', async () => {
    await addPrinter(t.server.engine, R1.id, { name: 'Despacho', host: '127.0.0.1', port: printer.port, width_mm: 58, when: ['bag'] });
    const delivery = await order('delivery');
    const pickup = await order('retiro');
    const handlers = createKitchenHandlers({ engine: t.server.engine, commands: localCommands(t.server.engine, t.server.providers.couriers), restaurantId: R1.id });
    for (const o of [delivery, pickup]) {
      await handlers['orders:transition']({ order_id: o.id, target: 'en_preparacion' });
      await handlers['orders:transition']({ order_id: o.id, target: 'listo' });
    }
    await settle();
    const [label] = await printer.waitForTickets(1);
    await settle();
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'bag-label-58mm.txt'), `${printer.transcript()}\n`);
    assert.equal(printer.tickets.length, 1, 'no label for the pickup order');
    assert.ok(has(label!.text, `#${delivery.number}`));
    assert.ok(has(label!.text, 'BOLSA'));
    assert.ok(has(label!.text, 'DELIVERY'));
    // 32 columns: the address wraps, whole, under "Dirección:", each line prefixed as the customer's.
    const address = label!.text.slice(label!.text.indexOf('Dirección:') + 1);
    assert.deepEqual(address, ['  > Irarrázaval 3456, depto 12,', '  > Ñuñoa']);
  });

  test('Reimprimir over the kitchen channel prints the ticket again, marked; paper out shows on the board', async () => {
    await addPrinter(t.server.engine, R1.id, { name: 'Cocina', host: '127.0.0.1', port: printer.port, width_mm: 80, stations: ['cocina'], when: ['arrival'] });
    const o = await order();
    await printer.waitForTickets(1);
    const handlers = createKitchenHandlers({ engine: t.server.engine, commands: localCommands(t.server.engine, t.server.providers.couriers), restaurantId: R1.id });
    assert.deepEqual(await handlers['orders:reprint']({ order_id: o.id }), { queued: 1 });
    await settle();
    const [, again] = await printer.waitForTickets(2);
    assert.ok(has(again!.text, 'REIMPRESIÓN'));
    assert.ok(has(again!.text, `#${o.number}`));
    await assert.rejects(async () => handlers['orders:reprint']({ order_id: '00000000-0000-4000-8000-000000000000' }), /not found/);

    printer.behaviour = 'paper-out';
    await order();
    await settle();
    const snapshot = await readKitchenBoard(t.server.engine, R1.id);
    assert.equal(snapshot.printer_count, 1);
    assert.deepEqual(snapshot.printing?.map((p) => [p.name, p.state, p.queued]), [['Cocina', 'paper_out', 1]]);
    const beat = await heartbeatPush(t.server.engine, R1.id, { mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null }, 2000);
    assert.equal(beat.kind === 'heartbeat' && beat.printing?.[0]?.state, 'paper_out');
    printer.behaviour = 'ok';
    t.clock.advance(10 * SECOND);
    await settle();
    await printer.waitForTickets(3);
    await settle();
    assert.deepEqual((await readKitchenBoard(t.server.engine, R1.id)).printing, [], 'back to normal: nothing to say');
  });
});
