// Ajustes → Pagos en línea in headless Chromium: the Mercado Pago credentials entered, never shown
// back (only "configurado" and the last 4), Probar conexión against a local Mercado Pago stand-in,
// Quitar; refused with a clear message where the machine has no protected storage.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MercadoPagoStandIn } from '../support/mercadopago-stand-in.ts';
import { R1 } from '../support/demo-ids.ts';
import { startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';
import { eventually } from '../support/eventually.ts';
import { mercadoPagoEntry } from '../../src/engine/payments/mercadopago/mercadopago-entry.ts';
import { paymentProviderRegistry } from '../../src/engine/payments/payment-provider-registry.ts';

const ACCESS_TOKEN = 'APP_USR-7373737373737373-112620-a1b2c3d4e5f60718293a4b5c6d7e8f90-424242';
const WEBHOOK_SECRET = 'whsec-view-5d4c3b2a19080706';

describe('Ajustes → Pagos en línea (Chromium, real engine, Mercado Pago stand-in)', () => {
  let k: KitchenUnderTest;
  let mp: MercadoPagoStandIn;

  before(async () => {
    mp = await MercadoPagoStandIn.start(ACCESS_TOKEN);
    k = await startKitchenUnderTest();
  });
  after(async () => {
    await k?.stop();
    await mp?.close();
  });

  test('entered, shown only as configured with the last 4, connection tested, removed', async () => {
    await k.open('settings');
    const info = k.page.locator('[data-testid="online-payments-info"]');
    await eventually(async () => (await info.getAttribute('data-configured')) === 'false', 'not configured yet');
    assert.match(await info.innerText(), /Sin cuenta de pagos/);
    const select = k.page.locator('[data-testid="online-payments-provider"]');
    assert.deepEqual(await select.locator('option').allInnerTexts(), ['Mercado Pago'], 'the registry\'s one provider');
    assert.equal(await select.isDisabled(), true, 'nothing to choose between');

    await k.page.locator('[data-testid="mp-access-token"]').fill(ACCESS_TOKEN);
    await k.page.locator('[data-testid="mp-webhook-secret"]').fill(WEBHOOK_SECRET);
    await k.page.locator('[data-testid="mp-api-base"]').fill(mp.baseUrl);
    await k.page.locator('[data-testid="save-online-payments"]').click();
    await eventually(async () => (await info.getAttribute('data-configured')) === 'true', 'configured');
    assert.match(await info.innerText(), /Mercado Pago configurado · clave …4242 · secreto …0706/);
    assert.deepEqual(k.onlinePayments.read(R1.id), { provider: 'mercadopago', credentials: { accessToken: ACCESS_TOKEN, webhookSecret: WEBHOOK_SECRET, apiBase: mp.baseUrl } });
    assert.equal(await k.page.locator('[data-testid="mp-access-token"]').inputValue(), '', 'the field is emptied');

    await k.page.locator('[data-testid="test-online-payments"]').click();
    const check = k.page.locator('[data-testid="online-payments-check"]');
    await check.waitFor();
    assert.equal(await check.getAttribute('data-result'), 'ok');
    assert.match(await check.innerText(), /Conexión correcta: cuenta 424242/);
    await k.screenshot('settings-online-payments');
    // Reloaded, the page holds neither secret anywhere.
    await k.open('settings');
    await eventually(async () => (await info.getAttribute('data-configured')) === 'true', 'still configured');
    const html = await k.page.content();
    assert.equal(html.includes(ACCESS_TOKEN.slice(0, -4)), false);
    assert.equal(html.includes(WEBHOOK_SECRET.slice(0, -4)), false);

    await k.page.locator('[data-testid="remove-online-payments"]').click();
    await eventually(async () => (await info.getAttribute('data-configured')) === 'false', 'removed');
    assert.equal(k.onlinePayments.read(R1.id), null);
  });
});

describe('Ajustes → Pagos en línea without protected storage (Chromium)', () => {
  let k: KitchenUnderTest;
  before(async () => {
    k = await startKitchenUnderTest({ secureStorage: false });
  });
  after(async () => {
    await k?.stop();
  });

  test('the credentials are refused with a clear message and kept nowhere', async () => {
    await k.open('settings');
    await k.page.locator('[data-testid="mp-access-token"]').fill(ACCESS_TOKEN);
    await k.page.locator('[data-testid="mp-webhook-secret"]').fill(WEBHOOK_SECRET);
    await k.page.locator('[data-testid="save-online-payments"]').click();
    const error = k.page.locator('[data-testid="online-payments-error"]');
    await error.waitFor();
    assert.match(await error.innerText(), /almacenamiento protegido/);
    assert.equal(k.onlinePayments.kept.size, 0);
  });
});

describe('Ajustes → Pagos en línea lists what the registry offers (Chromium)', () => {
  let k: KitchenUnderTest;
  before(async () => {
    const pagoPlus = {
      name: 'pagoplus',
      label: 'PagoPlus',
      defaultApiBase: 'https://api.pagoplus.example',
      create: () => ({ name: 'pagoplus', openSession: async () => ({ payment_url: 'https://pagoplus.example/pay' }) }),
      checkConnection: async () => ({ ok: true as const, user_id: 'pp-7' }),
      verifyWebhook: () => ({ kind: 'ignored' as const }),
    };
    k = await startKitchenUnderTest({ paymentProviders: paymentProviderRegistry(mercadoPagoEntry, pagoPlus) });
  });
  after(async () => {
    await k?.stop();
  });

  test('a second provider in the registry is offered, chosen, kept under its name and named on screen', async () => {
    await k.open('settings');
    const select = k.page.locator('[data-testid="online-payments-provider"]');
    await eventually(async () => (await select.locator('option').count()) === 2, 'both providers listed');
    assert.deepEqual(await select.locator('option').allInnerTexts(), ['Mercado Pago', 'PagoPlus']);
    await select.selectOption('pagoplus');
    assert.equal(await k.page.locator('[data-testid="mp-api-base"]').getAttribute('placeholder'), 'https://api.pagoplus.example');
    assert.match(await k.page.locator('[data-testid="online-payments"]').innerText(), /Clave de acceso de PagoPlus/);
    await k.page.locator('[data-testid="mp-access-token"]').fill(ACCESS_TOKEN);
    await k.page.locator('[data-testid="mp-webhook-secret"]').fill(WEBHOOK_SECRET);
    await k.page.locator('[data-testid="save-online-payments"]').click();
    const info = k.page.locator('[data-testid="online-payments-info"]');
    await eventually(async () => (await info.getAttribute('data-configured')) === 'true', 'configured');
    assert.match(await info.innerText(), /PagoPlus configurado · clave …4242 · secreto …0706 · https:\/\/api\.pagoplus\.example/);
    assert.equal(k.onlinePayments.read(R1.id)?.provider, 'pagoplus');
    assert.equal(await select.inputValue(), 'pagoplus', 'the kept account\'s provider is the one shown');
    await k.page.locator('[data-testid="test-online-payments"]').click();
    const check = k.page.locator('[data-testid="online-payments-check"]');
    await check.waitFor();
    assert.match(await check.innerText(), /Conexión correcta: cuenta pp-7/);
  });
});
