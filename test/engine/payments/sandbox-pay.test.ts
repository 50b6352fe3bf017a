import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { R1 } from '../../support/demo-ids.ts';
import { startTestEngine, type TestEngine } from '../jobs/engine-with-jobs.ts';

const RETURN_URL = 'https://tienda.example/vuelta?ref=abc';

interface PageResult {
  status: number;
  headers: Headers;
  html: string;
}

describe('sandbox payment simulator', () => {
  let t: TestEngine;
  let key: string;
  before(async () => {
    t = await startTestEngine();
    key = t.demo[0]!.keys.test_write;
  });
  after(() => t.stop());

  const createOnline = async (extra: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/orders', {
      key,
      body: {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Ana Pérez', email: 'ana@example.com' },
        items: [
          { product_id: R1.products.barrosLuco, quantity: 2 },
          { product_id: R1.products.completo, quantity: 1, modifier_option_ids: [R1.options.paltaExtra] },
        ],
        payment: 'online',
        return_url: RETURN_URL,
        ...extra,
      },
    });
    assert.equal(res.status, 201, res.text);
    return res.body as { id: string; payment_link: { payment_url: string; session_id: string }; total: number; number: string };
  };

  const page = async (url: string): Promise<PageResult> => {
    const res = await fetch(url, { redirect: 'manual' });
    return { status: res.status, headers: res.headers, html: await res.text() };
  };

  const submit = async (url: string, fields: Record<string, string>, contentType = 'application/x-www-form-urlencoded') => {
    const res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': contentType },
      body: contentType.includes('json') ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
    });
    return { status: res.status, location: res.headers.get('location'), html: await res.text(), headers: res.headers };
  };

  const eventsAfter = async (cursor: string) => (await t.call('GET', `/events?after=${cursor}`, { key: t.demo[0]!.keys.test_read })).body;

  test('the page: Spanish HTML, order summary, method preselected, no key needed, strict headers', async () => {
    const order = await createOnline({ payment_method: 'transferencia' });
    const res = await page(order.payment_link.payment_url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/html; charset=utf-8/);
    assert.match(res.html, /<html lang="es">/);
    assert.match(res.html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    assert.match(res.html, /MODO PRUEBA/);
    assert.match(res.html, new RegExp(`Pedido N° ${order.number}`));
    assert.match(res.html, /La Picada de Ñuñoa/);
    assert.match(res.html, /2 × Barros Luco/);
    assert.match(res.html, /<small>Palta extra<\/small>/);
    assert.match(res.html, /\$14\.980/);
    assert.match(res.html, new RegExp(`Pagar \\$${(order.total / 1000).toFixed(3)}`));
    assert.match(res.html, /value="transferencia" checked/);
    assert.doesNotMatch(res.html, /value="tarjeta" checked/);
    assert.match(res.html, /Tienes hasta las 20:30 para pagar \(30 minutos/);
    assert.doesNotMatch(res.html, /<script/i);
    const csp = res.headers.get('content-security-policy')!;
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /form-action 'self' https:\/\/tienda\.example/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
  });

  test('failure, then abandon, then success on the same link; double submit and replays change nothing', async () => {
    const order = await createOnline();
    const url = order.payment_link.payment_url;
    const feed = await t.call('GET', '/events', { key: t.demo[0]!.keys.test_read });

    const failed = await submit(url, { result: 'failed', method: 'tarjeta' });
    assert.equal(failed.status, 303);
    const failedUrl = new URL(failed.location!);
    assert.equal(failedUrl.origin + failedUrl.pathname, 'https://tienda.example/vuelta');
    assert.equal(failedUrl.searchParams.get('ref'), 'abc', 'the store query is kept');
    assert.equal(failedUrl.searchParams.get('order_id'), order.id);
    assert.equal(failedUrl.searchParams.get('payment'), 'failed');
    let read = await t.call('GET', `/orders/${order.id}`, { key });
    assert.equal(read.body.status, 'pendiente_pago');
    assert.deepEqual(read.body.payment, { method: null, paid: false, refunded: false, amount_refunded: 0 });
    const again = await page(url);
    assert.equal(again.status, 200, 'the link stays usable after a failure');
    assert.match(again.html, /El pago anterior fue rechazado/);

    const abandoned = await submit(url, { result: 'cancelled' });
    assert.equal(abandoned.status, 303);
    assert.equal(new URL(abandoned.location!).searchParams.get('payment'), 'cancelled');
    assert.match((await page(url)).html, /Abandonaste el pago anterior/);
    assert.deepEqual((await eventsAfter(feed.body.next_cursor)).data, [], 'failures and abandons change no order');

    t.clock.advance(60_000);
    const paid = await submit(url, { result: 'success', method: 'transferencia' });
    assert.equal(paid.status, 303);
    assert.equal(new URL(paid.location!).searchParams.get('payment'), 'success');
    read = await t.call('GET', `/orders/${order.id}`, { key });
    assert.equal(read.body.status, 'recibido');
    assert.deepEqual(read.body.payment, { method: 'transferencia', paid: true, refunded: false, amount_refunded: 0 });
    const events = (await eventsAfter(feed.body.next_cursor)).data;
    assert.deepEqual(
      events.map((e: { type: string; data: { id: string; status: string } }) => [e.type, e.data.id, e.data.status]),
      [['order.updated', order.id, 'recibido']],
    );
    assert.equal(events[0].data.payment.paid, true);

    // A double submit, a replayed failure: the same redirect to success and nothing else.
    t.clock.advance(60_000);
    const replays: Record<string, string>[] = [{ result: 'success', method: 'tarjeta' }, { result: 'failed' }, { result: 'cancelled' }];
    for (const fields of replays) {
      const replay = await submit(url, fields);
      assert.equal(replay.status, 303);
      assert.equal(new URL(replay.location!).searchParams.get('payment'), 'success');
    }
    const after = await t.call('GET', `/orders/${order.id}`, { key });
    assert.deepEqual(after.body, read.body, 'unchanged, updated_at included');
    assert.equal((await eventsAfter(feed.body.next_cursor)).data.length, 1);

    const done = await page(url);
    assert.equal(done.status, 200);
    assert.match(done.html, /Pago aprobado/);
    assert.doesNotMatch(done.html, /<form/);
  });

  test('a scheduled online order goes to programado when paid', async () => {
    const order = await createOnline({ scheduled_for: '2026-11-22T13:00:00-03:00' });
    const paid = await submit(order.payment_link.payment_url, { result: 'success', method: 'tarjeta' });
    assert.equal(paid.status, 303);
    const read = await t.call('GET', `/orders/${order.id}`, { key });
    assert.equal(read.body.status, 'programado');
    assert.deepEqual(read.body.payment, { method: 'tarjeta', paid: true, refunded: false, amount_refunded: 0 });
  });

  test('an order cancelled by the restaurant: the page says so and a payment never revives it', async () => {
    const order = await createOnline();
    const cancelled = await t.call('PATCH', `/orders/${order.id}`, { key, body: { status: 'cancelado' } });
    assert.equal(cancelled.status, 200);
    const shown = await page(order.payment_link.payment_url);
    assert.equal(shown.status, 410);
    assert.match(shown.html, /El restaurante anuló este pedido/);
    assert.match(shown.html, /No se hizo ningún cobro/);
    assert.doesNotMatch(shown.html, /<form/);
    const late = await submit(order.payment_link.payment_url, { result: 'success', method: 'tarjeta' });
    assert.equal(late.status, 410);
    assert.match(late.html, /Este pedido fue anulado/);
    const read = await t.call('GET', `/orders/${order.id}`, { key });
    assert.equal(read.body.status, 'cancelado');
    assert.deepEqual(read.body.payment, { method: null, paid: false, refunded: false, amount_refunded: 0 });
  });

  test('only its own sessions: anything else is the same 404 page', async () => {
    const order = await createOnline();
    const base = order.payment_link.payment_url.replace(/[^/]+$/, '');
    await t.server.engine.stores.paymentSessions.insert({
      id: `ps_test_${'ab'.repeat(16)}`,
      order_id: order.id,
      provider: 'other-provider',
      return_url: RETURN_URL,
      preselected_method: null,
      created_at: t.clock.now(),
    });
    for (const id of ['ps_test_' + '0'.repeat(32), 'ps_live_' + '0'.repeat(32), 'nope', `${order.payment_link.session_id}x`, `ps_test_${'ab'.repeat(16)}`, '%3Cscript%3E']) {
      const shown = await page(`${base}${id}`);
      assert.equal(shown.status, 404, id);
      assert.match(shown.html, /No encontramos esta página de pago/);
      assert.doesNotMatch(shown.html, /<script>/);
      const posted = await submit(`${base}${id}`, { result: 'success', method: 'tarjeta' });
      assert.equal(posted.status, 404, id);
    }
    const read = await t.call('GET', `/orders/${order.id}`, { key });
    assert.equal(read.body.status, 'pendiente_pago');
  });

  test('bad input gets a clear page and changes nothing', async () => {
    const order = await createOnline();
    const url = order.payment_link.payment_url;
    const cases: [Record<string, string>, string | undefined, RegExp][] = [
      [{}, undefined, /Elige qué simular/],
      [{ result: 'maybe' }, undefined, /Elige qué simular/],
      [{ result: 'success' }, undefined, /Elige un medio de pago/],
      [{ result: 'success', method: 'bitcoin' }, undefined, /Elige un medio de pago/],
      [{ result: 'success', method: 'apple_pay' }, undefined, /Elige un medio de pago/],
      [{ result: 'success', method: 'tarjeta' }, 'application/json', /Elige qué simular/],
      [{ result: 'success', method: 'tarjeta' }, 'text/plain', /Elige qué simular/],
    ];
    for (const [fields, contentType, message] of cases) {
      const res = await submit(url, fields, contentType);
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.match(res.headers.get('content-type')!, /^text\/html/);
      assert.match(res.html, message);
    }
    const huge = await submit(url, { result: 'success', method: 'tarjeta', padding: 'x'.repeat(10_000) });
    assert.equal(huge.status, 400);
    assert.match(huge.html, /Solicitud no válida/);
    const read = await t.call('GET', `/orders/${order.id}`, { key });
    assert.equal(read.body.status, 'pendiente_pago');
  });

  test('everything shown is escaped', async () => {
    t.server.engine.db
      .prepare('UPDATE products SET name = ? WHERE id = ?')
      .run('<script>alert("x")</script> & "Co"', R1.products.bebidaLata);
    t.server.engine.db.prepare('UPDATE restaurants SET name = ? WHERE id = ?').run(`La Picada <b>'de'</b>`, R1.id);
    try {
      const res = await t.call('POST', '/orders', {
        key,
        body: {
          location_id: R1.openLocation,
          type: 'retiro',
          customer: { name: 'Eve' },
          items: [{ product_id: R1.products.bebidaLata, quantity: 1 }],
          payment: 'online',
          return_url: 'https://tienda.example/vuelta?x="><script>',
        },
      });
      assert.equal(res.status, 201, res.text);
      const shown = await page(res.body.payment_link.payment_url);
      assert.doesNotMatch(shown.html, /<script>/);
      assert.doesNotMatch(shown.html, /<b>/);
      assert.match(shown.html, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; &quot;Co&quot;/);
      assert.match(shown.html, /La Picada &lt;b&gt;&#39;de&#39;&lt;\/b&gt;/);
      await t.call('PATCH', `/orders/${res.body.id}`, { key, body: { status: 'cancelado' } });
      const closed = await page(res.body.payment_link.payment_url);
      assert.doesNotMatch(closed.html, /<script>/);
      assert.match(closed.html, /href="https:\/\/tienda\.example\/vuelta\?x=%22%3E%3Cscript%3E&amp;order_id=/);
    } finally {
      t.server.engine.db.prepare('UPDATE products SET name = ? WHERE id = ?').run('Bebida en lata 350 ml', R1.products.bebidaLata);
      t.server.engine.db.prepare('UPDATE restaurants SET name = ? WHERE id = ?').run('La Picada de Ñuñoa', R1.id);
    }
  });
});
