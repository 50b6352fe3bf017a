// The per-location "agotado" (86) switch over HTTP: any product or option, tracked or not; the menu
// says `available: false`, POST /orders refuses it like missing stock, until it is switched back or
// the kitchen's day ends (the restaurant's `sold_out_resets_at`, 04:00 for the demo).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { R1, UNKNOWN_UUID } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';

const P = R1.products;
type MenuBody = { categories: { products: { id: string; available: boolean; modifier_groups: { options: { id: string; available: boolean }[] }[] }[] }[] };
const productIn = (menu: MenuBody, id: string) => menu.categories.flatMap((c) => c.products).find((p) => p.id === id)!;
const optionIn = (menu: MenuBody, id: string) =>
  menu.categories.flatMap((c) => c.products).flatMap((p) => p.modifier_groups).flatMap((g) => g.options).find((o) => o.id === id)!;

describe('the sold-out switch (PUT /sold-out)', () => {
  let engine: EngineUnderTest;
  before(async () => {
    engine = await startEngineUnderTest();
  });
  after(async () => {
    await engine.stop();
  });

  const menuAt = async (locationId?: string) =>
    (await engine.call('GET', locationId ? `/menu?location_id=${locationId}` : '/menu')).body as MenuBody;
  const order = (items: { product_id: string; quantity: number; modifier_option_ids?: string[] }[], key?: string) =>
    engine.call('POST', '/orders', { body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Mesón' }, items }, ...(key ? { key } : {}) });
  const switchItems = (items: { kind: 'product' | 'option'; id: string; sold_out: boolean }[], key?: string, locationId: string = R1.openLocation) =>
    engine.call('PUT', '/sold-out', { body: { location_id: locationId, items }, ...(key ? { key } : {}) });

  test('an untracked dish marked agotado is unavailable in the menu and refused (409 insufficient_stock), then available again when switched back', async () => {
    assert.equal(productIn(await menuAt(R1.openLocation), P.empanadaCamaronQueso).available, true);
    const marked = await switchItems([{ kind: 'product', id: P.empanadaCamaronQueso, sold_out: true }]);
    assert.equal(marked.status, 200, marked.text);
    assert.equal(marked.body.simulated, false);
    assert.deepEqual(
      marked.body.data.map((e: { kind: string; id: string; name: string; product_id: string; until: string }) => [e.kind, e.id, e.product_id, e.until]),
      [['product', P.empanadaCamaronQueso, P.empanadaCamaronQueso, '2026-11-22T04:00:00-03:00']],
      'until the end of the kitchen\'s day: the next 04:00',
    );
    assert.equal(productIn(await menuAt(R1.openLocation), P.empanadaCamaronQueso).available, false);
    assert.equal(productIn(await menuAt(R1.closedLocation), P.empanadaCamaronQueso).available, true, 'per location');
    assert.equal(productIn(await menuAt(), P.empanadaCamaronQueso).available, true, 'still available at another active location');

    const refused = await order([{ product_id: P.cazuela, quantity: 1 }, { product_id: P.empanadaCamaronQueso, quantity: 2 }]);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'insufficient_stock');
    assert.match(refused.body.error.message, /camarón queso.*is sold out \(agotado\) at Ñuñoa Centro/i);
    const sandbox = await order([{ product_id: P.empanadaCamaronQueso, quantity: 1 }], engine.demo[0]!.keys.test_write);
    assert.equal(sandbox.status, 409, 'sandbox keys are refused too, as they are for stock');

    const read = await engine.call('GET', `/sold-out?location_id=${R1.openLocation}`, { key: engine.demo[0]!.keys.live_read });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data.map((e: { id: string }) => e.id), [P.empanadaCamaronQueso]);

    const back = await switchItems([{ kind: 'product', id: P.empanadaCamaronQueso, sold_out: false }]);
    assert.deepEqual(back.body.data, []);
    assert.equal(productIn(await menuAt(R1.openLocation), P.empanadaCamaronQueso).available, true);
    assert.equal((await order([{ product_id: P.empanadaCamaronQueso, quantity: 2 }])).status, 201);
  });

  test('an option marked agotado: the menu says so on the option, an order choosing it is refused, one without it is taken', async () => {
    const marked = await switchItems([{ kind: 'option', id: R1.options.paltaExtra, sold_out: true }]);
    assert.equal(marked.status, 200, marked.text);
    assert.deepEqual(marked.body.data.map((e: { kind: string; product_id: string }) => [e.kind, e.product_id]), [['option', P.completo]]);
    const menu = await menuAt(R1.openLocation);
    assert.equal(optionIn(menu, R1.options.paltaExtra).available, false);
    assert.equal(optionIn(menu, R1.options.tomateExtra).available, true);
    assert.equal(productIn(menu, P.completo).available, true, 'the dish itself is still on');
    const refused = await order([{ product_id: P.completo, quantity: 1, modifier_option_ids: [R1.options.paltaExtra] }]);
    assert.equal(refused.status, 409);
    assert.match(refused.body.error.message, /Palta.*of Completo.*is sold out \(agotado\)/i);
    assert.equal((await order([{ product_id: P.completo, quantity: 1, modifier_option_ids: [R1.options.tomateExtra] }])).status, 201);
    await switchItems([{ kind: 'option', id: R1.options.paltaExtra, sold_out: false }]);
    assert.equal(optionIn(await menuAt(R1.openLocation), R1.options.paltaExtra).available, true);
  });

  test('a tracked dish with stock left can be switched off too; the mark ends by itself when the kitchen\'s day ends', async () => {
    await switchItems([{ kind: 'product', id: P.empanadaQueso, sold_out: true }]);
    assert.equal(productIn(await menuAt(R1.openLocation), P.empanadaQueso).available, false);
    assert.equal((await order([{ product_id: P.empanadaQueso, quantity: 1 }])).status, 409);
    engine.clock.set(Date.parse('2026-11-22T03:59:00-03:00'));
    assert.equal(productIn(await menuAt(R1.openLocation), P.empanadaQueso).available, false, 'past midnight the service goes on');
    engine.clock.set(Date.parse('2026-11-22T04:00:00-03:00'));
    assert.equal(productIn(await menuAt(R1.openLocation), P.empanadaQueso).available, true, 'a new day');
    assert.deepEqual((await engine.call('GET', `/sold-out?location_id=${R1.openLocation}`)).body.data, []);
  });

  test('refusals: a read key (403), unknown ids (400, all or nothing), a repeated id, an unknown location; a sandbox key changes nothing', async () => {
    const keys = engine.demo[0]!.keys;
    assert.equal((await switchItems([{ kind: 'product', id: P.cazuela, sold_out: true }], keys.live_read)).status, 403);
    const unknown = await switchItems([
      { kind: 'product', id: P.cazuela, sold_out: true },
      { kind: 'option', id: UNKNOWN_UUID, sold_out: true },
    ]);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.message, `unknown option ${UNKNOWN_UUID}`);
    const repeated = await switchItems([
      { kind: 'product', id: P.cazuela, sold_out: true },
      { kind: 'product', id: P.cazuela, sold_out: false },
    ]);
    assert.equal(repeated.status, 400);
    assert.equal((await switchItems([{ kind: 'product', id: P.cazuela, sold_out: true }], undefined, UNKNOWN_UUID)).status, 400);
    assert.equal((await engine.call('GET', '/sold-out')).status, 400);
    const simulated = await switchItems([{ kind: 'product', id: P.cazuela, sold_out: true }], keys.test_write);
    assert.equal(simulated.status, 200);
    assert.equal(simulated.body.simulated, true);
    assert.deepEqual(simulated.body.data, []);
    assert.equal(productIn(await menuAt(R1.openLocation), P.cazuela).available, true, 'nothing was switched');
  });
});
