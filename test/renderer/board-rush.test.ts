// The board at a real rush, as a tablet sees it: a served engine over real HTTP, 45 active orders,
// and a paired browser at each screen size a kitchen uses. Counts the tickets wholly in view,
// measures the item text, the room above the first row, the bump buttons and sideways scrolling,
// and saves a screenshot of each (test-artifacts/rush-*.png).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServedKitchen, type ServedKitchen } from '../engine/http/kitchen/served-kitchen.ts';
import { ARTIFACTS } from './support/kitchen-under-test.ts';
import { measureBoard, rush, RUSH_VIEWPORTS } from './support/rush.ts';
import { eventually } from './support/wait.ts';

describe('the board at a rush: 45 orders on every screen (Chromium over HTTP, served engine)', () => {
  let k: ServedKitchen;

  before(async () => {
    k = await startServedKitchen();
    await rush(k);
  });
  after(async () => {
    await k?.close();
  });

  for (const viewport of RUSH_VIEWPORTS) {
    test(`${viewport.name} ${viewport.width}×${viewport.height}: at least ${viewport.atLeast} tickets wholly in view, text ≥ ${viewport.itemPx} px`, async () => {
      const { page } = await k.tablet({ width: viewport.width, height: viewport.height });
      await page.goto(k.pairingUrl());
      await page.locator('[data-testid="board"]').waitFor();
      await eventually(async () => Number(await page.locator('[data-testid="board"]').getAttribute('data-active')) >= 45, '45 orders on the board');
      // The plan has settled on the lanes' measured size.
      await eventually(async () => (await measureBoard(page)).whole > 0, 'tickets laid out');
      const measure = await measureBoard(page);
      const path = join(ARTIFACTS, `rush-${viewport.name}-${viewport.width}x${viewport.height}.png`);
      await page.screenshot({ path });
      console.log(`[rush] ${viewport.name} ${viewport.width}x${viewport.height}: ${measure.whole} tickets wholly in view, item text ${measure.minItemPx} px, ${measure.aboveFirstRow} px above the first row (${path})`);
      assert.deepEqual(measure.problems, [], viewport.name);
      assert.equal(measure.pageScrollsSideways, false, `${viewport.name}: the page scrolls sideways`);
      assert.ok(measure.whole >= viewport.atLeast, `${viewport.name}: ${measure.whole} tickets wholly in view, want ≥ ${viewport.atLeast}`);
      assert.ok(measure.minItemPx >= viewport.itemPx, `${viewport.name}: item text ${measure.minItemPx} px, want ≥ ${viewport.itemPx}`);
      if (viewport.name === 'landscape') assert.ok(measure.aboveFirstRow <= 100, `1280×800: ${measure.aboveFirstRow} px above the first ticket row, want ≤ 100`);
      await page.context().close();
    });
  }

  test('"Flujo": every active ticket in one grid by age, its state as a band; the choice is kept on the screen', async () => {
    const { page } = await k.tablet({ width: 1280, height: 800 });
    await page.goto(k.pairingUrl());
    await page.locator('[data-testid="board"]').waitFor();
    await page.locator('[data-testid="screen-menu"]').click();
    await page.locator('[data-testid="layout"]').selectOption('flow');
    await page.locator('[data-testid="menu-close"]').click();
    await eventually(async () => (await page.locator('[data-testid="board"]').getAttribute('data-layout')) === 'flow', 'the flow layout');
    await eventually(async () => (await measureBoard(page)).whole > 0, 'tickets laid out');
    const measure = await measureBoard(page);
    await page.screenshot({ path: join(ARTIFACTS, 'rush-flow-landscape-1280x800.png') });
    console.log(`[rush] flow 1280x800: ${measure.whole} tickets wholly in view`);
    assert.ok(measure.whole >= 6, `${measure.whole} tickets wholly in view in Flujo`);
    assert.deepEqual(measure.problems, []);
    // Oldest first, every state mixed, each card saying its state.
    const bands = await page.locator('.lanes .state-band').allInnerTexts();
    assert.ok(new Set(bands).size >= 2, `states mixed: ${[...new Set(bands)].join(', ')}`);
    await page.reload();
    await page.locator('[data-testid="board"]').waitFor();
    assert.equal(await page.locator('[data-testid="board"]').getAttribute('data-layout'), 'flow');
    await page.context().close();
  });
});
