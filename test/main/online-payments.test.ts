// Ajustes → Pagos en línea: the restaurant's Mercado Pago credentials set from the desktop app, kept
// like the SMTP password, read by the running engine at once (orders and webhooks), checked with
// Probar conexión against a local Mercado Pago stand-in, removed; never shown back nor logged.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { createScreenHandlers } from '../../src/main/channel-handlers.ts';
import { appPaymentCredentials } from '../../src/main/app-handlers.ts';
import { callScreenHandler } from '../../src/engine/screen/dispatch.ts';
import type { ScreenHandlers } from '../../src/engine/screen/dispatch.ts';
import { STANDALONE_STATUS } from '../../src/engine/screen/live-hub.ts';
import { memoryMail, memoryOnlinePayments, memoryPlatformKey, memorySettings } from './support/memory-ports.ts';
import { MercadoPagoStandIn } from '../support/mercadopago-stand-in.ts';
import { R1 } from '../support/demo-ids.ts';
import { mercadoPagoEntry } from '../../src/engine/payments/mercadopago/mercadopago-entry.ts';
import { paymentProviderRegistry, type PaymentProviderEntry } from '../../src/engine/payments/payment-provider-registry.ts';
import { startTestEngine, type TestEngine } from '../engine/jobs/engine-with-jobs.ts';

const ACCESS_TOKEN = 'APP_USR-5151515151515151-112620-0a0b0c0d0e0f10111213141516171819-424242';
const WEBHOOK_SECRET = 'whsec-desktop-9e8d7c6b5a4f3e2d1c0b';

let t: TestEngine;
let mp: MercadoPagoStandIn;
const logLines: string[] = [];
const handlerErrors: unknown[] = [];
const onlinePayments = memoryOnlinePayments();
let handlers: ScreenHandlers;

before(async () => {
  mp = await MercadoPagoStandIn.start(ACCESS_TOKEN);
  const logger = pino(
    { level: 'trace' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    }),
  ) as unknown as FastifyBaseLogger;
  t = await startTestEngine({
    paymentTimeoutMs: 5000,
    logger,
    paymentCredentials: appPaymentCredentials({
      settings: memorySettings(),
      platformKey: { ...memoryPlatformKey(), readSecret: () => null },
      mail: { ...memoryMail(), readSecret: () => null },
      onlinePayments,
    }),
  });
  handlers = createScreenHandlers({
    engine: t.server.engine,
    commands: t.server.commands,
    printers: t.server.providers.printers,
    restaurantId: R1.id,
    settings: memorySettings(),
    platformKey: memoryPlatformKey(),
    mail: memoryMail(),
    onlinePayments,
    log: (error) => handlerErrors.push(error),
    host: {
      appInfo: () => {
        throw new Error('unused');
      },
      connectionStatus: () => STANDALONE_STATUS,
      syncStatus: async () => null,
      backupFolder: () => null,
    },
  });
});
after(async () => {
  await t.stop();
  await mp.close();
});

const placeOnlineOrder = () =>
  t.call('POST', '/orders', {
    body: {
      location_id: R1.openLocation,
      type: 'retiro',
      customer: { name: 'Ana Pérez', email: 'ana@example.com' },
      items: [{ product_id: R1.products.barrosLuco, quantity: 1 }],
      payment: 'online',
      return_url: 'https://tienda.example/vuelta',
    },
  });

const notify = (secret: string) =>
  mp.notify(`${t.server.origin}/v1/payments/notifications/mercadopago/${R1.id}`, 1_000_000_999, secret, {
    tsSeconds: Math.floor(t.clock.now() / 1000),
  });

async function ok<T>(answer: Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>): Promise<T> {
  const settled = await answer;
  assert.equal(settled.ok, true, settled.ok ? '' : `${settled.error.code}: ${settled.error.message}`);
  return (settled as { ok: true; value: T }).value;
}

test('set from the app → Probar conexión ok → a live online order gets its preference → Quitar → payment_unavailable; secrets never shown nor logged', async () => {
  const before = await ok(callScreenHandler(handlers, 'payments:get', {}));
  const offered = [{ name: 'mercadopago', label: 'Mercado Pago', default_api_base: 'https://api.mercadopago.com' }];
  assert.deepEqual(before, { provider: 'mercadopago', providers: offered, configured: false, api_base: null, access_token_last4: null, webhook_secret_last4: null });
  const untested = await ok(callScreenHandler(handlers, 'payments:test', {}));
  assert.equal(untested.result, 'not_configured');
  assert.equal((await placeOnlineOrder()).body.error?.code, 'payment_unavailable', 'no credentials: no live online payment');

  const badBase = await callScreenHandler(handlers, 'payments:set', { provider: 'mercadopago', access_token: ACCESS_TOKEN, webhook_secret: WEBHOOK_SECRET, api_base: 'ftp://x' });
  assert.equal(badBase.ok, false);
  if (!badBase.ok) assert.equal(badBase.error.code, 'invalid_request');
  assert.equal(onlinePayments.kept.size, 0, 'a refused change keeps nothing');

  const set = await ok(
    callScreenHandler(handlers, 'payments:set', { provider: 'mercadopago', access_token: ` ${ACCESS_TOKEN} `, webhook_secret: WEBHOOK_SECRET, api_base: mp.baseUrl }),
  );
  assert.deepEqual(set, { provider: 'mercadopago', providers: offered, configured: true, api_base: mp.baseUrl, access_token_last4: '4242', webhook_secret_last4: '1c0b' });
  assert.deepEqual(onlinePayments.read(R1.id), { provider: 'mercadopago', credentials: { accessToken: ACCESS_TOKEN, webhookSecret: WEBHOOK_SECRET, apiBase: mp.baseUrl } }, 'trimmed and kept, under its provider');
  assert.equal(await t.server.engine.stores.paymentCredentials.get(R1.id, 'mercadopago'), undefined, 'the database file never holds them');

  const checked = await ok(callScreenHandler(handlers, 'payments:test', {}));
  assert.deepEqual(checked, { result: 'ok', user_id: '424242', message: null });
  assert.ok(mp.requests.includes('GET /users/me'));

  // The running engine sees the change at once: no restart.
  const placed = await placeOnlineOrder();
  assert.equal(placed.status, 201, placed.text);
  assert.equal(mp.preferences.size, 1);
  const [preference] = [...mp.preferences.values()];
  assert.equal(preference!.body.external_reference, placed.body.id);
  assert.equal(placed.body.payment_link.payment_url, `https://www.mercadopago.cl/checkout/v1/redirect?pref_id=${preference!.id}`);
  // Its webhooks are checked with the secret kept by the app.
  assert.equal((await notify('whsec-not-the-restaurants-secret')).status, 401);
  assert.equal((await notify(WEBHOOK_SECRET)).status, 200);

  const removed = await ok(callScreenHandler(handlers, 'payments:remove', {}));
  assert.equal(removed.configured, false);
  const refused = await placeOnlineOrder();
  assert.equal(refused.status, 503);
  assert.equal(refused.body.error.code, 'payment_unavailable');
  assert.equal(mp.preferences.size, 1, 'no preference once removed');
  // Nor a webhook, even signed with the old secret: refused as a forged one (issue 29: the answer never tells an account from none).
  assert.equal((await notify(WEBHOOK_SECRET)).status, 401, 'nor a webhook');

  const seen = JSON.stringify([before, set, checked, removed]) + logLines.join('') + handlerErrors.map(String).join('');
  assert.ok(logLines.length > 0, 'the engine logged its requests');
  for (const secret of [ACCESS_TOKEN, WEBHOOK_SECRET, ACCESS_TOKEN.slice(8, -4)]) assert.equal(seen.includes(secret), false);
});

test('Probar conexión tells a refused token from an API that cannot be reached, without the token', async () => {
  await ok(callScreenHandler(handlers, 'payments:set', { provider: 'mercadopago', access_token: 'APP_USR-not-this-accounts-token-0000', webhook_secret: WEBHOOK_SECRET, api_base: mp.baseUrl }));
  const rejected = await ok(callScreenHandler(handlers, 'payments:test', {}));
  assert.equal(rejected.result, 'rejected');
  assert.match(rejected.message ?? '', /401/);
  assert.doesNotMatch(rejected.message ?? '', /not-this-accounts/);

  const closed = await MercadoPagoStandIn.start(ACCESS_TOKEN);
  const gone = closed.baseUrl;
  await closed.close();
  await ok(callScreenHandler(handlers, 'payments:set', { provider: 'mercadopago', access_token: ACCESS_TOKEN, webhook_secret: WEBHOOK_SECRET, api_base: gone }));
  const unreachable = await ok(callScreenHandler(handlers, 'payments:test', {}));
  assert.equal(unreachable.result, 'unreachable');
  await ok(callScreenHandler(handlers, 'payments:remove', {}));
});

test('without protected storage the credentials are refused, never kept in clear', async () => {
  const refusing = memoryOnlinePayments({ available: false });
  const noStorage = createScreenHandlers({
    engine: t.server.engine,
    commands: t.server.commands,
    printers: t.server.providers.printers,
    restaurantId: R1.id,
    settings: memorySettings(),
    platformKey: memoryPlatformKey({ available: false }),
    onlinePayments: refusing,
    host: { appInfo: () => { throw new Error('unused'); }, connectionStatus: () => STANDALONE_STATUS, syncStatus: async () => null, backupFolder: () => null },
  });
  const refused = await callScreenHandler(noStorage, 'payments:set', { provider: 'mercadopago', access_token: ACCESS_TOKEN, webhook_secret: WEBHOOK_SECRET, api_base: null });
  assert.equal(refused.ok, false);
  if (!refused.ok) {
    assert.equal(refused.error.code, 'secure_storage_unavailable');
    assert.match(refused.error.message, /payment credentials was not saved/);
  }
  assert.equal(refusing.kept.size, 0);
  assert.equal(await t.server.engine.stores.paymentCredentials.get(R1.id, 'mercadopago'), undefined);
});

test('a provider added to the registry alone is offered, kept under its name and checked with its own client', async () => {
  const checkedWith: string[] = [];
  const pagoPlus: PaymentProviderEntry = {
    name: 'pagoplus',
    label: 'PagoPlus',
    defaultApiBase: 'https://api.pagoplus.example',
    create: () => ({ name: 'pagoplus', openSession: async () => ({ payment_url: 'https://pagoplus.example/pay' }) }),
    checkConnection: async (credentials) => {
      checkedWith.push(credentials.apiBase);
      return { ok: true, user_id: 'pp-7' };
    },
    verifyWebhook: () => ({ kind: 'ignored' }),
  };
  const kept = memoryOnlinePayments();
  const twoProviders = createScreenHandlers({
    engine: t.server.engine,
    commands: t.server.commands,
    printers: t.server.providers.printers,
    restaurantId: R1.id,
    settings: memorySettings(),
    platformKey: memoryPlatformKey(),
    onlinePayments: kept,
    paymentProviders: paymentProviderRegistry(mercadoPagoEntry, pagoPlus),
    host: { appInfo: () => { throw new Error('unused'); }, connectionStatus: () => STANDALONE_STATUS, syncStatus: async () => null, backupFolder: () => null },
  });
  const offered = await ok(callScreenHandler(twoProviders, 'payments:get', {}));
  assert.deepEqual(offered.providers, [
    { name: 'mercadopago', label: 'Mercado Pago', default_api_base: 'https://api.mercadopago.com' },
    { name: 'pagoplus', label: 'PagoPlus', default_api_base: 'https://api.pagoplus.example' },
  ]);
  assert.equal(offered.provider, 'mercadopago', 'none kept: the registry\'s first');

  const unknown = await callScreenHandler(twoProviders, 'payments:set', { provider: 'paypal', access_token: ACCESS_TOKEN, webhook_secret: WEBHOOK_SECRET, api_base: null });
  assert.equal(unknown.ok, false);
  if (!unknown.ok) assert.match(unknown.error.message, /one of: mercadopago, pagoplus/);

  const set = await ok(callScreenHandler(twoProviders, 'payments:set', { provider: 'pagoplus', access_token: ACCESS_TOKEN, webhook_secret: WEBHOOK_SECRET, api_base: null }));
  assert.equal(set.provider, 'pagoplus');
  assert.equal(set.api_base, 'https://api.pagoplus.example', 'no API given: the provider\'s own');
  assert.equal(kept.read(R1.id)?.provider, 'pagoplus');
  assert.deepEqual(await ok(callScreenHandler(twoProviders, 'payments:test', {})), { result: 'ok', user_id: 'pp-7', message: null });
  assert.deepEqual(checkedWith, ['https://api.pagoplus.example']);
});
