// The hub's side of the kitchen's promises in headless Chromium (issue 32): the locations screen
// shows the kitchen's wait, "+ / −" changes the cooks a promise counts on, and the manager pauses the
// online store (a store front's order is refused, a POS's taken) and gives it back to the wait.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { R1 } from '../support/demo-ids.ts';
import { placeOrder, startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';
import { eventually } from '../support/eventually.ts';
import { createApiKey } from '../../src/engine/services/keys/api-keys.ts';
import { setKeyChannelKind } from '../../src/engine/services/kitchen/busy-mode.ts';
import { readKitchenSettings } from '../../src/engine/services/kitchen/kitchen-settings.ts';

describe('kitchen promises on the hub (Chromium, real engine)', () => {
  let k: KitchenUnderTest;
  before(async () => {
    k = await startKitchenUnderTest();
  });
  after(async () => {
    await k?.stop();
  });

  const card = () => k.page.locator(`article[data-location-id="${R1.openLocation}"]`);
  const station = (id: string) => k.page.locator(`[data-testid="station-cooks"] li[data-station-id="${id}"]`);
  const quoteMinutes = async () => {
    const quote = await k.engine.call('POST', '/ready-time-quotes', { body: { location_id: R1.openLocation, items: [{ product_id: R1.products.completo, quantity: 1 }] } });
    assert.equal(quote.status, 200, quote.text);
    return (DateTime.fromISO(quote.body.expected_ready_at).toMillis() - k.engine.clock.now()) / 60_000;
  };

  test('the wait, "+ / −" cooks and the manager\'s pause', async () => {
    // The grill (resources/demo): 2 cooks of 4 completos at once, 12 at most on the griddle. Six orders
    // of four completos (each one cook's hands): the next completo waits three rounds with 2 cooks (two
    // orders a round), two with 3 (three a round).
    for (let i = 0; i < 6; i++) await placeOrder(k.engine, { items: [{ product_id: R1.products.completo, quantity: 4 }] });
    await k.open('locations');
    await card().locator('[data-testid="kitchen-wait"]').waitFor();
    assert.match(await card().locator('[data-testid="kitchen-wait"]').innerText(), /^Espera de cocina: \d+ min$/);

    const before = await quoteMinutes();
    await station('plancha').locator('[data-testid="cooks-count"]').waitFor();
    assert.equal(await station('plancha').locator('[data-testid="cooks-count"]').innerText(), '2');
    await station('plancha').locator('[data-testid="cooks-plus"]').click();
    await eventually(async () => (await station('plancha').locator('[data-testid="cooks-count"]').innerText()) === '3' || undefined, 'three cooks at the grill');
    assert.ok((await quoteMinutes()) < before, 'a cook more: the promise is earlier');

    await card().locator('[data-testid="busy-pause"]').click();
    await card().locator('[data-testid="kitchen-busy"][data-paused="true"]').waitFor();
    assert.equal(await card().locator('[data-testid="kitchen-busy"]').innerText(), 'Tienda en línea: en pausa por el encargado');
    const shop = await createApiKey(k.engine.server.engine, { restaurantId: R1.id, world: 'live', write: true, label: 'tienda web' });
    await setKeyChannelKind(k.engine.server.engine, shop.record.id, 'store_front');
    const body = { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Ana' }, items: [{ product_id: R1.products.completo, quantity: 1 }] };
    const refused = await k.engine.call('POST', '/orders', { key: shop.key, body });
    assert.equal(refused.status, 503);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await k.engine.call('POST', '/orders', { body })).status, 201, 'a POS is never refused');
    await k.screenshot('locations-kitchen-promise');

    await card().locator('[data-testid="busy-auto"]').click();
    await card().locator('[data-testid="kitchen-busy"][data-paused="false"]').waitFor();
    assert.equal((await k.engine.call('POST', '/orders', { key: shop.key, body })).status, 201);
  });

  test('a held line on the board: "retenido hasta HH:MM", then an ordinary line once the engine fires it', async () => {
    // An empanada (oven) and a completo (grill): the one its station would finish first waits (after the
    // test before, the grill's three cooks have two rounds of completos and two more: this one is done in
    // the third round, at 15 minutes; the empanada, 10 minutes in an oven with room, is held, from the
    // stations' schedule).
    const order = await placeOrder(k.engine, { items: [{ product_id: R1.products.empanadaQueso, quantity: 1 }, { product_id: R1.products.completo, quantity: 1 }] });
    const held = await k.engine.server.engine.stores.kitchenTimings.heldOf(order.id);
    assert.equal(held.length, 1);
    await k.open('board');
    const note = k.page.locator(`[data-testid="held-item"][data-fire-at="${held[0]!.fire_at}"]`);
    await note.waitFor();
    const shown = DateTime.fromMillis(held[0]!.fire_at, { zone: 'America/Santiago' }).toFormat('HH:mm');
    assert.equal(await note.innerText(), `retenido hasta ${shown}`);
    await note.scrollIntoViewIfNeeded();
    console.log(`screenshot: ${await k.screenshot('board-held-line')}`);
    k.engine.clock.set(held[0]!.fire_at);
    await k.engine.server.jobs.runDue();
    await note.waitFor({ state: 'detached' });
  });

  test('past its promise a ticket is outlined late, and "Atrasados" shows the late ones alone', async () => {
    const late = await placeOrder(k.engine, { items: [{ product_id: R1.products.completo, quantity: 1 }] });
    const promised = DateTime.fromISO(late.promise.promised_ready_at).toMillis();
    k.engine.clock.set(promised + 60_000);
    await k.engine.server.jobs.runDue();
    // A new order, promised later than now: on time.
    const fresh = await placeOrder(k.engine, { items: [{ product_id: R1.products.bebidaLata, quantity: 1 }] });
    await k.open('board');
    const ticketOf = (id: string) => k.page.locator(`article.ticket[data-order-id="${id}"]`).first();
    await ticketOf(late.id).and(k.page.locator('[data-promise="late"]')).waitFor();
    assert.match((await ticketOf(late.id).getAttribute('title')) ?? '', /^Atrasado: prometido a las \d\d:\d\d$/);
    assert.notEqual(await ticketOf(fresh.id).getAttribute('data-promise'), 'late');

    await k.page.locator('[data-testid="screen-menu"]').click();
    const toggle = k.page.locator('[data-testid="late-only"]');
    assert.match(await toggle.innerText(), /^Atrasados \(\d+\)$/);
    await toggle.click();
    await k.page.locator('[data-testid="late-only-chip"]').waitFor();
    assert.equal(await k.page.locator('[data-testid="late-only-chip"]').innerText(), 'Solo atrasados · ver todos');
    await ticketOf(fresh.id).waitFor({ state: 'detached' });
    await ticketOf(late.id).waitFor();
    console.log(`screenshot: ${await k.screenshot('board-late-only')}`);
    await k.page.locator('[data-testid="late-only-chip"]').click();
    await ticketOf(fresh.id).waitFor();
    assert.equal(await k.page.locator('[data-testid="late-only-chip"]').count(), 0);
  });

  test('the manager accepts a learned prep time with one tap', async () => {
    // What the learning job would have found: the grill's completos take 7 minutes, not the 5 typed.
    await k.engine.server.engine.stores.kitchenTimings.replacePrepStats(R1.id, [
      { restaurant_id: R1.id, station_id: 'plancha', product_id: R1.products.completo, mean_seconds: 430, median_seconds: 420, p90_seconds: 540, samples: 24, excluded: 0, learned_at: k.engine.clock.now() },
    ]);
    await k.open('locations');
    const row = k.page.locator(`[data-testid="prep-drift"] li[data-product-id="${R1.products.completo}"]`);
    await row.waitFor();
    assert.equal(await row.locator('[data-testid="drift-times"]').innerText(), 'escrito 5 min, aprendido 7 min (24 marcas)');
    assert.equal(await row.locator('[data-testid="drift-accept"]').innerText(), 'Usar 7 min');
    await row.scrollIntoViewIfNeeded();
    console.log(`screenshot: ${await k.screenshot('locations-prep-drift')}`);
    await row.locator('[data-testid="drift-accept"]').click();
    await eventually(async () => (await row.count()) === 0 || undefined, 'the accepted product leaves the list');
    const settings = await readKitchenSettings(k.engine.server.engine, R1.id);
    assert.equal(settings.prep?.product_seconds[R1.products.completo], 420, 'the learned median is the prep time now');
  });
});
