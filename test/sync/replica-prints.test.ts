// A replica prints (issue 22): in connected mode the restaurant's hub is a replica of its upstream,
// and the comandera is on the hub's network. An order taken upstream (an online order) reaches the
// hub through the feed and prints at the hub's own printers; a delivery bumped to listo gets its
// bag label once, whether the bump is made on the replica (then mirrored back) or upstream (then
// mirrored here); an order mirrored again prints nothing more. Real upstream and replica on real
// ports and SQLite files; the stand-in printer decodes what the hub sent.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { confirmPayment } from '../../src/engine/services/payments/confirm-payment.ts';
import { mirrorOrder } from '../../src/engine/services/replica/mirror-upstream.ts';
import { readKitchenTicketById } from '../../src/engine/services/kitchen/kitchen-board.ts';
import { readPickupBoard } from '../../src/engine/services/kitchen/pickup-board.ts';
import { queueReprint } from '../../src/engine/services/printing/print-jobs.ts';
import { addPrinter } from '../../src/engine/services/printing/printers.ts';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { StandInPrinter } from '../support/stand-in-printer.ts';
import { twoEnginesForSuite } from './two-engines.ts';

describe('a replica prints what reaches its kitchen from upstream', () => {
  const { sys, up, rep, syncStatus } = twoEnginesForSuite('live');
  let kitchen: StandInPrinter;
  let bags: StandInPrinter;
  before(async () => {
    kitchen = await new StandInPrinter().start();
    bags = await new StandInPrinter().start();
    const engine = sys.replica.server.engine;
    // The hub's own printers, on its own restaurant (the replica's name for the upstream's).
    const restaurantId = sys.replica.replica.identity.restaurantId;
    await addPrinter(engine, restaurantId, { name: 'Comandera', host: '127.0.0.1', port: kitchen.port, width_mm: 80, when: ['arrival'] });
    await addPrinter(engine, restaurantId, { name: 'Etiquetas', host: '127.0.0.1', port: bags.port, width_mm: 58, when: ['bag'] });
  });
  after(async () => {
    await kitchen?.stop();
    await bags?.stop();
  });

  const jobsOf = async (orderId: string) => (await sys.replica.server.engine.stores.printJobs.ofOrder(orderId)).map((j) => `${j.kind}:${j.status}`);
  const ticketsFor = (printer: StandInPrinter, number: string) => printer.tickets.filter((t) => t.text.some((l) => l.includes(`#${number}`)));
  const mirrored = (id: string, status: string) =>
    eventually(() => rep('GET', `/orders/${id}`), `the order ${status} on the replica`, { until: (r) => r.status === 200 && r.body.status === status });
  const createUpstream = async (type: 'retiro' | 'delivery') => {
    const created = await up('POST', '/orders', {
      location_id: R1.openLocation,
      type,
      ...(type === 'delivery' ? { address: 'Irarrázaval 3456, Ñuñoa', shipping_fee: 1990 } : {}),
      customer: { name: 'Begoña Online' },
      items: [{ product_id: R1.products.cazuela, quantity: 1 }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body as { id: string; number: string };
  };
  /** Everything the replica did has reached the upstream and come back. */
  const settled = () => eventually(() => syncStatus(), 'the replica\'s outbox empty', { until: (s) => s.outbox_pending === 0 });

  test('an order taken upstream prints at the hub\'s comandera once; its later changes print nothing more', async () => {
    const order = await createUpstream('retiro');
    await mirrored(order.id, 'recibido');
    const [ticket] = await eventually(() => ticketsFor(kitchen, order.number), 'the ticket at the comandera', { until: (t) => t.length === 1 });
    assert.ok(ticket!.text.some((l) => l.includes('Begoña')), 'the first name, accents intact');
    assert.ok(ticket!.text.some((l) => l.includes('1 x Cazuela')));

    assert.equal((await up('PATCH', `/orders/${order.id}`, { status: 'en_preparacion' })).status, 200);
    await mirrored(order.id, 'en_preparacion');
    // Mirrored again by hand, forced, as the divergence check's healing does: nothing more.
    const view = (await up('GET', `/orders/${order.id}`)).body;
    const engine = sys.replica.server.engine;
    await engine.transaction(async (tx) => await mirrorOrder(engine, sys.replica.replica.identity.restaurantId, 'live', { ...view, updated_at: new Date(Date.parse(view.updated_at) + 1000).toISOString() }, 'order.created', { force: true }, tx));
    await sys.replica.server.jobs.runDue();
    assert.deepEqual(await jobsOf(order.id), ['ticket:printed']);
    assert.equal(ticketsFor(kitchen, order.number).length, 1);
  });

  test('an order typed into the hub\'s own API prints at once with the number it answered; once the upstream\'s number arrives, reprints, the pickup screen and the ticket say "1042 · L7" until done', async () => {
    const typed = await rep('POST', '/orders', {
      location_id: R1.openLocation,
      type: 'retiro',
      customer: { name: 'Tomás Mostrador' },
      items: [{ product_id: R1.products.cazuela, quantity: 1 }],
    });
    assert.equal(typed.status, 201, JSON.stringify(typed.body));
    const local = typed.body as { id: string; number: string };
    assert.match(local.number, /^L\d+$/);
    // Printed at once, upstream reachable or not: the hub's paper says L….
    await eventually(() => ticketsFor(kitchen, local.number), 'the ticket with the hub\'s number', { until: (t) => t.length === 1 });

    await settled();
    const synced = await eventually(() => rep('GET', `/orders/${local.id}`), 'the upstream\'s number', { until: (r) => /^\d+$/.test(r.body.number) });
    const upstream = synced.body as { id: string; number: string };
    const shown = `${upstream.number} · ${local.number}`;
    const engine = sys.replica.server.engine;
    const restaurantId = sys.replica.replica.identity.restaurantId;
    assert.equal((await readKitchenTicketById(engine, restaurantId, upstream.id)).kitchen.shown_number, shown);
    assert.ok(
      (await readPickupBoard(engine, restaurantId)).preparing.some((n) => n.number === upstream.number && n.hub_number === local.number),
      'the pickup screen shows both, the hub\'s in small',
    );
    assert.deepEqual(await queueReprint(engine, restaurantId, upstream.id), { queued: 1 });
    const [reprint] = await eventually(() => ticketsFor(kitchen, shown), 'the reprint with both numbers', { until: (t) => t.length === 1 });
    assert.ok(reprint!.text.some((l) => l.includes('REIMPRES')), 'marked as a reprint');
    assert.ok(reprint!.text.some((l) => l.includes(`#${upstream.number} · ${local.number}`)), 'the header names both numbers');

    for (const status of ['en_preparacion', 'listo', 'entregado']) assert.equal((await rep('PATCH', `/orders/${upstream.id}`, { status })).status, 200);
    assert.equal((await readKitchenTicketById(engine, restaurantId, upstream.id)).kitchen.shown_number, undefined, 'done: the upstream\'s number alone');
  });

  test('a delivery bumped to listo on the replica: one bag label, none more when the bump comes back from upstream', async () => {
    const order = await createUpstream('delivery');
    await mirrored(order.id, 'recibido');
    await eventually(() => ticketsFor(kitchen, order.number).length, 'its ticket', { until: (n) => n === 1 });
    assert.equal((await rep('PATCH', `/orders/${order.id}`, { status: 'en_preparacion' })).status, 200);
    assert.equal((await rep('PATCH', `/orders/${order.id}`, { status: 'listo' })).status, 200);
    const [label] = await eventually(() => ticketsFor(bags, order.number), 'the bag label', { until: (t) => t.length === 1 });
    assert.ok(label!.text.some((l) => l.includes('Irarrázaval 3456')), 'the address on the bag');
    await settled();
    await eventually(() => up('GET', `/orders/${order.id}`), 'listo upstream', { until: (r) => r.body.status === 'listo' });
    await sys.replica.server.jobs.runDue();
    assert.deepEqual((await jobsOf(order.id)).sort(), ['bag:printed', 'ticket:printed']);
    assert.equal(ticketsFor(bags, order.number).length, 1);
    assert.equal(ticketsFor(kitchen, order.number).length, 1);
  });

  test('a delivery bumped to listo upstream: its bag label prints at the hub once', async () => {
    const order = await createUpstream('delivery');
    await mirrored(order.id, 'recibido');
    assert.equal((await up('PATCH', `/orders/${order.id}`, { status: 'en_preparacion' })).status, 200);
    assert.equal((await up('PATCH', `/orders/${order.id}`, { status: 'listo' })).status, 200);
    await mirrored(order.id, 'listo');
    await eventually(() => ticketsFor(bags, order.number).length, 'the bag label', { until: (n) => n === 1 });
    assert.equal((await up('PATCH', `/orders/${order.id}`, { status: 'en_reparto' })).status, 200);
    await mirrored(order.id, 'en_reparto');
    await sys.replica.server.jobs.runDue();
    assert.deepEqual((await jobsOf(order.id)).sort(), ['bag:printed', 'ticket:printed']);
    assert.equal(ticketsFor(bags, order.number).length, 1);
  });
});

describe('a replica prints an online order once it is paid upstream (sandbox world)', () => {
  const { sys, up, rep } = twoEnginesForSuite('test');
  let kitchen: StandInPrinter;
  before(async () => {
    kitchen = await new StandInPrinter().start();
    await addPrinter(sys.replica.server.engine, sys.replica.replica.identity.restaurantId, { name: 'Comandera', host: '127.0.0.1', port: kitchen.port, width_mm: 80, when: ['arrival'] });
  });
  after(async () => {
    await kitchen?.stop();
  });

  test('waiting for its payment it prints nothing; paid upstream, it prints at the hub once, marked PRUEBA', async () => {
    const created = await up('POST', '/orders', {
      location_id: R1.openLocation,
      type: 'retiro',
      payment: 'online',
      return_url: 'https://tienda.example/vuelta',
      customer: { name: 'Íñigo Pagado' },
      items: [{ product_id: R1.products.cazuela, quantity: 1 }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const order = created.body as { id: string; number: string; payment_link: { session_id: string } };
    await eventually(() => rep('GET', `/orders/${order.id}`), 'the unpaid order on the replica', { until: (r) => r.status === 200 && r.body.status === 'pendiente_pago' });
    await sys.replica.server.jobs.runDue();
    assert.deepEqual(await sys.replica.server.engine.stores.printJobs.ofOrder(order.id), [], 'not in the kitchen yet: no paper');

    await confirmPayment(sys.upstream.engine, { session_id: order.payment_link.session_id, result: 'success', method: 'tarjeta' });
    await eventually(() => rep('GET', `/orders/${order.id}`), 'paid on the replica', { until: (r) => r.body.status === 'recibido' });
    const [ticket] = await eventually(() => kitchen.tickets.filter((t) => t.text.some((l) => l.includes(`#${order.number}`))), 'its ticket', { until: (t) => t.length === 1 });
    assert.ok(ticket!.text.some((l) => l.includes('PRUEBA')), 'a sandbox order says so on paper');
    assert.ok(ticket!.text.some((l) => l.includes('Íñigo')));
    await sys.replica.server.jobs.runDue();
    assert.deepEqual((await sys.replica.server.engine.stores.printJobs.ofOrder(order.id)).map((j) => `${j.kind}:${j.status}`), ['ticket:printed']);
  });
});
