// The board at a rush on a cheap tablet (issue 28): the CPU throttled 4× (CDP
// Emulation.setCPUThrottlingRate), the same 45 orders as board-rush.e2e at each screen size. A slow
// page must settle on the same board: the same tickets wholly in view and reachable, nothing cut
// without an ellipsis, no English, and a screenshot of each (docs/screens/board-at-a-rush/throttled-*).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { startServedKitchen, type ServedKitchen } from '../engine/http/kitchen/served-kitchen.ts';
import { cutText, measureBoard, rush, RUSH_VIEWPORTS } from './support/rush.ts';
import { englishIn } from './support/spanish-words.ts';
import { eventually } from '../support/eventually.ts';

const SCREENS = resolve(import.meta.dirname, '../../docs/screens/board-at-a-rush');
const THROTTLE = 4;

describe(`the board at a rush with the CPU throttled ${THROTTLE}× (Chromium over HTTP, served engine)`, () => {
  let k: ServedKitchen;

  before(async () => {
    k = await startServedKitchen();
    await rush(k);
  });
  after(async () => {
    await k?.close();
  });

  for (const viewport of RUSH_VIEWPORTS) {
    test(`${viewport.name} ${viewport.width}×${viewport.height}, throttled: at least ${viewport.atLeast} tickets wholly in view, every one reachable, nothing cut`, async () => {
      const { context, page } = await k.tablet({ width: viewport.width, height: viewport.height });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
      await page.goto(await k.pairingUrl());
      await page.locator('[data-testid="board"]').waitFor();
      await eventually(async () => Number(await page.locator('[data-testid="board"]').getAttribute('data-active')) >= 45, '45 orders on the board');
      await eventually(async () => (await measureBoard(page)).whole >= viewport.atLeast, `${viewport.atLeast} tickets wholly in view`);
      const measure = await measureBoard(page);
      const path = join(SCREENS, `throttled-${viewport.name}-${viewport.width}x${viewport.height}.png`);
      await page.screenshot({ path });
      console.log(`[rush, ${THROTTLE}× slower] ${viewport.name} ${viewport.width}x${viewport.height}: ${measure.whole} tickets wholly in view, ${measure.reachable} reachable, ${measure.split} in fragments (${path})`);
      assert.deepEqual(measure.problems, [], viewport.name);
      assert.equal(measure.pageScrollsSideways, false, `${viewport.name}: the page scrolls sideways`);
      assert.deepEqual(await cutText(page), [], `${viewport.name}: text cut without an ellipsis`);
      assert.deepEqual(englishIn(await page.locator('[data-testid="app"]').innerText()), [], `${viewport.name}: English words on the Spanish board`);
      await context.close();
    });
  }
});
