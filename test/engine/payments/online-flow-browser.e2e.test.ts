// The specification's typical online sale (section 1), end to end in sandbox, with the customer's
// side played by a real headless Chromium on a phone-sized screen with JavaScript off.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { R1 } from '../../support/demo-ids.ts';
import { startTestEngine, type TestEngine } from '../jobs/engine-with-jobs.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test-artifacts');
const RETURN_URL = 'https://tienda.example/pedido/vuelta';

describe('online sale in sandbox through the simulator page, in Chromium', { skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}` }, () => {
  let t: TestEngine;
  let context: BrowserContext;
  let profile: string;
  /** Every visit to the store's return_url, as the browser made it. */
  const returns: URL[] = [];

  before(async () => {
    t = await startTestEngine();
    profile = mkdtempSync(join(tmpdir(), 'comanda-chromium-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'es-CL',
      // The simulator works as a plain HTML form.
      javaScriptEnabled: false,
    });
    // The store's site: record the redirect and answer a small page, no network needed.
    await context.route('https://tienda.example/**', (route) => {
      returns.push(new URL(route.request().url()));
      return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Tienda</title><p>Gracias</p>' });
    });
  });
  after(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await t?.stop();
  });

  test('menu → quote → online order → failed payment → paid on the same link → back at the store → recibido and paid', async () => {
    const key = t.demo[0]!.keys.test_write;
    // 1. The menu.
    const menu = await t.call('GET', `/menu?location_id=${R1.closedLocation}`, { key });
    assert.equal(menu.status, 200);
    const products = menu.body.categories.flatMap((c: { products: { id: string; name: string }[] }) => c.products);
    const pastel = products.find((p: { id: string }) => p.id === R1.products.pastelDeChoclo);
    assert.ok(pastel, 'the menu lists the product');

    // 2. Delivery quote (the location prefers the simulated courier).
    const quote = await t.call('POST', '/delivery/quote', {
      key,
      body: { location_id: R1.closedLocation, dropoff: { address: 'Av. Ossa 1200, La Reina', latitude: -33.446, longitude: -70.565 }, subtotal: 19980 },
    });
    assert.equal(quote.status, 200, quote.text);
    assert.equal(quote.body.available, true);
    assert.equal(quote.body.provider, 'simulado');

    // 3. The online order.
    const created = await t.call('POST', '/orders', {
      key,
      body: {
        location_id: R1.closedLocation,
        type: 'delivery',
        address: 'Av. Ossa 1200, La Reina',
        customer: { name: 'Valentina Rojas', phone: '+56 9 8765 4321', email: 'valentina@example.com' },
        items: [{ product_id: pastel.id, quantity: 2, notes: 'Bien caliente' }],
        shipping_fee: quote.body.fee,
        payment: 'online',
        payment_method: 'tarjeta',
        return_url: RETURN_URL,
      },
    });
    assert.equal(created.status, 201, created.text);
    const order = created.body;
    assert.equal(order.status, 'pendiente_pago');
    assert.equal(order.total, 19980 + quote.body.fee);

    // 4. The customer opens the payment page on the phone.
    const page = await context.newPage();
    const opened = await page.goto(order.payment_link.payment_url);
    assert.equal(opened?.status(), 200);
    assert.equal(await page.locator('h1').textContent(), `Pedido N° ${order.number}`);
    assert.equal(await page.getByLabel('Tarjeta de crédito o débito').isChecked(), true, 'the method chosen at checkout is preselected');
    assert.match((await page.locator('body').textContent())!, /MODO PRUEBA/);
    const png = await page.screenshot({ path: join(ARTIFACTS, 'sandbox-pay-page.png'), fullPage: true });
    // A full-page capture is as wide as the content: nothing runs off the edge of a phone screen.
    assert.equal(png.readUInt32BE(16), 390 * 2, 'no horizontal scrolling at 390 px');

    // The payment fails first: back at the store with payment=failed, the order still waiting.
    await page.getByRole('button', { name: 'Simular pago rechazado' }).click();
    await page.waitForURL(/^https:\/\/tienda\.example\//);
    assert.equal(returns.length, 1);
    assert.equal(returns[0]!.origin + returns[0]!.pathname, RETURN_URL);
    assert.equal(returns[0]!.searchParams.get('order_id'), order.id);
    assert.equal(returns[0]!.searchParams.get('payment'), 'failed');
    assert.equal((await t.call('GET', `/orders/${order.id}`, { key })).body.status, 'pendiente_pago');

    // 5. The store sends the customer back to the same link, who pays by transfer.
    await page.goto(order.payment_link.payment_url);
    assert.match((await page.locator('[role=status]').textContent())!, /El pago anterior fue rechazado/);
    await page.screenshot({ path: join(ARTIFACTS, 'sandbox-pay-page-after-failure.png'), fullPage: true });
    await page.getByLabel('Transferencia bancaria').check();
    await page.getByRole('button', { name: /^Pagar \$/ }).click();
    await page.waitForURL((url) => url.searchParams.get('payment') === 'success');
    assert.equal(returns.length, 2);
    assert.equal(returns[1]!.searchParams.get('order_id'), order.id);
    assert.equal(returns[1]!.searchParams.get('payment'), 'success');

    // 6. The store confirms with GET /orders/{order_id}.
    const confirmed = await t.call('GET', `/orders/${order.id}`, { key });
    assert.equal(confirmed.body.status, 'recibido');
    assert.deepEqual(confirmed.body.payment, { method: 'transferencia', paid: true, refunded: false, amount_refunded: 0 });

    // The browser's back button and a second submit change nothing.
    await page.goto(order.payment_link.payment_url);
    assert.equal(await page.locator('h1').textContent(), 'Pago aprobado');
    await page.screenshot({ path: join(ARTIFACTS, 'sandbox-pay-page-paid.png'), fullPage: true });
    assert.deepEqual((await t.call('GET', `/orders/${order.id}`, { key })).body, confirmed.body);
    await page.close();
  });

  test('an expired order: the page says so, offers no form, and the order stays cancelled', async () => {
    const key = t.demo[0]!.keys.test_write;
    const created = await t.call('POST', '/orders', {
      key,
      body: {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Tomás' },
        items: [{ product_id: R1.products.completo, quantity: 1 }],
        payment: 'online',
        return_url: RETURN_URL,
      },
    });
    assert.equal(created.status, 201, created.text);
    t.clock.advance(30 * 60_000);
    const page = await context.newPage();
    const opened = await page.goto(created.body.payment_link.payment_url);
    assert.equal(opened?.status(), 410);
    assert.equal(await page.locator('h1').textContent(), 'Este pedido fue anulado');
    assert.match((await page.locator('[role=status]').textContent())!, /no se pagó dentro de 30 minutos/);
    assert.equal(await page.locator('form').count(), 0);
    await page.screenshot({ path: join(ARTIFACTS, 'sandbox-pay-page-expired.png'), fullPage: true });
    await page.getByRole('link', { name: 'Volver a la tienda' }).click();
    await page.waitForURL((url) => url.searchParams.get('payment') === 'cancelled');
    assert.equal((await t.call('GET', `/orders/${created.body.id}`, { key })).body.status, 'cancelado');
    await page.close();
  });
});
