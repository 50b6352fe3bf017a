// The board at a real rush, as a tablet sees it: a served engine over real HTTP, 45 active orders,
// and a paired browser at each screen size a kitchen uses. Counts the tickets wholly in view,
// measures the item text, the room above the first row, the bump buttons and sideways scrolling,
// and saves a screenshot of each (test-artifacts/rush-*.png).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { R1 } from '../support/demo-ids.ts';
import { startServedKitchen, type ServedKitchen } from '../engine/http/kitchen/served-kitchen.ts';
import { cutText, measureBoard, rush, RUSH_VIEWPORTS } from './support/rush.ts';
import { FAMILY_LINES } from '../../src/shared/demo-rush.ts';
import { englishIn } from './support/spanish-words.ts';
import { eventually } from '../support/eventually.ts';

/** The screenshots of this file, kept with the docs (docs/desktop.md). */
const SCREENS = resolve(import.meta.dirname, '../../docs/screens/board-at-a-rush');

describe('the board at a rush: 45 orders on every screen (Chromium over HTTP, served engine)', () => {
  let k: ServedKitchen;
  let made: Awaited<ReturnType<typeof rush>>;

  before(async () => {
    k = await startServedKitchen();
    made = await rush(k);
  });
  after(async () => {
    await k?.close();
  });

  for (const viewport of RUSH_VIEWPORTS) {
    test(`${viewport.name} ${viewport.width}×${viewport.height}: at least ${viewport.atLeast} tickets wholly in view, every ticket in view reachable, columns full, the undo tray over no bump; the family order paged into view`, async () => {
      const { page } = await k.tablet({ width: viewport.width, height: viewport.height });
      await page.goto(await k.pairingUrl());
      await page.locator('[data-testid="board"]').waitFor();
      await eventually(async () => Number(await page.locator('[data-testid="board"]').getAttribute('data-active')) >= 45, '45 orders on the board');
      // The plan has settled on the lanes' measured size.
      await eventually(async () => (await measureBoard(page)).whole > 0, 'tickets laid out');
      const measure = await measureBoard(page);
      const path = join(SCREENS, `${viewport.name}-${viewport.width}x${viewport.height}.png`);
      await page.screenshot({ path });
      console.log(
        `[rush] ${viewport.name} ${viewport.width}x${viewport.height}: ${measure.whole} tickets wholly in view, ${measure.reachable} reachable, ${measure.split} in fragments, least-filled column ${(measure.minCoverage * 100).toFixed(0)}%, item text ${measure.minItemPx} px, ${measure.aboveFirstRow} px above the first row (${path})`,
      );
      assert.deepEqual(measure.problems, [], viewport.name);
      assert.equal(measure.pageScrollsSideways, false, `${viewport.name}: the page scrolls sideways`);
      assert.ok(measure.minItemPx >= viewport.itemPx, `${viewport.name}: item text ${measure.minItemPx} px, want ≥ ${viewport.itemPx}`);
      if (viewport.name === 'landscape') assert.ok(measure.aboveFirstRow <= 100, `1280×800: ${measure.aboveFirstRow} px above the first ticket row, want ≤ 100`);
      assert.ok(measure.minCoverage >= 0.85, `${viewport.name}: a column in view is ${(measure.minCoverage * 100).toFixed(0)}% full while its lane hides tickets`);
      assert.deepEqual(await cutText(page), [], `${viewport.name}: text cut without an ellipsis`);
      // The lanes' tabs (paged lanes: the phone) read their names whole: "Nuevos", never "Nuev…".
      const cutTabs = await page.locator('[data-testid="column-tab"] .column-tab-name').evaluateAll((names) => names.filter((name) => name.scrollWidth > name.clientWidth + 1).map((name) => name.textContent));
      assert.deepEqual(cutTabs, [], `${viewport.name}: a lane tab's name is cut`);
      assert.deepEqual(englishIn(await page.locator('[data-testid="app"]').innerText()), [], `${viewport.name}: English words on the Spanish board`);
      // Every lane says its name and, when it hides some, how many and which page.
      for (const lane of await page.locator('.lanes .lane:not(.collapsed)').all()) {
        const name = lane.locator('.column-name');
        assert.ok((await name.innerText()).length > 0 && (await name.isVisible()), 'the lane has its name');
        if (Number(await lane.getAttribute('data-hidden')) > 0) assert.match(await lane.locator('[data-testid="hidden-count"]').innerText(), /^\+\d+ · \d+\/\d+$/);
      }
      // The chrome: one strip of at most 40 px (sound, the closed location, connection), nothing else over the board.
      const strip = (await page.locator('[data-testid="status-bar"]').boundingBox())!;
      assert.ok(strip.height <= 40, `${viewport.name}: the status strip is ${strip.height} px`);
      assert.equal(await page.locator('[data-testid="location-closed-banner"]').count(), 1, 'the closed location is in the strip');
      // A bump at the bottom right: the undo tray comes in its own place, over no bump target.
      const bumps = await page.locator('.lanes [data-testid="bump"]').evaluateAll((els) => els.map((el) => ({ id: el.closest('article')!.getAttribute('data-order-id')!, ...el.getBoundingClientRect().toJSON() })));
      const corner = bumps.filter((b) => b.bottom <= viewport.height && b.right <= viewport.width).sort((x, y) => y.right + y.bottom - (x.right + x.bottom))[0]!;
      await page.mouse.click(corner.x + corner.width / 2, corner.y + corner.height / 2);
      const tray = page.locator('[data-testid="undo-tray"]');
      await tray.waitFor();
      const trayBox = (await tray.boundingBox())!;
      const after = await page.locator('.lanes [data-testid="bump"]').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
      const covered = after.filter((b) => b.left < trayBox.x + trayBox.width && b.right > trayBox.x && b.top < trayBox.y + trayBox.height && b.bottom > trayBox.y);
      assert.deepEqual(covered, [], `${viewport.name}: the undo tray covers a bump`);
      // Taken back (a touch well after the guard), the rush stays as it was for the next screen.
      await eventually(async () => (await page.evaluate(() => performance.now())) > 0 && (await page.locator('[data-testid="undo"]').count()) === 1, 'the undo button');
      const bumpedAt = await page.evaluate(() => performance.now());
      await eventually(async () => (await page.evaluate(() => performance.now())) > bumpedAt + 800, 'past the tap guard');
      await page.locator('[data-testid="undo"]').click();
      await eventually(async () => (await page.locator('[data-testid="undo-tray"]').count()) === 0, 'the move taken back');
      if (viewport.name === 'tv') {
        // A note that mentions an allergy looks like an allergen, never like an ordinary note; an
        // order's own allergy note is the order's, above its items.
        const allergy = page.locator('.lanes .order-note[data-allergy="true"]').first();
        assert.match(await allergy.innerText(), /ALÉRGENO · todo el pedido/);
        assert.equal(await page.locator('.item-note[data-allergy="true"]', { hasText: 'sin mayo' }).count(), 0);
      }
      // The rush's family order of 12 lines, paged into view: every fragment with its number and bump.
      const family = made.find((o) => o.items === FAMILY_LINES)!;
      const fragments = page.locator(`.lanes article[data-order-id="${family.id}"]`);
      // Its lane (a phone: its tab), then its lane's pages, until its first fragment is in view.
      const tab = page.locator(`[data-testid="column-tab"][data-column-tab="${family.state}"]`);
      if ((await tab.count()) > 0) await tab.click();
      const lane = page.locator(`.lanes [data-column="${family.state}"]`);
      await eventually(async () => {
        if ((await fragments.count()) > 0) return true;
        const pager = lane.locator('[data-testid="hidden-count"]');
        if ((await pager.count()) > 0) await pager.click();
        return false;
      }, 'the family order in view');
      await page.screenshot({ path: join(SCREENS, `family-order-${viewport.name}-${viewport.width}x${viewport.height}.png`) });
      for (const fragment of await fragments.all()) {
        assert.equal(await fragment.locator('.ticket-number').innerText(), `#${family.number}`);
        assert.equal(await fragment.locator('[data-testid="bump"]').count(), 1);
      }
      console.log(`[rush] family order #${family.number} at ${viewport.width}x${viewport.height}: ${await fragments.count()} fragment(s) in view of ${await fragments.first().getAttribute('data-parts')}`);
      // The figure last, so every other check and both screenshots are made whatever it is.
      assert.ok(measure.whole >= viewport.atLeast, `${viewport.name}: ${measure.whole} tickets wholly in view, want ≥ ${viewport.atLeast}`);
      await page.context().close();
    });
  }

  test('"Flujo": every active ticket in one grid by age, its state as a band; the choice is kept on the screen', async () => {
    const { page } = await k.tablet({ width: 1280, height: 800 });
    await page.goto(await k.pairingUrl());
    await page.locator('[data-testid="board"]').waitFor();
    await page.locator('[data-testid="screen-menu"]').click();
    await page.locator('[data-testid="layout"]').selectOption('flow');
    await page.locator('[data-testid="menu-close"]').click();
    await eventually(async () => (await page.locator('[data-testid="board"]').getAttribute('data-layout')) === 'flow', 'the flow layout');
    await eventually(async () => (await measureBoard(page)).whole > 0, 'tickets laid out');
    const measure = await measureBoard(page);
    await page.screenshot({ path: join(SCREENS, 'flow-landscape-1280x800.png') });
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

  test('a ticket taller than the screen continues in the next column under its own header, every fragment with its bump', async () => {
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
    await page.goto(await k.pairingUrl());
    await page.locator('[data-testid="board"]').waitFor();
    // A tap on its lane's pager until its first fragment is in view.
    const fragments = page.locator(`.lanes article[data-order-id="${long.body.id}"]`);
    await eventually(async () => {
      if ((await fragments.count()) > 0) return true;
      await page.locator('[data-column="recibido"] [data-testid="hidden-count"]').click();
      return false;
    }, 'the long ticket in view');
    const parts = Number(await fragments.first().getAttribute('data-parts'));
    assert.ok(parts >= 2, `drawn in ${parts} fragments`);
    assert.match(await fragments.first().locator('[data-testid="split"]').innerText(), /^1\/\d+ →$/);
    for (const fragment of await fragments.all()) {
      assert.equal(await fragment.locator('.ticket-number').innerText(), `#${long.body.number}`);
      const bump = fragment.locator('[data-testid="bump"]');
      const box = (await bump.boundingBox())!;
      assert.ok(box.height >= 48, `the bump of every fragment is ${box.height} px high`);
    }
    await page.screenshot({ path: join(SCREENS, 'long-ticket-1280x800.png') });
    await page.context().close();
  });
});
