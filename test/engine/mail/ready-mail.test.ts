import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { listOutboxMail, orderMail } from '../../../src/engine/services/mail/mail-outbox.ts';
import { R1 } from '../../support/demo-ids.ts';
import { startTestEngine, type TestEngine } from '../jobs/engine-with-jobs.ts';
import { eventually } from '../../support/eventually.ts';
import { SMTP_USER, startSmtpTestServer, type SmtpTestServer } from './smtp-test-server.ts';

const MINUTE = 60_000;
const FROM = 'pedidos@picada.example';

async function cook(t: TestEngine, body: Record<string, unknown>, key = t.demo[0]!.keys.live_write) {
  const created = await t.call('POST', '/orders', { key, body });
  assert.equal(created.status, 201, created.text);
  const id = created.body.id as string;
  assert.equal((await t.call('PATCH', `/orders/${id}`, { key, body: { status: 'en_preparacion' } })).status, 200);
  const ready = await t.call('PATCH', `/orders/${id}`, { key, body: { status: 'listo' } });
  assert.equal(ready.status, 200, ready.text);
  assert.equal(ready.body.status, 'listo');
  return { id, number: created.body.number as string };
}

const pickupBody = (email: string | null, name = 'Ana Pérez') => ({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name, ...(email ? { email } : {}) },
  items: [
    { product_id: R1.products.barrosLuco, quantity: 2 },
    { product_id: R1.products.bebidaLata, quantity: 1 },
  ],
});

describe('the ready email over SMTP', () => {
  let smtp: SmtpTestServer;
  let t: TestEngine;
  before(async () => {
    smtp = await startSmtpTestServer();
    t = await startTestEngine({ smtp: { url: smtp.url, from: FROM } });
  });
  after(async () => {
    await t.stop();
    await smtp.close();
  });

  test('reaching listo sends the customer a Spanish mail, authenticated, from the restaurant', async () => {
    const order = await cook(t, pickupBody('ana@example.com'));
    const mail = await smtp.next();
    assert.deepEqual(mail.to, ['ana@example.com']);
    assert.equal(mail.from, FROM);
    assert.equal(mail.user, SMTP_USER);
    assert.equal(mail.headers.get('from'), `La Picada de Ñuñoa <${FROM}>`);
    assert.equal(mail.subject, `Tu pedido N° ${order.number} está listo`);
    assert.match(mail.text, /^Hola, Ana Pérez:/);
    assert.match(mail.text, new RegExp(`Tu pedido N° ${order.number} en La Picada de Ñuñoa está listo\\.`));
    assert.match(mail.text, /Puedes retirarlo en Ñuñoa Centro, Av\. Irarrázaval 3450, Ñuñoa, Santiago\./);
    assert.match(mail.text, /2 × Barros Luco\n {2}1 × Bebida en lata 350 ml\nTotal: \$16\.770/);
    await eventually(async () => (await orderMail(t.server.engine, order.id))[0]?.status === 'sent', 'the outbox row marked sent');
    const [row] = await orderMail(t.server.engine, order.id);
    assert.equal(row!.attempts, 1);
    assert.equal(row!.sent_at, '2026-11-21T20:00:00-03:00');
  });

  test('the delivery wording, and no mail without an email address', async () => {
    const before = smtp.received.length;
    await cook(t, { ...pickupBody(null), type: 'delivery', address: 'Av. Grecia 1234' });
    const order = await cook(t, { ...pickupBody('bruno@example.com', 'Bruno'), type: 'delivery', address: 'Av. Grecia 1234' });
    const mail = await smtp.next();
    assert.equal(mail.subject, `Tu pedido N° ${order.number} está listo`);
    assert.match(mail.text, /Pronto saldrá a despacho a Av\. Grecia 1234\./);
    assert.equal(smtp.received.length, before + 1, 'only the order with an email got one');
  });

  test('sandbox orders: the mail is recorded and never sent', async () => {
    const key = t.demo[0]!.keys.test_write;
    const before = smtp.received.length;
    const order = await cook(
      t,
      { ...pickupBody('prueba@example.com'), type: 'delivery', location_id: R1.closedLocation, address: 'Av. Ossa 1200' },
      key,
    );
    // The courier is called after the listo commit; its tracking link then goes into the queued mail.
    await t.server.jobs.runDue();
    const [row] = await orderMail(t.server.engine, order.id);
    assert.equal(row!.status, 'sandbox');
    assert.equal(row!.subject, `[PRUEBA] Tu pedido N° ${order.number} está listo`);
    assert.match(row!.text, /Pedimos un repartidor para llevarlo a Av\. Ossa 1200\./);
    assert.match(row!.text, new RegExp(`Puedes seguir el despacho en https://simulado\\.comanda\\.invalid/seguimiento/sim-${order.id}`));
    await t.server.jobs.runDue();
    t.clock.advance(24 * 60 * MINUTE);
    await t.server.jobs.runDue();
    assert.equal(smtp.received.length, before);
    assert.equal((await orderMail(t.server.engine, order.id))[0]!.status, 'sandbox');
  });

  test('a mail server outage never blocks the kitchen; the mail goes out once it is back', async () => {
    const port = smtp.port;
    await smtp.close();
    // listo answers with the mail server down (the mail is an intent the jobs send later): no wall-clock bound needed.
    const order = await cook(t, pickupBody('carla@example.com', 'Carla'));
    await eventually(async () => (await orderMail(t.server.engine, order.id))[0]?.attempts === 1 && (await orderMail(t.server.engine, order.id))[0]?.last_error !== null, 'a failed attempt');
    let [row] = await orderMail(t.server.engine, order.id);
    assert.equal(row!.status, 'pending');
    assert.match(row!.last_error!, /ECONNREFUSED|connect/i);
    assert.equal(row!.next_attempt_at, '2026-11-22T20:01:00-03:00', 'retried a minute later');

    // The kitchen goes on: more orders, more transitions, all answered at once.
    await cook(t, pickupBody(null, 'Diego'));
    const delivered = await t.call('PATCH', `/orders/${order.id}`, { body: { status: 'entregado' } });
    assert.equal(delivered.status, 200);

    // Still down at the next attempt: backoff doubles.
    t.clock.advance(MINUTE);
    await t.server.jobs.runDue();
    [row] = await orderMail(t.server.engine, order.id);
    assert.equal(row!.attempts, 2);
    assert.equal(row!.next_attempt_at, '2026-11-22T20:03:00-03:00');

    smtp = await startSmtpTestServer(port);
    t.clock.advance(2 * MINUTE - 1);
    await t.server.jobs.runDue();
    assert.equal(smtp.received.length, 0, 'not before its time');
    t.clock.advance(1);
    const mail = await smtp.next();
    assert.deepEqual(mail.to, ['carla@example.com']);
    await eventually(async () => (await orderMail(t.server.engine, order.id))[0]?.status === 'sent', 'sent');
    assert.equal((await orderMail(t.server.engine, order.id))[0]!.attempts, 3);
  });
});

describe('without SMTP', () => {
  let t: TestEngine;
  let smtp: SmtpTestServer;
  before(async () => {
    t = await startTestEngine();
    smtp = await startSmtpTestServer();
  });
  after(async () => {
    await t.stop();
    await smtp.close();
  });

  test('mails stay queued and visible, and go out once a server is configured', async () => {
    const order = await cook(t, pickupBody('ana@example.com'));
    await t.server.jobs.runDue();
    t.clock.advance(60 * MINUTE);
    await t.server.jobs.runDue();
    const [queued] = await listOutboxMail(t.server.engine, R1.id);
    assert.equal(queued!.order_id, order.id);
    assert.equal(queued!.status, 'pending');
    assert.equal(queued!.attempts, 0);
    assert.equal(queued!.to, 'ana@example.com');
    assert.match(queued!.text, /está listo/);

    assert.throws(() => t.server.configureMail({ url: 'http://mail.example.com' }), /must start with smtp:\/\/ or smtps:\/\//);
    assert.throws(() => t.server.configureMail({ url: smtp.url, from: 'not an address' }), /not an email address/);
    t.server.configureMail({ url: smtp.url, from: FROM });
    const mail = await smtp.next();
    assert.deepEqual(mail.to, ['ana@example.com']);
    await eventually(async () => (await listOutboxMail(t.server.engine, R1.id))[0]?.status === 'sent', 'sent');
  });
});
