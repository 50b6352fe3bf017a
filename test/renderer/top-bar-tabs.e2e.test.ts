// The views' tabs stay where they are whichever view is shown (issue 28): they were centred in the
// room the tools left, and the board's own tools ("☰ Pantalla", the undo tray) are not on Informes,
// so the tabs jumped about 80 px sideways between Cocina and Informes, under the finger that
// switches views.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { placeOrder, startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];

describe("the views' tabs in the window (Chromium, real engine)", () => {
  let k: KitchenUnderTest;

  before(async () => {
    k = await startKitchenUnderTest();
    await placeOrder(k.engine);
  });
  after(async () => {
    await k?.stop();
  });

  for (const viewport of VIEWPORTS) {
    test(`${viewport.width}×${viewport.height}: every tab has the same x on Cocina and on Informes`, async () => {
      await k.page.setViewportSize(viewport);
      await k.open();
      await k.page.locator('.lanes article[data-order-id]').first().waitFor();
      const tabs = () =>
        k.page.locator('.top-bar .tabs .tab').evaluateAll((els) => els.map((el) => ({ tab: el.getAttribute('data-testid'), x: Math.round(el.getBoundingClientRect().left) })));
      const onBoard = await tabs();
      assert.ok(onBoard.length >= 2, 'the views are tabs at this width');
      await k.page.locator('[data-testid="nav-reports"]').click();
      await k.page.locator('.app.view-reports').waitFor();
      assert.deepEqual(await tabs(), onBoard, 'the tabs moved when Informes was opened');
      await k.page.locator('[data-testid="nav-board"]').click();
      await k.page.locator('.app.view-board').waitFor();
      assert.deepEqual(await tabs(), onBoard, 'the tabs moved back on Cocina');
    });
  }
});
