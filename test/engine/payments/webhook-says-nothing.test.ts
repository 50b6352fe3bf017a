// Issue 29: the Mercado Pago webhook never tells a caller which restaurants have an account. The
// same requests (unsigned, malformed, forged with a guessed secret, signed but stale) to a
// configured restaurant, an unconfigured one and one that does not exist get the same answers:
// status and body. Only the restaurant's own secret gets past (200).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setPaymentCredentials } from '../../../src/engine/services/payments/payment-credentials.ts';
import { R1, R2, UNKNOWN_UUID } from '../../support/demo-ids.ts';
import { MercadoPagoStandIn } from '../../support/mercadopago-stand-in.ts';
import { startTestEngine, type TestEngine } from '../jobs/engine-with-jobs.ts';

const WEBHOOK_SECRET = 'whsec-0a1b2c3d4e5f60718293a4b5c6d7e8f9';

describe('the webhook answers a restaurant without Mercado Pago as an unknown one, and as a forged call to a configured one', () => {
  let t: TestEngine;
  let mp: MercadoPagoStandIn;
  before(async () => {
    mp = await MercadoPagoStandIn.start('APP_USR-test');
    t = await startTestEngine({ paymentTimeoutMs: 5000 });
    await setPaymentCredentials(t.server.engine, R1.id, 'mercadopago', { accessToken: 'APP_USR-test', webhookSecret: WEBHOOK_SECRET, apiBase: mp.baseUrl });
  });
  after(async () => {
    await t.stop();
    await mp.close();
  });

  const url = (restaurantId: string) => `${t.server.origin}/v1/payments/notifications/mercadopago/${restaurantId}`;
  const nowSeconds = () => Math.floor(t.clock.now() / 1000);
  /** The answers one restaurant gives to what a caller without its secret can send. */
  const answersOf = async (restaurantId: string) => [
    await mp.notify(url(restaurantId), 1234, WEBHOOK_SECRET, { tsSeconds: nowSeconds(), signature: '' }),
    await mp.notify(url(restaurantId), 1234, WEBHOOK_SECRET, { tsSeconds: nowSeconds(), signature: 'ts=1,v1=zz' }),
    await mp.notify(url(restaurantId), 1234, 'a guessed secret', { tsSeconds: nowSeconds(), requestId: 'fixed-request' }),
    await mp.notify(url(restaurantId), 1234, 'a guessed secret', { tsSeconds: nowSeconds() - 3600, requestId: 'fixed-request' }),
  ];

  test('unsigned, malformed, forged and stale: the same status and body whoever the restaurant', async () => {
    const configured = await answersOf(R1.id);
    assert.deepEqual(configured.map((a) => a.status), [401, 401, 401, 401]);
    assert.deepEqual(await answersOf(R2.id), configured, 'a restaurant without Mercado Pago');
    assert.deepEqual(await answersOf(UNKNOWN_UUID), configured, 'a restaurant that does not exist');
    // The restaurant's own secret gets through.
    assert.equal((await mp.notify(url(R1.id), 1234, WEBHOOK_SECRET, { tsSeconds: nowSeconds() })).status, 200);
  });
});
