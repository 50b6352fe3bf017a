import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { R1 } from '../../support/demo-ids.ts';
import { startTestEngine, type TestEngine } from './engine-with-jobs.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

describe('scheduled orders are released to the kitchen at scheduled_for minus the preparation lead', () => {
  let t: TestEngine;
  before(async () => {
    // 20:00 on a Saturday.
    t = await startTestEngine();
  });
  after(() => t.stop());

  const schedule = async (scheduledFor: string, extra: Record<string, unknown> = {}, key = t.demo[0]!.keys.live_write) => {
    const res = await t.call('POST', '/orders', {
      key,
      body: {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Diego' },
        items: [{ product_id: R1.products.cazuela, quantity: 1 }],
        scheduled_for: scheduledFor,
        ...extra,
      },
    });
    assert.equal(res.status, 201, res.text);
    return res.body as { id: string; status: string; payment_link?: { payment_url: string } };
  };
  const statusOf = async (id: string, key = t.demo[0]!.keys.live_write) => (await t.call('GET', `/orders/${id}`, { key })).body.status;

  test('exactly at the release time of each location (leads 30 and 25 minutes), with an event', async () => {
    const open = await schedule('2026-11-21T22:00:00-03:00');
    // The closed location's lead is 25 minutes; a scheduled order does not need it open.
    const closed = await schedule('2026-11-21T22:00:00-03:00', { location_id: R1.closedLocation });
    assert.equal(open.status, 'programado');
    assert.equal(closed.status, 'programado');
    const feed = await t.call('GET', '/events');

    t.clock.set('2026-11-21T21:29:59-03:00');
    assert.equal(await statusOf(open.id), 'programado');
    t.clock.set('2026-11-21T21:30:00-03:00');
    assert.equal(await statusOf(open.id), 'recibido');
    assert.equal(await statusOf(closed.id), 'programado');
    t.clock.advance(5 * MINUTE - SECOND);
    assert.equal(await statusOf(closed.id), 'programado');
    t.clock.advance(SECOND);
    assert.equal(await statusOf(closed.id), 'recibido');

    const events = (await t.call('GET', `/events?after=${feed.body.next_cursor}`)).body.data;
    assert.deepEqual(
      events.map((e: { type: string; data: { id: string; status: string; updated_at: string } }) => [e.type, e.data.id, e.data.status, e.data.updated_at]),
      [
        ['order.updated', open.id, 'recibido', '2026-11-21T21:30:00-03:00'],
        ['order.updated', closed.id, 'recibido', '2026-11-21T21:35:00-03:00'],
      ],
    );
  });

  test('a started or cancelled scheduled order is left alone', async () => {
    const started = await schedule('2026-11-21T23:00:00-03:00');
    const cancelled = await schedule('2026-11-21T23:00:00-03:00');
    assert.equal((await t.call('PATCH', `/orders/${started.id}`, { body: { status: 'en_preparacion' } })).status, 200);
    assert.equal((await t.call('PATCH', `/orders/${cancelled.id}`, { body: { status: 'cancelado' } })).status, 200);
    t.clock.set('2026-11-21T22:45:00-03:00');
    assert.equal(await statusOf(started.id), 'en_preparacion');
    assert.equal(await statusOf(cancelled.id), 'cancelado');
  });

  test('a scheduled online order is held until paid, then released on time', async () => {
    const key = t.demo[0]!.keys.test_write;
    const order = await schedule('2026-11-22T01:00:00-03:00', { payment: 'online', return_url: 'https://tienda.example/vuelta' }, key);
    assert.equal(order.status, 'pendiente_pago');
    const paid = await fetch(order.payment_link!.payment_url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'result=success&method=tarjeta',
    });
    assert.equal(paid.status, 303);
    assert.equal(await statusOf(order.id, key), 'programado');
    t.clock.set('2026-11-22T00:30:00-03:00');
    assert.equal(await statusOf(order.id, key), 'recibido');
  });

  test('survives a restart: orders whose time came while the engine was down are released at start', async () => {
    const order = await schedule('2026-11-22T03:00:00-03:00');
    await t.server.close();
    t.clock.set('2026-11-22T02:40:00-03:00');
    await t.restart();
    assert.equal(await statusOf(order.id), 'recibido');
  });
});
