// The kitchen door's guards (issue 19), over real HTTP on a served engine: a paired screen's writes
// are limited per device and re-marking a marked item writes no event; every kitchen request must
// name this machine in its Host and a page's calls must come from the engine's own origin (a page on
// another port of the same machine is "same-site" and got the SameSite=Strict cookie); every kitchen
// answer, body-parse errors and 404s included, is `{ ok: false, error }` with the security headers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { seedDemo, type DemoRestaurant } from '../../../../src/engine/demo/seed-demo.ts';
import { createPairingCode, pairWithCode } from '../../../../src/engine/services/kitchen/kitchen-devices.ts';
import { startEngineServer, type EngineServer } from '../../../../src/host/start-engine-server.ts';
import { R1 } from '../../../support/demo-ids.ts';
import { callApi, DEMO_NOW, GENEROUS_LIMITS } from '../../../support/engine-under-test.ts';
import { postJson, rawRequest, type RawAnswer } from './raw-request.ts';

const ORDER = {
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name: 'Guard Test' },
  items: [
    { product_id: R1.products.empanadaQueso, quantity: 2 },
    { product_id: R1.products.completo, quantity: 1 },
  ],
};

/** The kitchen's answer shape and headers, whatever went wrong. */
function assertKitchenRefusal(answer: RawAnswer, status: number, code: string) {
  assert.equal(answer.status, status, answer.text);
  assert.deepEqual(Object.keys(answer.body), ['ok', 'error'], answer.text);
  assert.equal(answer.body.ok, false);
  assert.equal(answer.body.error.code, code);
  assert.equal(typeof answer.body.error.message, 'string');
  assert.match(String(answer.headers['content-security-policy']), /frame-ancestors 'none'/);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff');
  assert.equal(answer.headers['x-frame-options'], 'DENY');
}

describe('kitchen door guards (served engine)', () => {
  let dir: string;
  let clock: ManualClock;
  let server: EngineServer;
  let demo: DemoRestaurant[];
  let port: number;
  let cookie: string;
  let other: string;
  let origin: string;

  const pairDevice = async () => `comanda_device=${(await pairWithCode(server.engine, (await createPairingCode(server.engine, { restaurantId: demo[0]!.id, origin: server.origin })).code)).token}`;
  /** A kitchen call as the tablet's page makes it: its cookie, same-origin. */
  const kitchenCall = (channel: string, body: unknown, headers: Record<string, string> = {}, as = cookie) =>
    postJson(port, `/kitchen/api/${channel}`, body, { headers: { cookie: as, origin, 'sec-fetch-site': 'same-origin', ...headers } });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-door-guards-'));
    clock = new ManualClock(DEMO_NOW);
    server = await startEngineServer({ database: join(dir, 'engine.db'), clock, rateLimits: GENEROUS_LIMITS, kitchen: { hostNames: ['cocina.local'] } });
    port = server.port;
    origin = `http://127.0.0.1:${port}`;
    demo = await seedDemo(server.engine, server.providers.payments);
    cookie = await pairDevice();
    other = await pairDevice();
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('re-marking a marked item writes no event; a screen’s writes are limited (20 at once), another screen’s are not', async () => {
    const created = await callApi(server.baseUrl, demo[0]!.keys.live_write, 'POST', '/orders', { body: ORDER });
    assert.equal(created.status, 201);
    const orderId = created.body.id as string;
    const mark = (done: boolean, as = cookie) => kitchenCall('items:set-done', { order_id: orderId, item_index: 0, done }, {}, as);
    assert.equal((await mark(true)).status, 200);
    const seq = await server.engine.stores.events.lastSeq(demo[0]!.id);
    for (let i = 0; i < 5; i++) assert.equal((await mark(true)).status, 200);
    assert.equal(await server.engine.stores.events.lastSeq(demo[0]!.id), seq, 'marking a marked item again writes no event');

    // The burst: 6 calls spent above; 14 more pass, the 21st is refused with Retry-After.
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await mark(i % 2 === 0 ? false : true)).status);
    assert.deepEqual(statuses, [...Array<number>(14).fill(200), 429], statuses.join());
    const refused = await mark(false);
    assertKitchenRefusal(refused, 429, 'rate_limited');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    // Only this screen: the other one writes.
    assert.equal((await mark(false, other)).status, 200);
    // Ten a second come back, on the engine's clock.
    clock.advance(1000);
    assert.equal((await mark(true)).status, 200);
  });

  test('a page on another port (same-site), another site, or a foreign Host is refused; the engine’s own page is not', async () => {
    const ownPage = await kitchenCall('board:snapshot', {});
    assert.equal(ownPage.status, 200);
    // Before the fix, Chromium sent the Strict cookie from http://127.0.0.1:<other port> and this answered 200.
    const samesite = await kitchenCall('board:snapshot', {}, { origin: `http://127.0.0.1:${port + 1}`, 'sec-fetch-site': 'same-site' });
    assertKitchenRefusal(samesite, 403, 'forbidden');
    // A no-cors request carries no Origin, only Sec-Fetch-Site.
    const noCors = await kitchenCall('board:snapshot', {}, { origin: '', 'sec-fetch-site': 'same-site' });
    assertKitchenRefusal(noCors, 403, 'forbidden');
    assertKitchenRefusal(await kitchenCall('board:snapshot', {}, { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }), 403, 'forbidden');
    // DNS rebinding: the victim's browser talks to this address under the attacker's name.
    const rebound = await postJson(port, '/kitchen/pair', { code: '123456' }, { headers: { host: `evil.example:${port}`, origin: `http://evil.example:${port}`, 'sec-fetch-site': 'same-origin' } });
    assertKitchenRefusal(rebound, 403, 'forbidden');
    const reboundRead = await rawRequest(port, { method: 'GET', path: '/kitchen/session', headers: { host: `evil.example:${port}`, cookie } });
    assertKitchenRefusal(reboundRead, 403, 'forbidden');
    // A cross-site POST to the pairing form is refused before any code is looked at.
    assertKitchenRefusal(await postJson(port, '/kitchen/pair', { code: '123456' }, { headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } }), 403, 'forbidden');
    // The configured name, localhost and this machine's address pass.
    for (const host of [`cocina.local:${port}`, `localhost:${port}`, `127.0.0.1:${port}`]) {
      const answer = await postJson(port, '/kitchen/api/board:snapshot', {}, { headers: { host, origin: `http://${host}`, cookie, 'sec-fetch-site': 'same-origin' } });
      assert.equal(answer.status, 200, host);
    }
    // A navigation (the QR code's URL opened from another app) has no Origin to check, only the Host.
    const nav = await rawRequest(port, { method: 'GET', path: '/kitchen/pair?secret=cmpair_nope', headers: { 'sec-fetch-site': 'cross-site' } });
    assert.equal(nav.status, 303);
    assertKitchenRefusal(await rawRequest(port, { method: 'GET', path: '/kitchen/', headers: { host: `evil.example:${port}` } }), 403, 'forbidden');
  });

  test('body-parse errors, unknown paths and methods answer in the kitchen’s shape with its headers', async () => {
    const broken = await rawRequest(port, { method: 'POST', path: '/kitchen/api/board:snapshot', headers: { cookie, 'content-type': 'application/json' }, body: '{"nope' });
    assertKitchenRefusal(broken, 400, 'invalid_request');
    const brokenPair = await rawRequest(port, { method: 'POST', path: '/kitchen/pair', headers: { 'content-type': 'application/json' }, body: 'not json' });
    assertKitchenRefusal(brokenPair, 400, 'invalid_request');
    assertKitchenRefusal(await rawRequest(port, { method: 'POST', path: '/kitchen/nothing-here', headers: { 'content-type': 'application/json' }, body: '{}' }), 404, 'not_found');
    assertKitchenRefusal(await rawRequest(port, { method: 'DELETE', path: '/kitchen/api/board:snapshot' }), 404, 'not_found');
    assertKitchenRefusal(await rawRequest(port, { method: 'GET', path: '/kitchen/assets/missing.js' }), 404, 'not_found');
    assertKitchenRefusal(await kitchenCall('keys:list', {}), 404, 'not_found');
    const anonymous = await postJson(port, '/kitchen/api/board:snapshot', {});
    assertKitchenRefusal(anonymous, 401, 'device_unpaired');
  });
});
