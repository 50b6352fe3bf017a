// The pickup screen ("Pantalla de retiro") in headless Chromium over real HTTP: paired with its
// role, an order moved to listo over /v1 shows as ready on the live stream's push, leaves when delivered, and
// the screen cannot move orders (its channel calls refused). Screenshots at both orientations.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { createPairingCode } from '../../../../src/engine/services/kitchen-devices.ts';
import { R1 } from '../../../support/demo-ids.ts';
import { startServedKitchen, type ServedKitchen } from './served-kitchen.ts';

const SCREENS = resolve(import.meta.dirname, '../../../../docs/screens/pickup-screen');
let kitchen: ServedKitchen;
before(async () => {
  kitchen = await startServedKitchen();
});
after(async () => {
  await kitchen?.close();
});

async function pairPickup(viewport: { width: number; height: number }): Promise<Page> {
  const { page } = await kitchen.tablet(viewport);
  const offer = createPairingCode(kitchen.server.engine, { restaurantId: R1.id, origin: kitchen.origin, role: 'pickup' });
  await page.goto(offer.pairing_url);
  await page.waitForSelector('[data-testid="pickup-screen"]');
  return page;
}

const createPickup = async (name: string) => {
  const created = await kitchen.call('POST', '/orders', {
    body: { location_id: R1.openLocation, type: 'retiro', customer: { name }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
  });
  assert.equal(created.status, 201, created.text);
  return created.body as { id: string; number: string };
};
const move = async (id: string, status: string) => {
  const moved = await kitchen.call('PATCH', `/orders/${id}`, { body: { status } });
  assert.equal(moved.status, 200, moved.text);
};

test('paired as pickup: numbers move from Preparando to ¡Listo para retirar! on the push, and leave when delivered', async () => {
  const page = await pairPickup({ width: 1920, height: 1080 });
  const orders = [];
  for (const name of ['Ana', 'Benjamín', 'Catalina', 'Diego', 'Eugenia', 'Fernanda']) orders.push(await createPickup(name));
  const delivery = await kitchen.call('POST', '/orders', {
    body: { location_id: R1.openLocation, type: 'delivery', address: 'Av. Grecia 1200', shipping_fee: 1990, customer: { name: 'Zoe' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
  });
  assert.equal(delivery.status, 201);
  for (const o of orders) await page.waitForSelector(`[data-pickup-number="${o.number}"][data-state="preparing"]`);
  assert.equal(await page.locator(`[data-pickup-number="${delivery.body.number}"]`).count(), 0, 'pickup orders only');

  for (const o of orders.slice(0, 3)) {
    await move(o.id, 'en_preparacion');
    await move(o.id, 'listo');
  }
  await move(orders[3]!.id, 'en_preparacion');
  // The live stream's push makes the screen read at once (no poll, no timer in between): wait on that
  // condition, not on a wall-clock bound a busy machine would break; the delay seen is reported.
  const movedAt = performance.now();
  await page.waitForSelector(`[data-pickup-number="${orders[2]!.number}"][data-state="ready"]`);
  console.log(`[pickup] ready on screen ${Math.round(performance.now() - movedAt)} ms after the /v1 answer`);
  assert.equal(await page.getAttribute(`[data-pickup-number="${orders[2]!.number}"]`, 'class'), 'just-ready', 'the new number stands out');
  const text = await page.textContent('[data-testid="pickup-screen"]');
  assert.match(text ?? '', /Preparando/);
  assert.match(text ?? '', /¡Listo para retirar!/);
  assert.doesNotMatch(text ?? '', /Ana|Benjamín|Cazuela/, 'no customer data, no items');
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: resolve(SCREENS, 'landscape-1920x1080.png') });

  await move(orders[0]!.id, 'entregado');
  await page.waitForSelector(`[data-pickup-number="${orders[0]!.number}"]`, { state: 'detached' });

  const portrait = await pairPickup({ width: 1080, height: 1920 });
  await portrait.waitForSelector(`[data-pickup-number="${orders[1]!.number}"][data-state="ready"]`);
  await portrait.screenshot({ path: resolve(SCREENS, 'portrait-1080x1920.png') });
});

test('the pickup screen cannot move orders: every channel but its own is refused at the door', async () => {
  const page = await pairPickup({ width: 1920, height: 1080 });
  const order = await createPickup('Gaspar');
  const calls: [string, unknown][] = [
    ['orders:transition', { order_id: order.id, target: 'en_preparacion' }],
    ['items:set-done', { order_id: order.id, item_index: 0, done: true }],
    ['orders:recall', { order_id: order.id }],
    ['orders:reprint', { order_id: order.id }],
    ['board:snapshot', {}],
    ['stock:set', { location_id: R1.openLocation, world: 'live', items: [{ product_id: R1.products.cazuela, quantity: 0 }] }],
    ['stock:read', { location_id: R1.openLocation, world: 'live' }],
    ['locations:list', { world: 'live' }],
    ['locations:set-open', { location_id: R1.openLocation, world: 'live', open: false }],
    ['devices:list', {}],
  ];
  for (const [channel, body] of calls) {
    const answer = await page.evaluate(
      async ({ channel, body }) => {
        const response = await fetch(`/kitchen/api/${channel}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: response.status, body: await response.json() };
      },
      { channel, body },
    );
    assert.equal(answer.body.ok, false, channel);
    assert.ok(answer.status === 403 || answer.status === 404, `${channel}: ${answer.status}`);
  }
  const own = await page.evaluate(async () => (await fetch('/kitchen/api/pickup:board', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json());
  assert.equal(own.ok, true);
  assert.deepEqual(Object.keys(own.value).sort(), ['now', 'preparing', 'ready', 'restaurant_name']);
  const read = await kitchen.call('GET', `/orders/${order.id}`);
  assert.equal(read.body.status, 'recibido', 'nothing moved');
});

test('like the board, the pickup screen says its numbers may be stale while the engine is silent, and recovers', async () => {
  const page = await pairPickup({ width: 1920, height: 1080 });
  const order = await createPickup('Hernán');
  await page.waitForSelector(`[data-pickup-number="${order.number}"][data-state="preparing"]`);
  await kitchen.stopEngine();
  await page.waitForSelector('[data-testid="pickup-stale"]');
  assert.equal(await page.getAttribute('[data-testid="pickup-screen"]', 'data-stale'), 'true');
  await kitchen.startEngine();
  await move(order.id, 'en_preparacion');
  await move(order.id, 'listo');
  await page.waitForSelector(`[data-pickup-number="${order.number}"][data-state="ready"]`);
  await page.waitForSelector('[data-testid="pickup-stale"]', { state: 'detached' });
});
