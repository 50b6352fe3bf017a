// The undo tray has a place of its own (issue 28; round 12): the status strip's end, in its flow,
// while a move can be taken back. Over the top bar's tools (its place until round 12) it hid
// "☰ Pantalla" and the sound button for the 5 s after every bump: a cook who bumped and then wanted
// the menu could not reach it. Here: at seven window sizes, the tray covers no control (every
// button, tab, select of the page), no ticket and no chip of the strip, the menu and the sound
// button take a tap while it is up, and the tray says its move whole, on screen.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { placeOrder, startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';

/** The window with the tray up, at each size, kept with the docs (docs/screens/board-at-a-rush). */
const screenOf = (width: number, height: number) => resolve(import.meta.dirname, `../../docs/screens/board-at-a-rush/undo-tray-window-${width}x${height}.png`);
/** Sizes whose picture is kept (the others are checked only). */
const PICTURED = new Set(['1280x800', '820x1180', '800x1280', '390x844', '1920x1080']);

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1240, height: 800 },
  { width: 1366, height: 768 },
  { width: 1180, height: 820 },
  { width: 1920, height: 1080 },
  { width: 820, height: 1180 },
  { width: 800, height: 1280 },
  { width: 390, height: 844 },
];

describe('the undo tray in the window (Chromium, real engine)', () => {
  let k: KitchenUnderTest;

  before(async () => {
    k = await startKitchenUnderTest();
    // The undo window stays open while the test looks (the page's clock, not real time).
    await k.page.clock.install();
  });
  after(async () => {
    await k?.stop();
  });

  for (const viewport of VIEWPORTS) {
    test(`${viewport.width}×${viewport.height}: the tray covers no control, ticket or chip, the menu and sound take a tap, and it says its move whole`, async () => {
      await k.page.setViewportSize(viewport);
      const order = await placeOrder(k.engine);
      await k.open();
      const ticket = k.page.locator(`.lanes article[data-order-id="${order.id}"]`).first();
      const bump = ticket.locator('[data-testid="bump"]');
      await bump.scrollIntoViewIfNeeded();
      await bump.click();
      const tray = k.page.locator('[data-testid="undo-tray"]');
      await tray.waitFor();
      const box = (await tray.boundingBox())!;
      assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height, `the tray is on screen: ${JSON.stringify(box)}`);
      const overlaps = (b: { left: number; right: number; top: number; bottom: number }) => b.left < box.x + box.width && b.right > box.x && b.top < box.y + box.height && b.bottom > box.y;
      // Every control of the page but the tray's own, every ticket, the strip's chips and texts, the brand.
      const others = await k.page
        .locator('button, select, input, a[href], [role="button"], .top-bar .brand > *, .top-bar .clock, .lanes article, .status-bar > *')
        .evaluateAll((els) =>
          els
            .filter((el) => !el.closest('[data-testid="undo-tray"]') && el.getAttribute('data-testid') !== 'undo-tray')
            .map((el) => ({ what: `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 30)}"`, ...(el.getBoundingClientRect().toJSON() as DOMRect) }))
            .filter((b) => b.width > 0 && b.height > 0),
        );
      assert.ok(others.some((o) => o.what.includes('menu-button')) && others.some((o) => o.what.includes('btn-mute')), 'the menu and the sound button are drawn');
      assert.deepEqual(others.filter(overlaps).map((o) => o.what), [], `${viewport.width}×${viewport.height}: the undo tray covers these`);
      // The menu and the sound button take a tap while the tray is up (Playwright's check that the
      // point it would click reaches the button itself).
      await k.page.locator('[data-testid="screen-menu"]').click({ trial: true, timeout: 5000 });
      await k.page.locator('[data-testid="mute"]').click({ trial: true, timeout: 5000 });
      // The strip keeps its height; the views' tabs read whole.
      const strip = (await k.page.locator('[data-testid="status-bar"]').boundingBox())!;
      assert.ok(strip.height <= 40, `the status strip is ${strip.height} px`);
      const cut = await k.page.locator('.top-bar .tabs .tab').evaluateAll((tabs) =>
        tabs
          .filter((tab) => {
            const nav = tab.parentElement!.getBoundingClientRect();
            const own = tab.getBoundingClientRect();
            return tab.scrollWidth > tab.clientWidth + 1 || own.left < nav.left - 0.5 || own.right > nav.right + 0.5;
          })
          .map((tab) => tab.textContent),
      );
      assert.deepEqual(cut, [], 'a view tab is cut');
      // The move's words fit the tray (never cut).
      const undo = k.page.locator('[data-testid="undo"]');
      assert.match(await undo.innerText(), new RegExp(`#${order.number}\\b`));
      assert.match(await undo.innerText(), /Deshacer/);
      assert.match(await undo.innerText(), /\b\ds\b/);
      const clipped = await undo.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
      assert.equal(clipped, false, 'the undo button cuts its words');
      // The strip's whole height, at the screen's edge: the biggest target the strip can give a thumb.
      // (Below the strip's top border, to the screen's bottom edge.)
      assert.ok(box.y <= strip.y + 2 && box.y + box.height >= viewport.height - 1, `the tray takes the strip's height to the edge (${box.height} of ${strip.height} px)`);
      if (PICTURED.has(`${viewport.width}x${viewport.height}`)) await k.page.screenshot({ path: screenOf(viewport.width, viewport.height) });
      // The undo window passes (on the page's clock): the next size starts with an empty tray.
      await k.page.clock.fastForward(5100);
      await tray.waitFor({ state: 'detached' });
    });
  }
});
