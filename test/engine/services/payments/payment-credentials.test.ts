// A restaurant's payment credentials name their provider by the registry's name, and only the
// registry decides which names exist: since migration 0022 the table takes any name, so the
// service refuses an unknown one whether or not an API base comes with it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { importDemoRestaurants } from '../../../../src/engine/demo/seed-demo.ts';
import { Engine } from '../../../../src/engine/engine.ts';
import { ApiError } from '../../../../src/engine/domain/errors.ts';
import { sandboxSimulator } from '../../../../src/engine/payments/sandbox-simulator.ts';
import { setPaymentCredentials, showPaymentCredentials } from '../../../../src/engine/services/payments/payment-credentials.ts';
import { R1 } from '../../../support/demo-ids.ts';
import { DEMO_NOW } from '../../../support/engine-under-test.ts';

describe('setPaymentCredentials: the registry is the one list of providers', () => {
  let dir: string;
  let engine: Engine;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-credentials-'));
    engine = new Engine({ database: join(dir, 'engine.db'), clock: new ManualClock(DEMO_NOW) });
    await importDemoRestaurants(engine, { live: null, test: sandboxSimulator });
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a name the registry does not know is refused, with or without an API base, and nothing is kept', async () => {
    const secrets = { accessToken: 'APP_USR-token-0000', webhookSecret: 'whsec-0000' };
    for (const apiBase of [undefined, 'https://api.example.com']) {
      await assert.rejects(
        async () => await setPaymentCredentials(engine, R1.id, 'otro', { ...secrets, apiBase }),
        (error: unknown) => error instanceof ApiError && error.code === 'invalid_request' && /mercadopago/.test(error.message),
      );
    }
    assert.equal(await engine.stores.paymentCredentials.get(R1.id, 'otro'), undefined);
  });

  test('a name it knows is kept under that name', async () => {
    const view = await setPaymentCredentials(engine, R1.id, 'mercadopago', { accessToken: 'APP_USR-token-1234', webhookSecret: 'whsec-5678' });
    assert.equal(view.provider, 'mercadopago');
    assert.equal((await showPaymentCredentials(engine, R1.id, 'mercadopago'))?.access_token_set, true);
  });
});
