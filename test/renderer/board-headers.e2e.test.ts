// What the lead saw on a fresh clone (issue 28, round 5), reproduced on a paired browser over HTTP:
// the first board with no orders said nothing; in a ticket's header at 1280×800 the NUEVO badge read
// "N…" beside DESPACHO and the part badge, and at 1180×820 the part badge ("1/2 →") was squeezed to
// a sliver; the brand must read "Comanda" whole at every size.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { R1, R2 } from '../support/demo-ids.ts';
import { startServedKitchen, type ServedKitchen } from '../engine/http/kitchen/served-kitchen.ts';
import { join, resolve } from 'node:path';
import { cutText, rush, RUSH_VIEWPORTS } from './support/rush.ts';
import { englishIn } from './support/spanish-words.ts';
import { eventually } from '../support/eventually.ts';

/** The screenshots of this file, kept with the docs. */
const SCREENS = resolve(import.meta.dirname, '../../docs/screens/board-at-a-rush');

/** Every badge of every ticket header in view: whole, or (NUEVO and the like) not drawn at all; never cut, not even with an ellipsis. */
async function cutBadges(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    for (const tags of document.querySelectorAll<HTMLElement>('.lanes .ticket .head-tags')) {
      const area = tags.getBoundingClientRect();
      if (area.bottom < 0 || area.top > window.innerHeight || area.right < 0 || area.left > window.innerWidth) continue;
      const number = tags.closest('article')?.getAttribute('data-number');
      for (const badge of tags.querySelectorAll<HTMLElement>('.ticket-type, .badge')) {
        const box = badge.getBoundingClientRect();
        const shown = box.width > 0 && box.top < area.bottom - 1 && box.bottom > area.top + 1 && box.left < area.right - 1;
        if (!shown) {
          // NUEVO and the like may be left out where they do not fit; the type and a fragment's part never.
          if (badge.matches('.ticket-type, .badge-split')) cut.push(`#${number}: "${badge.textContent}" left out (tags ${area.width.toFixed(0)} px, the type ${tags.querySelector('.ticket-type')!.getBoundingClientRect().width.toFixed(0)}, it ${box.width.toFixed(0)})`);
          continue;
        }
        const whole = badge.scrollWidth <= badge.clientWidth + 1 && box.right <= area.right + 1 && box.bottom <= area.bottom + 1;
        if (!whole) cut.push(`#${number}: "${badge.textContent}" drawn ${box.width.toFixed(0)} px wide of ${badge.scrollWidth}`);
      }
    }
    return cut;
  });
}

describe("the board's words on a fresh clone (Chromium over HTTP, served engine)", () => {
  let k: ServedKitchen;

  before(async () => {
    k = await startServedKitchen();
  });
  after(async () => {
    await k?.close();
  });

  test('a board with no orders says so, and what happens next, at every size', async () => {
    for (const viewport of RUSH_VIEWPORTS) {
      const { page, context } = await k.tablet({ width: viewport.width, height: viewport.height });
      await page.goto(await k.pairingUrl(R2.id));
      await page.locator('[data-testid="board"]').waitFor();
      assert.equal(await page.locator('[data-testid="board"]').getAttribute('data-active'), '0', 'the second demo restaurant has no orders');
      const empty = page.locator('[data-testid="board-empty"]');
      await empty.waitFor();
      assert.ok(await empty.isVisible(), `${viewport.name}: the empty board says so`);
      const text = await empty.innerText();
      assert.match(text, /Sin pedidos por ahora/);
      assert.match(text, /aparece aquí/);
      const box = (await empty.boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= viewport.width + 0.5 && box.y >= 0 && box.y + box.height <= viewport.height, `${viewport.name}: the words are in view`);
      assert.deepEqual(await cutText(page), [], `${viewport.name}: text cut without an ellipsis`);
      assert.deepEqual(englishIn(await page.locator('[data-testid="app"]').innerText()), [], `${viewport.name}: English words on the Spanish board`);
      await page.screenshot({ path: join(SCREENS, `empty-${viewport.name}-${viewport.width}x${viewport.height}.png`) });
      await context.close();
    }
  });

  test('a new delivery order split over two columns reads DESPACHO, NUEVO and its part whole, or leaves a badge out: never "N…" nor a sliver', { timeout: 300_000 }, async () => {
    await rush(k);
    for (const viewport of RUSH_VIEWPORTS) {
      const { page, context } = await k.tablet({ width: viewport.width, height: viewport.height });
      await page.goto(await k.pairingUrl());
      await page.locator('[data-testid="board"]').waitFor();
      await eventually(async () => Number(await page.locator('[data-testid="board"]').getAttribute('data-active')) >= 45, '45 orders on the board');
      // Brand whole: "Comanda", never "Comand".
      const brand = page.locator('.top-bar .logo');
      assert.equal(await brand.innerText(), 'Comanda');
      assert.ok(await brand.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().left >= 0), `${viewport.name}: the brand is whole`);
      // A new, long delivery order arrives: it rings (NUEVO) and is brought into view by the indicator.
      const created = await k.call('POST', '/orders', {
        body: {
          location_id: R1.openLocation,
          type: 'delivery',
          address: 'Av. Grecia 1234, Ñuñoa',
          customer: { name: `Familia ${viewport.name}`, phone: '+56 9 1234 5678' },
          items: Array.from({ length: 14 }, (_, i) => ({ product_id: R1.products.churrasco, quantity: 1 + (i % 3), modifier_option_ids: [R1.options.marraqueta], notes: `corte ${i + 1}` })),
        },
      });
      assert.equal(created.status, 201, created.text);
      const fragments = page.locator(`.lanes article[data-order-id="${created.body.id}"]`);
      await eventually(async () => {
        if ((await fragments.count()) > 0) return true;
        const indicator = page.locator('[data-testid="new-orders-indicator"]');
        if (await indicator.isVisible()) await indicator.click();
        return false;
      }, `${viewport.name}: the new order in view`);
      assert.equal(await fragments.first().getAttribute('data-ringing'), 'true');
      await page.screenshot({ path: join(SCREENS, `new-split-${viewport.name}-${viewport.width}x${viewport.height}.png`) });
      assert.deepEqual(await cutBadges(page), [], `${viewport.name}: badges cut`);
      // A split ticket's part is always read whole.
      if (Number(await fragments.first().getAttribute('data-parts')) > 1) {
        const split = fragments.first().locator('[data-testid="split"]');
        assert.ok(await split.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().width >= 30), `${viewport.name}: the part badge is whole`);
      }
      await context.close();
    }
  });
});
