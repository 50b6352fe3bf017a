// Stock and locations screens in headless Chromium: what the cook changes here is what the HTTP
// API answers afterwards; the sandbox world answers "simulated" and changes nothing.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { R1 } from '../support/demo-ids.ts';
import { placeOrder, startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';
import { eventually } from '../support/eventually.ts';

describe('stock and locations screens (Chromium, real engine)', () => {
  let k: KitchenUnderTest;
  let keys: KitchenUnderTest['engine']['demo'][number]['keys'];

  before(async () => {
    k = await startKitchenUnderTest();
    keys = k.engine.demo[0]!.keys;
  });
  after(async () => {
    await k?.stop();
  });

  const stockOverHttp = async (productId: string, locationId = R1.openLocation) =>
    ((await k.engine.call('GET', `/stock?location_id=${locationId}`, { key: keys.live_read })).body.data as { product_id: string; quantity: number }[]).find(
      (e) => e.product_id === productId,
    )?.quantity;
  const row = (productId: string) => k.page.locator(`tr[data-product-id="${productId}"]`);

  test('stock: +/−, a typed quantity and sold out, saved as absolute quantities and visible over HTTP', async () => {
    await k.open('stock');
    await row(R1.products.empanadaQueso).waitFor();
    assert.equal(await row(R1.products.empanadaQueso).locator('[data-testid="quantity"]').inputValue(), '30');
    await row(R1.products.empanadaQueso).locator('[data-testid="plus"]').click();
    await row(R1.products.empanadaQueso).locator('[data-testid="plus"]').click();
    await row(R1.products.empanadaQueso).locator('[data-testid="minus"]').click();
    await row(R1.products.pastelDeChoclo).locator('[data-testid="quantity"]').fill('15');
    await row(R1.products.empanadaPino).locator('[data-testid="quantity"]').fill('6');
    await row(R1.products.empanadaPino).locator('[data-testid="sold-out"]').click();
    assert.match(await k.page.locator('[data-testid="stock-save"]').innerText(), /\(2\)/);
    await k.screenshot('stock-editing');
    await k.page.locator('[data-testid="stock-save"]').click();
    await k.page.locator('[data-testid="stock-result"][data-simulated="false"]').waitFor();
    assert.equal(await stockOverHttp(R1.products.empanadaQueso), 31);
    assert.equal(await stockOverHttp(R1.products.pastelDeChoclo), 15);
    assert.equal(await stockOverHttp(R1.products.empanadaPino), 0);
    assert.match(await row(R1.products.empanadaPino).innerText(), /Agotado/);
    // The sold-out list below says the same of a tracked dish with none left: it cannot be ordered.
    const listed = k.page.locator(`tr[data-sold-out-product="${R1.products.empanadaPino}"] [data-testid="sold-out-state"]`);
    await eventually(async () => /Sin stock/.test(await listed.innerText()), 'the sold-out list says the dish has no stock');
  });

  test('stock changed elsewhere (an order takes some) shows up on the open screen', async () => {
    await placeOrder(k.engine, { items: [{ product_id: R1.products.pastelDeChoclo, quantity: 4 }] });
    await eventually(async () => (await row(R1.products.pastelDeChoclo).locator('[data-testid="quantity"]').inputValue()) === '11', 'stock after the order');
  });

  test('stock in the sandbox world is simulated: the screen says so and nothing real changes', async () => {
    await k.page.locator('[data-testid="world-toggle"] [data-world="test"]').click();
    await row(R1.products.empanadaQueso).locator('[data-testid="quantity"]').fill('2');
    await k.page.locator('[data-testid="stock-save"]').click();
    const result = k.page.locator('[data-testid="stock-result"][data-simulated="true"]');
    await result.waitFor();
    assert.match(await result.innerText(), /SIMULADO/);
    assert.equal(await stockOverHttp(R1.products.empanadaQueso), 31);
    await k.screenshot('stock');
    await k.page.locator('[data-testid="world-toggle"] [data-world="live"]').click();
  });

  test('agotado: every dish is listed with its switch; switching an untracked one off refuses it over HTTP, switching it back offers it again', async () => {
    const soldOutRow = (productId: string) => k.page.locator(`tr[data-sold-out-product="${productId}"]`);
    const availableOverHttp = async (productId: string) =>
      ((await k.engine.call('GET', `/menu?location_id=${R1.openLocation}`, { key: keys.live_read })).body.categories as { products: { id: string; available: boolean }[] }[])
        .flatMap((c) => c.products)
        .find((p) => p.id === productId)!.available;
    await soldOutRow(R1.products.cazuela).waitFor();
    assert.match(await soldOutRow(R1.products.cazuela).innerText(), /Disponible/);
    await soldOutRow(R1.products.cazuela).locator('[data-testid="sold-out-toggle"]').click();
    await eventually(async () => /Agotado hasta las 04:00/.test(await soldOutRow(R1.products.cazuela).innerText()), 'marked on screen');
    assert.equal(await availableOverHttp(R1.products.cazuela), false);
    const refused = await k.engine.call('POST', '/orders', {
      key: keys.live_write,
      body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'x' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
    });
    assert.equal(refused.body.error.code, 'insufficient_stock');
    await soldOutRow(R1.products.completo).locator(`[data-sold-out-option="${R1.options.paltaExtra}"]`).click();
    await eventually(async () => (await soldOutRow(R1.products.completo).locator(`[data-sold-out-option="${R1.options.paltaExtra}"]`).getAttribute('aria-pressed')) === 'true', 'option marked');
    await soldOutRow(R1.products.cazuela).scrollIntoViewIfNeeded();
    await k.screenshot('stock-sold-out');
    await soldOutRow(R1.products.cazuela).locator('[data-testid="sold-out-toggle"]').click();
    await eventually(async () => !/Agotado/.test(await soldOutRow(R1.products.cazuela).innerText()), 'offered again on screen');
    assert.equal(await availableOverHttp(R1.products.cazuela), true);
    await soldOutRow(R1.products.completo).locator(`[data-sold-out-option="${R1.options.paltaExtra}"]`).click();
    await eventually(async () => (await soldOutRow(R1.products.completo).locator(`[data-sold-out-option="${R1.options.paltaExtra}"]`).getAttribute('aria-pressed')) === 'false', 'option back');
  });

  test('stock of another location', async () => {
    await k.page.locator('[data-testid="stock-location"]').selectOption(R1.closedLocation);
    await eventually(async () => (await row(R1.products.empanadaPino).locator('[data-testid="quantity"]').inputValue()) === '24', 'closed location stock');
  });

  test('locations: live status with reason; close and open now, visible over HTTP', async () => {
    await k.open('locations');
    const card = (id: string) => k.page.locator(`[data-location-id="${id}"]`);
    await card(R1.openLocation).waitFor();
    assert.equal(await card(R1.openLocation).getAttribute('data-open'), 'true');
    assert.match(await card(R1.openLocation).innerText(), /Caja abierta/);
    assert.match(await card(R1.inactiveLocation).innerText(), /Sucursal desactivada/);
    assert.equal(await card(R1.inactiveLocation).locator('[data-testid="location-close"]').count(), 0);

    // Closing asks first; going back leaves it open.
    await card(R1.openLocation).locator('[data-testid="location-close"]').click();
    assert.match(await k.page.locator('[role="dialog"]').innerText(), /¿Cerrar /);
    await k.page.locator('[data-testid="confirm-back"]').click();
    assert.equal(await card(R1.openLocation).getAttribute('data-open'), 'true');
    await card(R1.openLocation).locator('[data-testid="location-close"]').click();
    await k.page.locator('[data-testid="confirm-yes"]').click();
    await eventually(async () => (await card(R1.openLocation).getAttribute('data-open')) === 'false', 'closed on screen');
    assert.match(await card(R1.openLocation).innerText(), /Caja cerrada/);
    const http = await k.engine.call('GET', '/locations', { key: keys.live_read });
    const status = http.body.data.find((l: any) => l.location_id === R1.openLocation);
    assert.equal(status.open_now, false);
    assert.equal(status.reason, 'caja_cerrada');
    // A closed location refuses production orders over the API now.
    const refused = await k.engine.call('POST', '/orders', {
      key: keys.live_write,
      body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'x' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
    });
    assert.equal(refused.body.error.code, 'location_closed');

    await card(R1.closedLocation).locator('[data-testid="location-open"]').click();
    await eventually(async () => (await card(R1.closedLocation).getAttribute('data-open')) === 'true', 'opened on screen');
    assert.equal((await k.engine.call('GET', '/locations', { key: keys.live_read })).body.data.find((l: any) => l.location_id === R1.closedLocation).open_now, true);
    await k.screenshot('locations');
  });

  test('a location changed over the API updates the open screen live', async () => {
    const card = k.page.locator(`[data-location-id="${R1.openLocation}"]`);
    assert.equal(await card.getAttribute('data-open'), 'false', 'closed on screen by the test above, so the change below can show');
    await k.engine.call('POST', `/locations/${R1.openLocation}/open`, { key: keys.live_write });
    await eventually(async () => (await card.getAttribute('data-open')) === 'true', 'reopened live');
  });

  test('locations in the sandbox world are simulated', async () => {
    const card = k.page.locator(`[data-location-id="${R1.openLocation}"]`);
    await k.page.locator('[data-testid="world-toggle"] [data-world="test"]').click();
    await card.locator('[data-testid="location-close"]').click();
    await k.page.locator('[data-testid="confirm-yes"]').click();
    await card.locator('[data-testid="location-simulated"]').waitFor();
    assert.equal(await card.getAttribute('data-open'), 'false');
    assert.equal((await k.engine.call('GET', '/locations', { key: keys.live_read })).body.data.find((l: any) => l.location_id === R1.openLocation).open_now, true);
  });
});
