import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_NOW, startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1, R2 } from '../../support/demo-ids.ts';
import { handlersFor, placeOrder } from '../screen/support.ts';
import { callScreenHandler } from '../../../src/engine/screen/dispatch.ts';
import type { KitchenTicket } from '../../../src/shared/screen-contract/kitchen.ts';

const R2_LOCATION = '21000000-0000-4000-8000-000000000001';
const ACEVICHADO = '23000000-0000-4000-8000-000000000002';
const ENVOLTURA_QUESO_CREMA = '25000000-0000-4000-8000-000000000003';
const ENVOLTURA_SALMON = '25000000-0000-4000-8000-000000000002';

describe('what a cook must read: the ticket\'s kitchen data', () => {
  let engine: EngineUnderTest;
  let ipc: ReturnType<typeof handlersFor>;

  before(async () => {
    engine = await startEngineUnderTest();
  });
  after(async () => {
    await engine.stop();
  });
  beforeEach(() => {
    engine.clock.set(DEMO_NOW);
    ipc = handlersFor(engine);
  });

  const ticketOf = async (orderId: string, handlers = ipc): Promise<KitchenTicket> => {
    const board = await handlers.ok('board:snapshot', {});
    const found = board.tickets.find((t) => t.order.id === orderId);
    assert.ok(found, `ticket ${orderId} on the board`);
    return found;
  };

  test('a delivery ticket: phone, cash to collect, its channel, stations per item and their progress', async () => {
    const order = await placeOrder(engine, {
      type: 'delivery',
      address: 'Av. Grecia 1234',
      shipping_fee: 1990,
      customer: { name: 'Ana', phone: '+56 9 8765 4321' },
      items: [
        { product_id: R1.products.empanadaQueso, quantity: 24 },
        { product_id: R1.products.completo, quantity: 1 },
        { product_id: R1.products.bebidaLata, quantity: 2 },
      ],
    });
    const ticket = await ticketOf(order.id);
    assert.equal(ticket.order.customer.phone, '+56 9 8765 4321');
    assert.deepEqual(ticket.kitchen.payment, { paid: false, method: 'efectivo', collect: order.total, refunded: 0 });
    assert.equal(ticket.kitchen.channel, 'demo live write', 'the label of the API key that created it');
    assert.equal(ticket.kitchen.managed_by, null);
    assert.deepEqual(ticket.kitchen.actions, ['en_preparacion', 'cancelado']);
    assert.equal(ticket.kitchen.countdown, null);
    assert.deepEqual(ticket.kitchen.items.map((i) => [i.index, i.name, i.quantity, i.station_id, i.done]), [
      [0, order.items[0].name, 24, 'horno', false],
      [1, order.items[1].name, 1, 'plancha', false],
      [2, order.items[2].name, 2, 'bar', false],
    ]);
    const board = await ipc.ok('board:snapshot', {});
    assert.deepEqual(board.stations.map((s) => s.id), ['horno', 'plancha', 'cocina', 'bar']);

    const bumped = await ipc.ok('items:set-done', { order_id: order.id, item_index: 2, done: true });
    assert.deepEqual(bumped.kitchen.stations, [
      { station_id: 'horno', done: 0, total: 1 },
      { station_id: 'plancha', done: 0, total: 1 },
      { station_id: 'bar', done: 1, total: 1 },
    ]);
  });

  test('a POS-managed ticket offers no action, says who manages it, and its refusal has a code', async () => {
    const managedId = engine.demo[0]!.managed_order_ids[0]!;
    const ticket = await ticketOf(managedId);
    assert.equal(ticket.kitchen.managed_by, 'pos-demo');
    assert.equal(ticket.kitchen.channel, 'pos-demo');
    assert.deepEqual(ticket.kitchen.actions, []);
    assert.equal(ticket.kitchen.suggested_target, null);
    const refused = await callScreenHandler(ipc.handlers, 'orders:transition', { order_id: managedId, target: 'cancelado' });
    assert.equal(!refused.ok && refused.error.code, 'managed_by_integrator');
  });

  test('scheduled and awaiting-payment tickets carry their items and a countdown', async () => {
    const scheduled = await placeOrder(engine, { scheduled_for: '2026-11-21T22:00:00-03:00' });
    const scheduledTicket = await ticketOf(scheduled.id);
    assert.equal(scheduledTicket.order.status, 'programado');
    assert.deepEqual(scheduledTicket.kitchen.countdown, { kind: 'scheduled', at: Date.parse('2026-11-21T22:00:00-03:00') });
    assert.equal(scheduledTicket.kitchen.items.length, 1);

    const unpaid = await placeOrder(engine, { payment: 'online', return_url: 'https://tienda.example/vuelta' }, engine.demo[0]!.keys.test_write);
    const unpaidTicket = await ticketOf(unpaid.id);
    assert.equal(unpaidTicket.order.status, 'pendiente_pago');
    assert.deepEqual(unpaidTicket.kitchen.countdown, { kind: 'payment', at: engine.clock.now() + 30 * 60_000 });
    assert.deepEqual(unpaidTicket.kitchen.payment, { paid: false, method: null, collect: null, refunded: 0 }, 'online: nothing to collect');
    assert.deepEqual(unpaidTicket.kitchen.actions, ['cancelado']);
  });

  test('an allergen option of the restaurant file is flagged on the ticket\'s modifier', async () => {
    const r2 = handlersFor(engine, { restaurantId: R2.id });
    const order = await placeOrder(
      engine,
      {
        location_id: R2_LOCATION,
        items: [
          { product_id: ACEVICHADO, quantity: 1, modifier_option_ids: [ENVOLTURA_QUESO_CREMA] },
          { product_id: ACEVICHADO, quantity: 1, modifier_option_ids: [ENVOLTURA_SALMON] },
        ],
      },
      engine.demo[1]!.keys.live_write,
    );
    const ticket = await ticketOf(order.id, r2);
    assert.deepEqual(
      ticket.kitchen.items.map((i) => i.modifiers.map((m) => [m.name, m.allergen])),
      [[['Queso crema', true]], [['Salmón', false]]],
    );
    assert.equal(ticket.kitchen.items[0]!.station_id, 'barra-sushi');
    // The public API's order is unchanged: no allergen, no station.
    const api = await engine.call('GET', `/orders/${order.id}`, { key: engine.demo[1]!.keys.live_write });
    assert.deepEqual(Object.keys(api.body.items[0].modifiers[0]).sort(), ['group', 'name', 'price']);
  });
});
