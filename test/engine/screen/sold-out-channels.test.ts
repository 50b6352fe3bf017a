// The "agotado" switch through the screens' contract (the desktop window's IPC and the tablets'
// kitchen door run these same handlers): the Stock screen lists every dish with its switch, and a
// ticket's line switches its dish off where the order is; the API then refuses and shows it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { callScreenHandler } from '../../../src/engine/screen/dispatch.ts';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { handlersFor } from './support.ts';

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(async () => {
  await engine.stop();
});

const P = R1.products;
const available = async (productId: string) =>
  ((await engine.call('GET', `/menu?location_id=${R1.openLocation}`)).body.categories as { products: { id: string; available: boolean }[] }[])
    .flatMap((c) => c.products)
    .find((p) => p.id === productId)!.available;

test('the Stock screen lists every dish of the menu, tracked or not, and switches one off and back', async () => {
  const { ok } = handlersFor(engine);
  const board = await ok('sold-out:read', { location_id: R1.openLocation, world: 'live' });
  const byId = new Map(board.products.map((p) => [p.product_id, p]));
  assert.ok(board.products.length > 4, 'more than the tracked ones');
  assert.equal(byId.get(P.empanadaCamaronQueso)!.quantity, null, 'untracked: no quantity');
  assert.equal(byId.get(P.empanadaQueso)!.quantity, 30);
  assert.deepEqual(byId.get(P.completo)!.options.map((o) => [o.group, o.name, o.sold_out]).slice(0, 2), [
    ['Agregados', 'Palta extra', false],
    ['Agregados', 'Tomate extra', false],
  ]);

  const off = await ok('sold-out:set', { location_id: R1.openLocation, world: 'live', kind: 'product', id: P.cazuela, sold_out: true });
  assert.equal(off.simulated, false);
  const cazuela = off.products.find((p) => p.product_id === P.cazuela)!;
  assert.equal(cazuela.sold_out, true);
  assert.equal(cazuela.sold_out_until, Date.parse('2026-11-22T04:00:00-03:00'));
  assert.equal(await available(P.cazuela), false);

  const back = await ok('sold-out:set', { location_id: R1.openLocation, world: 'live', kind: 'product', id: P.cazuela, sold_out: false });
  assert.equal(back.products.find((p) => p.product_id === P.cazuela)!.sold_out, false);
  assert.equal(await available(P.cazuela), true);

  const simulated = await ok('sold-out:set', { location_id: R1.openLocation, world: 'test', kind: 'product', id: P.cazuela, sold_out: true });
  assert.equal(simulated.simulated, true);
  assert.equal(await available(P.cazuela), true, 'the test world changes nothing');
});

test("a ticket's line switches its dish off at the order's location; the next order with it is refused", async () => {
  const { handlers } = handlersFor(engine);
  const created = await engine.call('POST', '/orders', {
    body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Eva' }, items: [{ product_id: P.cazuela, quantity: 1 }, { product_id: P.bebidaLata, quantity: 1 }] },
  });
  assert.equal(created.status, 201, created.text);
  const result = await callScreenHandler(handlers, 'items:set-sold-out', { order_id: created.body.id, item_index: 1, sold_out: true });
  assert.deepEqual(result, {
    ok: true,
    value: { product_id: P.bebidaLata, name: created.body.items[1].name, location_id: R1.openLocation, sold_out: true, simulated: false },
  });
  const refused = await engine.call('POST', '/orders', {
    body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Eva' }, items: [{ product_id: P.bebidaLata, quantity: 1 }] },
  });
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error.code, 'insufficient_stock');

  const noLine = await callScreenHandler(handlers, 'items:set-sold-out', { order_id: created.body.id, item_index: 7, sold_out: true });
  assert.equal(!noLine.ok && noLine.error.code, 'invalid_request');
  await callScreenHandler(handlers, 'items:set-sold-out', { order_id: created.body.id, item_index: 1, sold_out: false });
  assert.equal(await available(P.bebidaLata), true);
});
