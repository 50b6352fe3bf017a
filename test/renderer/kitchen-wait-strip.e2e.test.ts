// The kitchen's wait on the board's status strip in headless Chromium (issue 32), on both transports:
// a browser tablet over HTTP and Server-Sent Events (a served engine), and the desktop window's
// bridge. Orders make the shown wait rise, a cook's bump lowers it, a pause says "Pausado", a wait
// over two hours says "Espera más de 2 h"; at every
// screen size the wait is whole and so is the strip's other content (on a phone a closed location's
// chip says "Cerrada: …" and may end in an ellipsis). The
// engine's clock is a ManualClock: nothing moves but what the test does.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { startServedKitchen, type ServedKitchen } from '../engine/http/kitchen/served-kitchen.ts';
import { placeOrder, startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';
import { englishIn } from './support/spanish-words.ts';
import { TAP_GUARD_MS } from '../../src/renderer/src/state/board/pending-slice.ts';
import { setBusyOverride } from '../../src/engine/services/kitchen/busy-mode.ts';
import { kitchenActor } from '../../src/engine/screen/kitchen-handlers.ts';

/** The screenshots of this file, kept with the docs (docs/kitchen-promises.md). */
const SCREENS = resolve(import.meta.dirname, '../../docs/screens/kitchen-wait-strip');
const VIEWPORTS = [
  { name: 'tv', width: 1920, height: 1080 },
  { name: 'landscape', width: 1280, height: 800 },
  { name: 'ipad-portrait', width: 820, height: 1180 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const chip = (page: Page) => page.locator(`[data-testid="kitchen-wait-chip"][data-location-id="${R1.openLocation}"]`);
const shownMinutes = async (page: Page) => Number(await chip(page).getAttribute('data-minutes'));
// The oven (horno) bakes 12 empanadas at once and is the station that frees last (resources/demo): a
// dozen empanadas de camarón queso (12 minutes) is one whole bake, and the wait grows a bake a dozen.
const dozen = { product_id: R1.products.empanadaCamaronQueso, quantity: 12 };
const dozenOrder = { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Camila Rojas' }, items: [dozen] };

/**
 * The strip's items other than the wait whose text is cut (wider than their box), whether the strip
 * scrolls sideways, and the wait chip's own text and whether it is cut.
 */
async function stripCuts(page: Page): Promise<{ cut: string[]; overflows: boolean; waitCut: boolean; waitWidth: number; closedSaysClosed: boolean | null }> {
  return await page.evaluate(() => {
    const strip = document.querySelector<HTMLElement>('[data-testid="status-bar"]')!;
    const cut: string[] = [];
    for (const el of Array.from(strip.querySelectorAll<HTMLElement>('.strip-chip, .strip-text'))) {
      if (el.closest('[data-testid="kitchen-waits"]') || !el.offsetParent) continue;
      if (el.scrollWidth > el.clientWidth + 1) cut.push(`${el.dataset.testid ?? el.className}: "${(el as HTMLElement).innerText.trim()}"`);
    }
    const wait = strip.querySelector<HTMLElement>('[data-testid="kitchen-wait-chip"]')!;
    // Whether a closed location's chip, cut or not, still shows its words before the names ("Cerrada:"
    // on a phone): their width in the chip's own font against the chip's room inside its padding.
    const closed = strip.querySelector<HTMLElement>('[data-testid="location-closed-chip"]');
    let closedSaysClosed: boolean | null = null;
    if (closed) {
      const style = getComputedStyle(closed);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const words = closed.innerText.split(':')[0]! + ':';
      const room = closed.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      closedSaysClosed = context.measureText(words).width <= room;
    }
    return { cut, overflows: strip.scrollWidth > strip.clientWidth + 1, waitCut: wait.scrollWidth > wait.clientWidth + 1, waitWidth: wait.clientWidth, closedSaysClosed };
  });
}

describe('the kitchen\'s wait on the strip of a browser tablet (served engine, HTTP and SSE)', () => {
  let k: ServedKitchen;
  before(async () => {
    k = await startServedKitchen();
  });
  after(async () => {
    await k?.close();
  });

  test('orders make the shown wait rise, a bump lowers it, a pause says so; whole at every screen size', async () => {
    const { page } = await k.tablet({ width: 1280, height: 800 });
    await page.goto(await k.pairingUrl());
    await page.locator('[data-testid="board"]').waitFor();
    await chip(page).waitFor();
    const idle = await shownMinutes(page);
    assert.equal(await chip(page).innerText(), `Espera ~${idle} min`);
    assert.equal(await page.locator('[data-testid="kitchen-wait-chip"]').count(), 1, 'the closed location\'s wait is not on the strip');

    const made: { id: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const created = await k.call('POST', '/orders', { body: dozenOrder });
      assert.equal(created.status, 201, created.text);
      made.push(created.body);
    }
    const wait = async () => (await k.call('GET', '/locations')).body.data.find((l: { location_id: string }) => l.location_id === R1.openLocation).kitchen_wait_minutes as number;
    const busy = await wait();
    assert.ok(busy > idle, `six dozens: the wait ${busy} min, idle ${idle} min`);
    // The strip follows the kitchen: the same minutes as GET /locations, once a heartbeat has said them.
    await eventually(async () => (await shownMinutes(page)) === busy || undefined, `the strip shows ${busy} min`);
    console.log(`[kitchen-wait] idle ${idle} min, after 6 orders ${busy} min`);

    // A cook bumps two of the lines from the board.
    for (const order of made.slice(0, 2)) {
      const item = page.locator(`.column article[data-order-id="${order.id}"] [data-testid="item"]`).first();
      // The first tap starts the line (issue 32), the next one, past the tap guard, strikes it.
      await item.click();
      await eventually(async () => (await item.getAttribute('data-started')) === 'true' || undefined, 'the line started');
      const tapped = Date.now();
      await eventually(async () => Date.now() > tapped + TAP_GUARD_MS + 50 || undefined, 'past the tap guard');
      await item.click();
      await eventually(async () => (await item.getAttribute('data-done')) === 'true' || undefined, 'the line struck');
    }
    const lower = await wait();
    assert.ok(lower < busy, `two lines bumped: the wait ${lower} min, was ${busy} min`);
    await eventually(async () => (await shownMinutes(page)) === lower || undefined, `the strip shows ${lower} min`);
    console.log(`[kitchen-wait] after 2 bumps ${lower} min`);

    await setBusyOverride(k.server.engine, kitchenActor(R1.id, 'live'), R1.openLocation, 'pause');
    await eventually(async () => (await chip(page).getAttribute('data-paused')) === 'true' || undefined, 'the pause on the strip');
    assert.equal(await chip(page).innerText(), `Pausado: espera ${lower} min`);

    for (const viewport of VIEWPORTS) {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await eventually(async () => (await page.locator('[data-testid="status-bar"]').boundingBox())?.width === viewport.width || undefined, 'the strip at the new width');
      const strip = (await page.locator('[data-testid="status-bar"]').boundingBox())!;
      assert.ok(strip.height <= 40, `${viewport.name}: the status strip is ${strip.height} px`);
      const path = join(SCREENS, `${viewport.name}-${viewport.width}x${viewport.height}.png`);
      await page.screenshot({ path });
      const shown = await chip(page).innerText();
      const { cut, overflows, waitCut, waitWidth, closedSaysClosed } = await stripCuts(page);
      console.log(
        `[kitchen-wait] ${viewport.name} ${viewport.width}x${viewport.height}: the chip says "${shown}" in ${waitWidth} px${waitCut ? ' (cut with an ellipsis)' : ''}, cut elsewhere ${JSON.stringify(cut)} (${path})`,
      );
      if (viewport.name === 'phone') {
        // A phone keeps the wait whole; a closed location's chip may end in an ellipsis (its detail is
        // a tap away) but still says "Cerrada:".
        assert.ok(cut.every((item) => item.startsWith('location-closed-chip')), `phone: cut besides the closed chip: ${JSON.stringify(cut)}`);
        assert.equal(closedSaysClosed, true, 'phone: the closed chip still says "Cerrada:"');
      } else {
        assert.deepEqual(cut, [], `${viewport.name}: the strip's other content is cut`);
      }
      assert.equal(overflows, false, `${viewport.name}: the strip overflows`);
      // The closed location's wait is left out (its chip says it takes no orders): one location, no name.
      assert.equal(shown, viewport.name === 'phone' ? `Pausado ${lower} min` : `Pausado: espera ${lower} min`);
      // On a 390 px phone too, beside a closed location's chip (its short form, "Cerrada: …"); it used
      // to be squeezed to "P…" there.
      assert.equal(waitCut, false, `${viewport.name}: the wait itself is cut`);
      assert.deepEqual(englishIn(await page.locator('[data-testid="status-bar"]').innerText()), [], `${viewport.name}: English words on the Spanish strip`);
    }
    await setBusyOverride(k.server.engine, kitchenActor(R1.id, 'live'), R1.openLocation, 'auto');
    await eventually(async () => (await chip(page).getAttribute('data-paused')) === 'false' || undefined, 'the pause gone from the strip');
  });
});

describe('the kitchen\'s wait on the strip of the desktop window (its bridge)', () => {
  let k: KitchenUnderTest;
  before(async () => {
    k = await startKitchenUnderTest();
  });
  after(async () => {
    await k?.stop();
  });

  test('orders make the shown wait rise', async () => {
    await k.open('board');
    await chip(k.page).waitFor();
    const idle = await shownMinutes(k.page);
    // Two dozens: the second waits for the first bake.
    for (let i = 0; i < 2; i++) await placeOrder(k.engine, { items: [dozen] });
    const listed = await k.engine.call('GET', '/locations');
    const busy = listed.body.data.find((l: { location_id: string }) => l.location_id === R1.openLocation).kitchen_wait_minutes as number;
    assert.ok(busy > idle, `two dozens: ${busy} min, idle ${idle} min`);
    await eventually(async () => (await shownMinutes(k.page)) === busy || undefined, `the window's strip shows ${busy} min`);
  });

  test('a wait over two hours says so, not its minutes ("Espera más de 2 h")', async () => {
    // Eight dozens more (ten with the test before): ten bakes of 12 minutes, over two hours of work.
    for (let i = 0; i < 8; i++) await placeOrder(k.engine, { items: [dozen] });
    const listed = await k.engine.call('GET', '/locations');
    const minutes = listed.body.data.find((l: { location_id: string }) => l.location_id === R1.openLocation).kitchen_wait_minutes as number;
    assert.ok(minutes > 120, `ten dozens at an oven of 12 at once: ${minutes} min`);
    await eventually(async () => (await shownMinutes(k.page)) === minutes || undefined, `the window's strip has ${minutes} min`);
    assert.equal(await chip(k.page).innerText(), 'Espera más de 2 h');
    const path = join(SCREENS, 'window-over-two-hours.png');
    await k.page.screenshot({ path });
    console.log(`[kitchen-wait] ${minutes} min shown as "${await chip(k.page).innerText()}" (${path})`);
  });
});
