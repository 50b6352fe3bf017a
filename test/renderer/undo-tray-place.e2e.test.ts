// The undo tray has a place of its own in the top bar (issue 28): over the tools it stands for
// while a move can be taken back, never over the views' navigation, the brand or a ticket. At
// 1280×800 the views' tabs ran past the nav's edge ("Ajustes" cut), under the tools and the tray.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { placeOrder, startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';

/** The top bar with the tray up, at 1280×800, kept with the docs (docs/screens/board-at-a-rush). */
const SCREEN = resolve(import.meta.dirname, '../../docs/screens/board-at-a-rush/undo-tray-window-1280x800.png');

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1240, height: 800 },
  { width: 1366, height: 768 },
  { width: 1180, height: 820 },
  { width: 1920, height: 1080 },
  { width: 820, height: 1180 },
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
    test(`${viewport.width}×${viewport.height}: the tray covers none of the views' tabs, the brand or a bump, and says its move whole`, async () => {
      await k.page.setViewportSize(viewport);
      const order = await placeOrder(k.engine);
      await k.open();
      const ticket = k.page.locator(`.lanes article[data-order-id="${order.id}"]`).first();
      await ticket.locator('[data-testid="bump"]').click();
      const tray = k.page.locator('[data-testid="undo-tray"]');
      await tray.waitFor();
      const box = (await tray.boundingBox())!;
      const overlaps = (b: { left: number; right: number; top: number; bottom: number }) => b.left < box.x + box.width && b.right > box.x && b.top < box.y + box.height && b.bottom > box.y;
      const others = await k.page
        .locator('.top-bar .tabs > *, .top-bar .brand > *, .lanes [data-testid="bump"]')
        .evaluateAll((els) => els.map((el) => ({ what: (el.textContent ?? '').trim() || el.className, ...(el.getBoundingClientRect().toJSON() as DOMRect) })));
      assert.ok(others.length > 0, 'the top bar and the board are drawn');
      assert.deepEqual(others.filter(overlaps).map((o) => o.what), [], `${viewport.width}×${viewport.height}: the undo tray covers these`);
      // The views' tabs read whole while the tray is up: each inside the nav, none cut.
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
      // The move's words fit the tray (wrapped, never cut).
      const undo = k.page.locator('[data-testid="undo"]');
      assert.match(await undo.innerText(), new RegExp(`#${order.number}`));
      const clipped = await undo.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
      assert.equal(clipped, false, 'the undo button cuts its words');
      if (viewport.width === 1280) await k.page.screenshot({ path: SCREEN, clip: { x: 0, y: 0, width: viewport.width, height: 200 } });
      // The undo window passes (on the page's clock): the next size starts with an empty tray.
      await k.page.clock.fastForward(5100);
      await tray.waitFor({ state: 'detached' });
    });
  }
});
