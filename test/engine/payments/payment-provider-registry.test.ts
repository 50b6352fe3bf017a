// Issue 31: payment providers are a registry by name, as the couriers are. The engine's choice of
// provider, the webhook's route, the CLI and the screen's list all read it; a second provider is
// its entry, not edits across the engine.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { configuredPaymentProviders } from '../../../src/engine/payments/configured-providers.ts';
import { mercadoPagoEntry } from '../../../src/engine/payments/mercadopago/mercadopago-entry.ts';
import { paymentProviderRegistry, type PaymentProviderEntry } from '../../../src/engine/payments/payment-provider-registry.ts';
import type { PaymentProvider } from '../../../src/engine/payments/payment-provider.ts';
import { PAYMENT_PROVIDER_NAMES, paymentProviderEntry } from '../../../src/engine/payments/payment-providers.ts';
import { checkPaymentCredentials, offeredPaymentProviders } from '../../../src/engine/services/payments/payment-credentials.ts';
import { R1, R2 } from '../../support/demo-ids.ts';
import { startTestEngine, type TestEngine } from '../jobs/engine-with-jobs.ts';

/** A second provider as a test would add one: its name, its client and its webhook check. */
function fakeEntry(name: string): PaymentProviderEntry & { created: string[] } {
  const created: string[] = [];
  return {
    name,
    label: name,
    defaultApiBase: `https://api.${name}.example`,
    created,
    create(credentials) {
      created.push(credentials.accessToken);
      return { name, openSession: async () => ({ payment_url: `https://${name}.example/pay` }) } satisfies PaymentProvider;
    },
    checkConnection: async () => ({ ok: true, user_id: name }),
    verifyWebhook: () => ({ kind: 'ignored' }),
  };
}

describe('the payment providers registry', () => {
  test('Mercado Pago is in it by its name, and the settings screen is offered exactly the registry\'s providers', () => {
    assert.equal(paymentProviderEntry('mercadopago'), mercadoPagoEntry);
    assert.equal(paymentProviderEntry('paypal'), undefined);
    assert.deepEqual(offeredPaymentProviders().map((provider) => provider.name), [...PAYMENT_PROVIDER_NAMES]);
    assert.deepEqual(offeredPaymentProviders(paymentProviderRegistry(fakeEntry('second'), mercadoPagoEntry)), [
      { name: 'second', label: 'second', default_api_base: 'https://api.second.example' },
      { name: 'mercadopago', label: 'Mercado Pago', default_api_base: 'https://api.mercadopago.com' },
    ]);
  });

  test('credentials left without an API base get the provider\'s own; an unknown provider is refused', () => {
    const checked = checkPaymentCredentials('mercadopago', { accessToken: 'APP_USR-12345678', webhookSecret: 'secret-12345678' });
    assert.equal(checked.apiBase, 'https://api.mercadopago.com');
    assert.throws(() => checkPaymentCredentials('paypal', { accessToken: 'APP_USR-12345678', webhookSecret: 'secret-12345678' }), /one of: mercadopago/);
  });

  test('a restaurant\'s live world gets the first provider it has credentials for; its test world none', () => {
    const first = fakeEntry('first');
    const second = fakeEntry('second');
    const credentials = new Map([[`${R1.id}/second`, { accessToken: 'token-second', webhookSecret: 'whsec', apiBase: 'https://second.example' }]]);
    const providerOf = configuredPaymentProviders((restaurantId, provider) => credentials.get(`${restaurantId}/${provider}`) ?? null, paymentProviderRegistry(first, second));
    assert.equal(providerOf(R1.id, 'live')?.name, 'second');
    assert.equal(providerOf(R1.id, 'live'), providerOf(R1.id, 'live'), 'built once while its credentials stay the same');
    assert.deepEqual(second.created, ['token-second']);
    assert.equal(providerOf(R1.id, 'test'), null);
    assert.equal(providerOf(R2.id, 'live'), null);
    credentials.set(`${R1.id}/first`, { accessToken: 'token-first', webhookSecret: 'whsec', apiBase: 'https://first.example' });
    assert.equal(providerOf(R1.id, 'live')?.name, 'first', 'the registry\'s order decides');
  });
});

describe('the webhook route takes the provider\'s name', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine({});
  });
  after(async () => {
    await t.stop();
  });

  test('a provider the engine does not know is 404; a known one without an account is 401', async () => {
    const post = (provider: string) => fetch(`${t.server.origin}/v1/payments/notifications/${provider}/${R1.id}?type=payment&data.id=1`, { method: 'POST' });
    const unknown = await post('paypal');
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'not_found');
    assert.equal((await post('mercadopago')).status, 401);
  });
});
