// The board at a real rush, as a tablet sees it: a served engine over real HTTP, 45 active orders,
// and a paired browser at each screen size a kitchen uses. Counts the tickets wholly in view,
// measures the item text, the room above the first row, the bump buttons and sideways scrolling,
// and saves a screenshot of each (test-artifacts/rush-*.png).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { R1 } from '../support/demo-ids.ts';
import { startServedKitchen, type ServedKitchen } from '../engine/http/kitchen/served-kitchen.ts';
import { ARTIFACTS } from './support/kitchen-under-test.ts';
import { measureBoard, rush, RUSH_VIEWPORTS } from './support/rush.ts';
import { eventually } from '../support/eventually.ts';

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
      // The chrome: one strip of at most 40 px (sound, the closed location, connection), nothing else over the board.
      const strip = (await page.locator('[data-testid="status-bar"]').boundingBox())!;
      assert.ok(strip.height <= 40, `${viewport.name}: the status strip is ${strip.height} px`);
      assert.equal(await page.locator('[data-testid="location-closed-banner"]').count(), 1, 'the closed location is in the strip');
      // A note that mentions an allergy looks like an allergen, never like an ordinary note.
      if (viewport.name === 'tv') {
        const allergy = page.locator('.item-note[data-allergy="true"]').first();
        assert.match(await allergy.innerText(), /ALÉRGENO\s+ALERGIA al maní/);
        assert.equal(await page.locator('.item-note[data-allergy="true"]', { hasText: 'sin mayo' }).count(), 0);
      }
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

  test('a ticket taller than the screen continues in the next column ("sigue →"), its bump in view', async () => {
    const long = await k.call('POST', '/orders', {
      body: {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Mesa larga' },
        items: Array.from({ length: 16 }, (_, i) => ({ product_id: R1.products.churrasco, quantity: 1 + i, modifier_option_ids: [R1.options.marraqueta], notes: `sin mayo, corte ${i + 1}` })),
      },
    });
    assert.equal(long.status, 201, long.text);
    const { page } = await k.tablet({ width: 1280, height: 800 });
    await page.goto(k.pairingUrl());
    const card = page.locator(`.lanes article[data-order-id="${long.body.id}"]`);
    await card.waitFor();
    await card.evaluate((el) => el.scrollIntoView({ inline: 'start', block: 'nearest' }));
    await eventually(async () => (await card.getAttribute('class'))?.includes('split') ?? false, 'the long ticket planned to continue in the next column');
    assert.equal(await card.locator('[data-testid="split"]').innerText(), 'sigue →');
    const fragments = await card.evaluate((el) => el.getClientRects().length);
    assert.ok(fragments >= 2, `drawn over ${fragments} columns`);
    // Its bump, at the end of the last column it runs over, is on screen and whole.
    const bump = card.locator('[data-testid="bump"]');
    const box = (await bump.boundingBox())!;
    const lane = (await card.evaluate((el) => el.closest('.column-tickets')!.getBoundingClientRect().toJSON())) as DOMRect;
    assert.ok(box.y >= lane.top && box.y + box.height <= lane.bottom && box.height >= 48, `bump at ${JSON.stringify(box)} inside the lane ${JSON.stringify(lane)}`);
    await page.screenshot({ path: join(ARTIFACTS, 'rush-long-ticket-1280x800.png') });
    await page.context().close();
  });
});
