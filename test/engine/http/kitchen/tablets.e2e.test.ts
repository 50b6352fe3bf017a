// Two browser tablets paired to a served engine, and a POS over /v1, in headless Chromium over
// real HTTP (no harness in between): orders appear on both, a tap on one moves the order for all,
// pairing URLs are single use and expire, a revoked tablet drops to the pairing page, and an engine
// restart shows the stale banner and recovers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PAIRING_CODE_TTL_MS } from '../../../../src/engine/services/kitchen/kitchen-devices.ts';
import { R1 } from '../../../support/demo-ids.ts';
import { eventually } from '../../../support/eventually.ts';
import { startServedKitchen, type ServedKitchen } from './served-kitchen.ts';
import { ARTIFACTS } from '../../../renderer/support/kitchen-under-test.ts';

const VIEWPORTS = {
  portrait: { width: 800, height: 1280 },
  landscape: { width: 1280, height: 800 },
  desktop: { width: 1920, height: 1080 },
  phone: { width: 390, height: 844 },
};

const ORDER = {
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name: 'Tablet Test', phone: '+56 9 1111 2222' },
  items: [{ product_id: R1.products.empanadaQueso, quantity: 2 }],
};

describe('kitchen screens on browser tablets (Chromium, served engine)', () => {
  let k: ServedKitchen;
  let a: Page;
  let b: Page;

  before(async () => {
    k = await startServedKitchen({ heartbeatMs: 300, pairingLimits: { capacity: 8, refillPerSecond: 0.001 } });
    a = (await k.tablet()).page;
    b = (await k.tablet({ width: 1280, height: 800 })).page;
  });
  after(async () => {
    await k?.close();
  });

  const ticket = (page: Page, orderId: string) => page.locator(`article[data-order-id="${orderId}"]`);
  const inPage = (page: Page, path: string, body: unknown) =>
    page.evaluate(
      async ([p, b]) => {
        const response = await fetch(p as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
        return { status: response.status, body: (await response.json()) as any };
      },
      [path, body] as const,
    );

  test('an unpaired browser gets the pairing page; the pairing URL pairs it once and lands on the board', async () => {
    const response = await a.goto(`${k.origin}/kitchen/`);
    assert.match(response!.headers()['content-security-policy'] ?? '', /default-src 'none'.*frame-ancestors 'none'/);
    await a.locator('[data-testid="pairing-required"]').waitFor();

    const url = await k.pairingUrl();
    assert.match(url, new RegExp(`^${k.origin}/kitchen/pair\\?secret=cmpair_[\\w-]{43}$`));
    await a.goto(url);
    await a.locator('[data-testid="board"]').waitFor();
    assert.equal(new URL(a.url()).pathname, '/kitchen/');
    const cookies = await a.context().cookies();
    const device = cookies.find((c) => c.name === 'comanda_device')!;
    assert.equal(device.httpOnly, true);
    assert.equal(device.sameSite, 'Strict');
    assert.equal(await a.evaluate(() => document.cookie), '', 'the token is out of the page scripts’ reach');

    // The same URL again, on the other tablet: refused, and the page says why.
    await b.goto(url);
    await b.locator('[data-testid="pairing-required"]').waitFor();
    assert.match(await b.locator('[data-testid="pairing-error"]').innerText(), /venció o ya se usó/);
  });

  test('an expired pairing URL is refused; a fresh one typed as six digits pairs', async () => {
    const expired = await k.pairingUrl();
    k.clock.advance(PAIRING_CODE_TTL_MS + 1000);
    await b.goto(expired);
    await b.locator('[data-testid="pairing-error"]').waitFor();
    const fresh = (await k.pairingOffer()).code;
    await b.locator('[data-testid="pairing-code"]').fill(fresh);
    await b.locator('[data-testid="pairing-submit"]').click();
    await b.locator('[data-testid="board"]').waitFor();
  });

  test('an order posted by the POS appears on both tablets; a tap on one moves it for the API and the other', async () => {
    const created = await k.call('POST', '/orders', { body: ORDER });
    assert.equal(created.status, 201);
    const id = created.body.id as string;
    await ticket(a, id).waitFor({ timeout: 5000 });
    await ticket(b, id).waitFor({ timeout: 5000 });
    assert.equal(await ticket(a, id).getAttribute('data-status'), 'recibido');

    // Two taps: the second confirms the first at once (no 5 s hold to wait out).
    await ticket(a, id).locator('[data-testid="bump"]').click();
    await ticket(a, id).locator('[data-testid="bump"]').click();
    await eventually(async () => (await k.call('GET', `/orders/${id}`)).body.status === 'en_preparacion', 'en_preparacion over /v1');
    await eventually(async () => (await ticket(b, id).getAttribute('data-status')) === 'en_preparacion', 'the other tablet shows it');
  });

  test('a paired screen reaches only the kitchen channels; no token, no kitchen', async () => {
    for (const channel of ['keys:list', 'keys:create', 'settings:get', 'platform:set-key', 'devices:pair', 'app:info', 'mail:set-smtp']) {
      const refused = await inPage(a, `/kitchen/api/${channel}`, {});
      assert.equal(refused.status, 404, channel);
      assert.equal(refused.body.error.code, 'not_found');
    }
    const snapshot = await inPage(a, '/kitchen/api/board:snapshot', {});
    assert.equal(snapshot.status, 200);
    const text = JSON.stringify(snapshot.body);
    for (const key of Object.values(k.demo[0]!.keys)) assert.ok(!text.includes(key), 'no API key reaches a browser');

    const bad = await inPage(a, '/kitchen/api/orders:transition', { order_id: 'nope', target: 'listo' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_request');

    // Without the cookie (a plain HTTP client), every kitchen endpoint refuses.
    const anonymous = await fetch(`${k.origin}/kitchen/api/board:snapshot`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(anonymous.status, 401);
    assert.equal(((await anonymous.json()) as any).error.code, 'device_unpaired');
    assert.equal((await fetch(`${k.origin}/kitchen/live`)).status, 401);
    const forged = await fetch(`${k.origin}/kitchen/api/board:snapshot`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: 'comanda_device=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, body: '{}' });
    assert.equal(forged.status, 401);
    // No manager's door where the host opens none (the desktop app, npm run serve): no link, no admin cookie.
    assert.equal((await fetch(`${k.origin}/kitchen/admin?token=cmadm_AAAA`, { redirect: 'manual' })).status, 404);
    const adminCookie = await fetch(`${k.origin}/kitchen/api/keys:list`, { method: 'POST', headers: { 'content-type': 'application/json', origin: k.origin, cookie: 'comanda_admin=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, body: '{}' });
    assert.equal(adminCookie.status, 404);
  });

  test('a revoked tablet drops to the pairing page; the other keeps its board', async () => {
    const devices = (await k.server.engine.stores.kitchenDevices.listForRestaurant(R1.id)).filter((d) => d.revoked_at === null);
    assert.equal(devices.length, 2);
    const newest = devices.sort((x, y) => x.paired_at - y.paired_at)[1]!; // b paired second
    const { revokeKitchenDevice } = await import('../../../../src/engine/services/kitchen/kitchen-devices.ts');
    await revokeKitchenDevice(k.server.engine, R1.id, newest.id);
    await b.locator('[data-testid="pairing-required"]').waitFor({ timeout: 5000 });
    assert.match(await b.locator('[data-testid="pairing-error"]').innerText(), /desvinculada/);
    assert.equal(await a.locator('[data-testid="board"]').count(), 1);
    const refused = await inPage(b, '/kitchen/api/board:snapshot', {});
    assert.equal(refused.status, 401);
  });

  test('every size (portrait, landscape, desktop, phone): the new tickets drawn side by side or stacked, never overlapping, nothing scrolls sideways; screenshots saved', async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const first = await k.call('POST', '/orders', { body: { ...ORDER, type: 'delivery', address: 'Av. Irarrázaval 3100, Ñuñoa', customer: { name: 'Pedro Soto' }, notes: 'sin cebolla' } });
    const second = await k.call('POST', '/orders', { body: { ...ORDER, customer: { name: 'Camila Rojas' }, items: [{ product_id: R1.products.completo, quantity: 3 }] } });
    assert.deepEqual([first.status, second.status], [201, 201]);
    const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await a.setViewportSize(viewport);
      await b.setViewportSize(viewport);
      // Settled: both new tickets on the board, and two frames painted at the new size (no fixed wait).
      await ticket(a, first.body.id).waitFor();
      await ticket(a, second.body.id).waitFor();
      for (const page of [a, b]) await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
      const boxes = [await ticket(a, first.body.id).boundingBox(), await ticket(a, second.body.id).boundingBox()];
      const [one, two] = boxes;
      assert.ok(one && two && one.width > 0 && one.height > 0 && two.width > 0 && two.height > 0, `${name}: both tickets drawn`);
      const overlap = one.x < two.x + two.width && two.x < one.x + one.width && one.y < two.y + two.height && two.y < one.y + one.height;
      assert.ok(!overlap, `${name}: the two tickets overlap: ${JSON.stringify(boxes)}`);
      for (const box of boxes) assert.ok(box!.x >= 0 && box!.x + box!.width <= viewport.width + 0.5, `${name}: a ticket runs out of the window: ${JSON.stringify(box)}`);
      assert.equal(await scrollsSideways(a), false, `${name}: the board scrolls sideways`);
      // The revoked tablet (the test above) shows the pairing page at every size, whole.
      assert.ok(await b.locator('[data-testid="pairing-required"]').isVisible(), `${name}: the pairing page on the revoked tablet`);
      assert.equal(await scrollsSideways(b), false, `${name}: the pairing page scrolls sideways`);
      await a.screenshot({ path: join(ARTIFACTS, `i10-tablet-board-${name}.png`) });
      await b.screenshot({ path: join(ARTIFACTS, `i10-tablet-pairing-${name}.png`) });
    }
    await a.setViewportSize(VIEWPORTS.portrait);
  });

  test('stopping the engine shows the stale banner within 5 s; restarting it recovers', async () => {
    await k.stopEngine();
    await a.locator('[data-testid="stale-banner"]').waitFor({ timeout: 5000 });
    await k.startEngine();
    await a.locator('[data-testid="stale-banner"]').waitFor({ state: 'detached', timeout: 10_000 });
    // Live again: a new order arrives.
    const created = await k.call('POST', '/orders', { body: ORDER });
    await ticket(a, created.body.id).waitFor({ timeout: 5000 });
  });

  test('pairing attempts are rate limited per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await fetch(`${k.origin}/kitchen/pair`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: '000000' }) });
      statuses.push(response.status);
      if (response.status === 429) assert.ok(Number(response.headers.get('retry-after')) >= 1);
    }
    assert.ok(statuses.includes(401), statuses.join());
    assert.equal(statuses.at(-1), 429, statuses.join());
  });
});
