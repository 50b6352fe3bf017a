// The board's per-line start (issue 32) on a paired tablet (touch, over real HTTP) against a served
// engine: at a station's view the first tap on a line starts it (drawn in progress, nothing moves),
// held for the undo window, then in the engine; the second tap bumps it; a wet finger's double touch
// only starts it; the undo tray takes a start back; a line started elsewhere shows started; a held
// line tapped is fired and started. Then the rush's 45 orders with lines started at a station, at
// 1280×800 and 820×1180, plain and with the CPU throttled 4×: screenshots in
// docs/screens/kitchen-promises/. The page's clock is Playwright's: the undo window passes when the
// test says; the touch guard goes by the touches' own timestamps (real time).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { startServedKitchen, type ServedKitchen } from '../engine/http/kitchen/served-kitchen.ts';
import { rush } from './support/rush.ts';
import { englishIn } from './support/spanish-words.ts';
import { kitchenActor } from '../../src/engine/screen/kitchen-handlers.ts';
import { setItemStarted } from '../../src/engine/services/kitchen/kitchen-items.ts';
import { TAP_GUARD_MS } from '../../src/renderer/src/state/board/pending-slice.ts';

const SCREENS = resolve(import.meta.dirname, '../../docs/screens/kitchen-promises');
const HOLD = 5100;
// Grill (plancha): completo; oven (horno): two empanadas de queso baked together (12 at once), 10 min
// against the completo's 5, so that the completo of an order with both is held to finish with it
// (resources/demo).
const completo = { product_id: R1.products.completo, quantity: 1 };
const empanada = { product_id: R1.products.empanadaQueso, quantity: 2 };

describe('the per-line start at a station (Chromium touch over HTTP, served engine)', () => {
  let k: ServedKitchen;
  let page: Page;

  const newOrder = async (items: { product_id: string; quantity: number }[], name: string) => {
    const created = await k.call('POST', '/orders', { body: { location_id: R1.openLocation, type: 'retiro', customer: { name }, items } });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: string; number: string };
  };
  /** The line as the engine has it: started (and when), done. */
  const engineLine = async (orderId: string, index: number) => {
    const state = (await k.server.engine.stores.kitchenData.itemStates(orderId)).find((s) => s.item_index === index);
    return { started: (state?.started_at ?? null) !== null, done: state?.done === 1 };
  };
  const logKinds = async (orderId: string, index: number) =>
    (await k.server.engine.stores.kitchenTimings.logOfOrder(orderId)).filter((r) => r.item_index === index).map((r) => `${r.kind}${r.source ? `:${r.source}` : ''}`);
  /** The grill's line of an order on the station's view (its only line there). */
  const grillLine = (orderId: string) => page.locator(`.lanes article[data-order-id="${orderId}"] [data-testid="item"][data-station="plancha"]`).first();
  const tapLine = async (orderId: string) => {
    const line = grillLine(orderId);
    await line.scrollIntoViewIfNeeded();
    const box = (await line.boundingBox())!;
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    return Date.now();
  };
  /** A touch after the guard: the touches' own timestamps are real time, which the page's clock does not move. */
  const afterGuard = (since: number) => eventually(async () => Date.now() > since + TAP_GUARD_MS + 50, 'past the touch guard');

  before(async () => {
    k = await startServedKitchen({ heartbeatMs: 300 });
    ({ page } = await k.tablet({ width: 1280, height: 800 }));
    await page.clock.install();
    await page.goto(await k.pairingUrl());
    await page.locator('[data-testid="board"]').waitFor();
    await page.locator('[data-testid="screen-menu"]').click();
    await page.locator('[data-testid="station"]').selectOption('plancha');
    await page.locator('[data-testid="menu-close"]').click();
  });
  after(async () => {
    await k?.close();
  });

  test('first tap: started on the screen at once, nothing moves, in the undo tray; then in the engine. Second tap: done', async () => {
    const order = await newOrder([completo], 'Primer toque');
    const line = grillLine(order.id);
    await line.waitFor();
    const card = page.locator(`.lanes article[data-order-id="${order.id}"]`).first();
    const before = { line: (await line.boundingBox())!, card: (await card.boundingBox())! };
    const tappedAt = await tapLine(order.id);
    await eventually(async () => (await line.getAttribute('data-started')) === 'true', 'drawn started');
    assert.equal(await line.getAttribute('data-done'), 'false');
    const mark = line.locator('[data-testid="started-mark"]');
    assert.equal(await mark.getAttribute('title'), '▶ en curso');
    assert.notEqual(await mark.getAttribute('data-place'), 'none', 'a station\'s wide card has room for the mark');
    assert.deepEqual({ line: await line.boundingBox(), card: await card.boundingBox() }, before, 'the line and its ticket keep their place and height');
    const undo = page.locator(`[data-testid="undo"][data-order-id="${order.id}"][data-kind="start"]`);
    assert.match(await undo.innerText(), new RegExp(`#${order.number} · Completo italiano en curso · Deshacer \\d+s`));
    assert.deepEqual(await engineLine(order.id, 0), { started: false, done: false }, 'held for the undo window');

    await page.clock.runFor(HOLD);
    await eventually(async () => (await engineLine(order.id, 0)).started, 'started in the engine');
    assert.deepEqual(await logKinds(order.id, 0), ['fired', 'started:explicit']);
    // The engine's word comes back with when it started: a minute on (the engine's clock, which the
    // board's timers follow through its heartbeats), the mark says so.
    k.clock.advance(61_000);
    await eventually(async () => (await mark.getAttribute('title')) === '▶ en curso · 1 min', 'a minute in progress');
    console.log(`screenshot: ${await shot('line-started-station-1280x800')}`);

    await afterGuard(tappedAt);
    await tapLine(order.id);
    await eventually(async () => (await line.getAttribute('data-done')) === 'true', 'struck on the screen');
    assert.equal(await line.getAttribute('data-started'), 'false');
    await eventually(async () => (await engineLine(order.id, 0)).done, 'done in the engine');
    assert.deepEqual(await logKinds(order.id, 0), ['fired', 'started:explicit', 'done:item']);
  });

  test('a double touch 150 ms apart only starts the line', async () => {
    const order = await newOrder([completo], 'Dedo mojado');
    const line = grillLine(order.id);
    await line.waitFor();
    await line.scrollIntoViewIfNeeded();
    const box = (await line.boundingBox())!;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.touchscreen.tap(x, y);
    await page.clock.runFor(150);
    await page.touchscreen.tap(x, y);
    await page.clock.runFor(HOLD);
    await eventually(async () => (await engineLine(order.id, 0)).started, 'started in the engine');
    await page.clock.runFor(HOLD);
    assert.deepEqual(await engineLine(order.id, 0), { started: true, done: false });
    assert.equal(await line.getAttribute('data-done'), 'false');
    assert.equal(await line.getAttribute('data-started'), 'true');
    assert.deepEqual(await logKinds(order.id, 0), ['fired', 'started:explicit']);
  });

  test('the undo tray takes a start back: never sent, not started', async () => {
    const order = await newOrder([completo], 'Me equivoqué');
    const line = grillLine(order.id);
    await line.waitFor();
    await tapLine(order.id);
    await eventually(async () => (await line.getAttribute('data-started')) === 'true', 'drawn started');
    await page.locator(`[data-testid="undo"][data-order-id="${order.id}"]`).tap();
    await eventually(async () => (await line.getAttribute('data-started')) === 'false', 'not started any more');
    await page.clock.runFor(HOLD * 2);
    assert.deepEqual(await engineLine(order.id, 0), { started: false, done: false });
    assert.deepEqual(await logKinds(order.id, 0), ['fired']);
  });

  test('a line started at another screen shows started here, and the first tap here bumps it', async () => {
    const order = await newOrder([completo], 'Otra pantalla');
    const line = grillLine(order.id);
    await line.waitFor();
    await setItemStarted(k.server.engine, kitchenActor(R1.id, 'live'), order.id, 0, true);
    await eventually(async () => (await line.getAttribute('data-started')) === 'true', 'started, live');
    const tappedAt = await tapLine(order.id);
    await eventually(async () => (await engineLine(order.id, 0)).done, 'done in the engine at once');
    assert.equal(await line.getAttribute('data-done'), 'true');
    await afterGuard(tappedAt);
  });

  test('a held line ("retenido hasta") tapped is fired and started', async () => {
    const order = await newOrder([empanada, completo], 'Retenido');
    const line = grillLine(order.id);
    await line.waitFor();
    await eventually(async () => (await line.locator('[data-testid="held-item"]').count()) === 1, 'the completo held for the empanadas');
    assert.match(await line.innerText(), /retenido hasta \d\d:\d\d/);
    const before = (await line.boundingBox())!;
    await tapLine(order.id);
    await eventually(async () => (await line.getAttribute('data-started')) === 'true', 'drawn started');
    assert.deepEqual(await line.boundingBox(), before, 'the held line keeps its place and height');
    await page.clock.runFor(HOLD);
    await eventually(async () => (await engineLine(order.id, 1)).started, 'started in the engine');
    assert.deepEqual((await k.server.engine.stores.kitchenTimings.heldOf(order.id)).map((h) => h.item_index), [], 'fired first');
    assert.deepEqual((await logKinds(order.id, 1)).slice(-3), ['held', 'fired', 'started:explicit']);
    await eventually(async () => (await line.locator('[data-testid="held-item"]').count()) === 0, 'no longer held on the screen');
  });

  const shot = async (name: string) => {
    const path = join(SCREENS, `${name}.png`);
    await page.screenshot({ path });
    return path;
  };
});

describe('started lines at the rush (Chromium over HTTP, served engine, 45 orders)', () => {
  let k: ServedKitchen;
  let started: number;

  before(async () => {
    k = await startServedKitchen();
    const orders = await rush(k);
    // Cooks have started the first line of the oldest tickets still cooking (recibido, en preparación).
    started = 0;
    for (const order of orders) {
      if (order.state !== 'recibido' && order.state !== 'en_preparacion') continue;
      const answer = await setItemStarted(k.server.engine, kitchenActor(R1.id, 'live'), order.id, 0, true).catch(() => null);
      if (answer?.changed) started++;
      if (started >= 6) break;
    }
    assert.ok(started >= 3, `${started} lines started`);
  });
  after(async () => {
    await k?.close();
  });

  for (const viewport of [{ width: 1280, height: 800 }, { width: 820, height: 1180 }]) {
    for (const throttle of [1, 4]) {
      const name = `rush-started-${viewport.width}x${viewport.height}${throttle > 1 ? '-throttled' : ''}`;
      test(`${viewport.width}×${viewport.height}${throttle > 1 ? `, CPU ${throttle}× slower` : ''}: started lines drawn whole, their mark inside the line, in Spanish`, async () => {
        const { context, page } = await k.tablet(viewport);
        if (throttle > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: throttle });
        await page.goto(await k.pairingUrl());
        await page.locator('[data-testid="board"]').waitFor();
        await eventually(async () => Number(await page.locator('[data-testid="board"]').getAttribute('data-active')) >= 45, '45 orders on the board');
        const marks = page.locator('.lanes [data-testid="item"][data-started="true"]');
        await eventually(async () => (await marks.count()) > 0, 'started lines in view');
        // Each mark sits inside its line's own box, covers none of its words, in type big enough to
        // read across a kitchen; where the line's words leave no room it is not drawn at all.
        const boxes = await marks.evaluateAll((lines) =>
          lines.map((line) => {
            const mark = line.querySelector<HTMLElement>('[data-testid="started-mark"]')!;
            const [l, m] = [line.getBoundingClientRect(), mark.getBoundingClientRect()];
            const range = document.createRange();
            const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
            let covers = false;
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              if (mark.contains(node) || !node.textContent?.trim()) continue;
              range.selectNodeContents(node);
              // A word's box reaches above its letters: entering the mark's band by 4 px or less covers none of them (StartedMark.tsx).
              for (const r of range.getClientRects()) if (r.width > 0 && r.left < m.right && r.right > m.left && Math.min(r.bottom, m.bottom) - Math.max(r.top, m.top) > 4) covers = true;
            }
            return {
              place: mark.dataset.place,
              inside: m.left >= l.left - 0.5 && m.right <= l.right + 0.5 && m.top >= l.top - 0.5 && m.bottom <= l.bottom + 0.5,
              covers,
              px: parseFloat(getComputedStyle(mark).fontSize),
              text: `${mark.title} (${mark.dataset.form})`,
            };
          }),
        );
        for (const box of boxes) {
          assert.ok(box.inside, `the mark "${box.text}" stays inside its line`);
          assert.ok(box.px >= 12, `the mark's type is ${box.px} px`);
          if (box.place !== 'none') assert.equal(box.covers, false, `the mark "${box.text}" (${box.place}) covers none of the line's words`);
        }
        const drawn = boxes.filter((b) => b.place !== 'none').length;
        assert.ok(drawn > 0, 'at least one mark drawn');
        assert.deepEqual(englishIn(await page.locator('[data-testid="app"]').innerText()), []);
        const path = join(SCREENS, `${name}.png`);
        await page.screenshot({ path });
        console.log(`[line starts at the rush] ${name}: ${boxes.length} started lines in view, ${drawn} with their mark (${boxes.filter((b) => b.place === 'bottom').length} at the foot, ${boxes.filter((b) => b.place !== 'none' && b.text.endsWith('(short)')).length} short), ${started} started in the engine; ${path}`);
        await context.close();
      });
    }
  }
});
