// The undo tray has a place of its own in the top bar (issue 28; round 12): just before the tools
// ("☰ Pantalla", sound, clock), in the room the views' tabs leave, while a move can be taken back.
// Over the tools (its place until round 12) it hid "☰ Pantalla" and the sound button for the 5 s
// after every bump; in the status strip (e4f981a, reverted) its button was 34 px tall (28 on a
// phone), under the board's 48-px touch targets. Here, at six window sizes: the undo button is at
// least 48×48 px with its words whole, it covers no control a cook can see (button, tab, select,
// ticket, the brand, the strip), the menu and the sound button take a tap while it is up, and
// nothing under a finger moved when it came (the lanes, the tools, the top bar keep their boxes).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { placeOrder, startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';

/** The window with the tray up, at each size, kept with the docs (docs/screens/board-at-a-rush). */
const screenOf = (width: number, height: number) => resolve(import.meta.dirname, `../../docs/screens/board-at-a-rush/undo-tray-window-${width}x${height}.png`);

const VIEWPORTS = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 800 },
  { width: 1180, height: 820 },
  { width: 820, height: 1180 },
  { width: 800, height: 1280 },
  { width: 390, height: 844 },
];

/** The boxes a finger may be on when the tray comes: they must not move. */
const STEADY = ['.top-bar', '.top-bar .brand', '.top-bar .top-tools', '[data-testid="screen-menu"]', '[data-testid="mute"]', '.lanes', '[data-testid="status-bar"]'];

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
    test(`${viewport.width}×${viewport.height}: the undo button is 48 px or more with its words whole, covers no control, the menu and sound take a tap, nothing moves`, async () => {
      await k.page.setViewportSize(viewport);
      const order = await placeOrder(k.engine);
      await k.open();
      const ticket = k.page.locator(`.lanes article[data-order-id="${order.id}"]`).first();
      const bump = ticket.locator('[data-testid="bump"]');
      await bump.scrollIntoViewIfNeeded();
      const boxesOf = () =>
        k.page.evaluate((selectors) => selectors.map((s) => ({ s, box: document.querySelector(s)?.getBoundingClientRect().toJSON() as DOMRect | undefined })), STEADY);
      const before = await boxesOf();
      assert.ok(before.every((b) => b.box), `drawn: ${JSON.stringify(before.filter((b) => !b.box))}`);
      await bump.click();
      const tray = k.page.locator('[data-testid="undo-tray"]');
      await tray.waitFor();
      // Nothing under a finger moved (the tray is out of the flow).
      assert.deepEqual(await boxesOf(), before, `${viewport.width}×${viewport.height}: a box moved when the tray came`);

      const box = (await tray.boundingBox())!;
      assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height, `the tray is on screen: ${JSON.stringify(box)}`);
      const overlaps = (b: { left: number; right: number; top: number; bottom: number }) => b.left < box.x + box.width && b.right > box.x && b.top < box.y + box.height && b.bottom > box.y;
      // Every control a cook can see but the tray's own, every ticket, the brand, the clock, the strip.
      const others = await k.page
        .locator('button, select, input, a[href], [role="button"], .top-bar .brand > *, .top-bar .clock, .lanes article, .status-bar')
        .evaluateAll((els) =>
          els
            .filter((el) => !el.closest('[data-testid="undo-tray"]') && el.checkVisibility({ visibilityProperty: true }))
            .map((el) => ({ what: `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 30)}"`, ...(el.getBoundingClientRect().toJSON() as DOMRect) }))
            .filter((b) => b.width > 0 && b.height > 0),
        );
      assert.ok(others.some((o) => o.what.includes('menu-button')) && others.some((o) => o.what.includes('btn-mute')), 'the menu and the sound button are drawn');
      assert.deepEqual(others.filter(overlaps).map((o) => o.what), [], `${viewport.width}×${viewport.height}: the undo tray covers these`);
      // The menu and the sound button take a tap while the tray is up (Playwright checks that the
      // point it would click reaches the button itself).
      await k.page.locator('[data-testid="screen-menu"]').click({ trial: true, timeout: 5000 });
      await k.page.locator('[data-testid="mute"]').click({ trial: true, timeout: 5000 });
      // The views' tabs a cook can see read whole while the tray is up.
      const cut = await k.page.locator('.top-bar .tabs .tab').evaluateAll((tabs) =>
        tabs
          .filter((tab) => tab.checkVisibility({ visibilityProperty: true }))
          .filter((tab) => {
            const nav = tab.parentElement!.getBoundingClientRect();
            const own = tab.getBoundingClientRect();
            return tab.scrollWidth > tab.clientWidth + 1 || own.left < nav.left - 0.5 || own.right > nav.right + 0.5;
          })
          .map((tab) => tab.textContent),
      );
      assert.deepEqual(cut, [], 'a view tab is cut');
      // A wet finger's target, its words whole.
      const undo = k.page.locator('[data-testid="undo"]');
      const target = (await undo.boundingBox())!;
      assert.ok(target.width >= 48 && target.height >= 48, `the undo button is ${target.width}×${target.height} px`);
      assert.match(await undo.innerText(), new RegExp(`#${order.number}\\b`));
      assert.match(await undo.innerText(), /Deshacer/);
      assert.match(await undo.innerText(), /\b\ds\b/);
      const clipped = await undo.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
      assert.equal(clipped, false, 'the undo button cuts its words');
      await k.page.screenshot({ path: screenOf(viewport.width, viewport.height) });
      // The undo window passes (on the page's clock): the next size starts with an empty tray.
      await k.page.clock.fastForward(5100);
      await tray.waitFor({ state: 'detached' });
    });
  }
});
