// The board under a cook's fingers at the rush's peak (the project's rush, 45 active orders, a
// served engine over real HTTP, Chromium): nothing moves under a finger for 1.5 s after a bump, not
// even when an order arrives; a tap on the new-orders indicator brings that ticket wholly into view;
// and on a cheap tablet (CPU throttled 4× through CDP) 20 double touches 150 ms apart, the
// bottom-right corner included, each move their ticket exactly one step, read over /v1.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { bumpTarget, type OrderStatus, type OrderType } from '../../src/shared/order-states.ts';
import { startServedKitchen, type ServedKitchen } from '../engine/http/kitchen/served-kitchen.ts';
import { eventually } from '../support/eventually.ts';
import { eveningOrder, keepNames, rush } from './support/rush.ts';


interface BumpBox {
  key: string;
  id: string;
  status: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every bump target drawn on the lanes: its ticket, fragment and box. */
async function bumpBoxes(page: Page): Promise<BumpBox[]> {
  await keepNames(page);
  return page.locator('.lanes [data-testid="bump"]').evaluateAll((els) =>
    els.map((el) => {
      const card = el.closest('article')!;
      const r = el.getBoundingClientRect();
      return { key: `${card.dataset.orderId}:${card.dataset.part}`, id: card.dataset.orderId!, status: card.dataset.status!, x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
}

/** The page's own clock (performance.now), ms. */
const pageNow = (page: Page) => page.evaluate(() => performance.now());

describe('the board under a finger at the rush (Chromium over HTTP, served engine)', () => {
  let k: ServedKitchen;
  let extra = 1000;
  const statusOf = async (id: string) => (await k.call('GET', `/orders/${id}`)).body.status as string;
  const postOrder = async () => {
    const created = await k.call('POST', '/orders', { body: eveningOrder(extra++, { scheduled: false }) });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: string; number: string };
  };
  const openBoard = async (width: number, height: number) => {
    const { page } = await k.tablet({ width, height });
    await page.goto(await k.pairingUrl());
    await page.locator('[data-testid="board"]').waitFor();
    await eventually(async () => Number(await page.locator('[data-testid="board"]').getAttribute('data-active')) >= 45, 'the rush on the board');
    await eventually(async () => (await bumpBoxes(page)).length > 0, 'tickets laid out');
    return page;
  };

  before(async () => {
    k = await startServedKitchen();
    await rush(k);
  });
  after(async () => {
    await k?.close();
  });

  test('after a bump, no bump target in view moves for 1.5 s, even when a new order arrives; then the board settles', async () => {
    const page = await openBoard(1280, 800);
    const before = await bumpBoxes(page);
    const target = before.find((b) => b.status === 'recibido')!;
    await page.mouse.click(target.x + target.width / 2, target.y + target.height / 2);
    const tappedAt = await pageNow(page);
    await eventually(async () => (await page.locator(`.lanes article[data-order-id="${target.id}"]`).first().getAttribute('data-status')) === 'en_preparacion', 'the tapped ticket shows its new state in place');
    await postOrder();
    // Read the boxes again and again until 1.5 s of the page's clock have passed since the tap.
    let reads = 0;
    await eventually(async () => {
      const now = await bumpBoxes(page);
      const elapsed = (await pageNow(page)) - tappedAt;
      if (elapsed >= 1450) return true;
      reads++;
      for (const box of before) {
        const still = now.find((b) => b.key === box.key);
        assert.ok(still, `${box.key}'s bump left the screen ${elapsed.toFixed(0)} ms after the tap`);
        assert.deepEqual([still.x, still.y, still.width, still.height], [box.x, box.y, box.width, box.height], `${box.key}'s bump moved ${elapsed.toFixed(0)} ms after the tap`);
      }
      return false;
    }, '1.5 s after the tap');
    assert.ok(reads >= 2, `the boxes were read ${reads} times in the 1.5 s`);
    // Then the board settles: the bumped ticket moves to its lane.
    await eventually(async () => (await page.locator('[data-testid="board"]').getAttribute('data-frozen')) === 'false', 'the board settles');
    await eventually(async () => (await page.locator(`[data-column="en_preparacion"] article[data-order-id="${target.id}"], [data-column="en_preparacion"] [data-testid="hidden-count"]`).count()) > 0, 'the ticket in its new lane');
    await page.context().close();
  });

  test('a tap on the new-orders indicator brings that ticket wholly into view', async () => {
    const page = await openBoard(1280, 800);
    const order = await postOrder();
    const indicator = page.locator('[data-testid="new-orders-indicator"]');
    await indicator.waitFor();
    await indicator.click();
    await eventually(async () => {
      await keepNames(page);
      return page.evaluate((id) => {
        const parts = [...document.querySelectorAll<HTMLElement>(`.lanes article[data-order-id="${id}"]`)];
        if (parts.length === 0 || parts.length !== Number(parts[0]!.dataset.parts)) return false;
        return parts.every((el) => {
          const r = el.getBoundingClientRect();
          const lane = el.closest('.lane-body')!.getBoundingClientRect();
          return r.left >= Math.max(0, lane.left) && r.right <= Math.min(innerWidth, lane.right) && r.top >= Math.max(0, lane.top) && r.bottom <= Math.min(innerHeight, lane.bottom);
        });
      }, order.id);
    }, `#${order.number} wholly in view`);
    await page.context().close();
  });

  test('CPU throttled 4×: 20 double touches 150 ms apart, all over the board, each exactly one step over /v1', async () => {
    const page = await openBoard(1920, 1080);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const statusesBefore = new Map<string, string>();
    const next = new Map<string, string | null>();
    const list = (await k.call('GET', '/orders?limit=100')).body.data as { id: string; status: OrderStatus; type: OrderType }[];
    for (const order of list) {
      statusesBefore.set(order.id, order.status);
      next.set(order.id, bumpTarget(order.status, order.type));
    }
    const touched: string[] = [];
    /** Two finger taps at one point, 150 ms apart by their own timestamps (CDP's, in seconds). */
    const doubleTouch = async (x: number, y: number) => {
      const t = Date.now() / 1000;
      for (const [type, at] of [['touchStart', t], ['touchEnd', t + 0.03], ['touchStart', t + 0.15], ['touchEnd', t + 0.18]] as const) {
        await cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchStart' ? [{ x, y }] : [], timestamp: at });
      }
      return t;
    };
    let lastTouch = 0;
    for (let i = 0; i < 20; i++) {
      // The next touch is a new tap: well past the guard of the last one (wall clock, seconds).
      const wait = lastTouch + 0.9;
      await eventually(async () => Date.now() / 1000 > wait, 'past the tap guard');
      // Aimed at a board at rest: after the last touch it stays put for 1.5 s, then settles (a
      // finger aimed at it as it settles would aim at what moved).
      await eventually(async () => (await page.locator('[data-testid="board"]').getAttribute('data-frozen')) === 'false', 'the board at rest');
      let candidates: BumpBox[] = [];
      await eventually(async () => {
        candidates = (await bumpBoxes(page)).filter((b) => !touched.includes(b.id) && b.x + b.width <= 1920 && b.y + b.height <= 1080);
        return candidates.length > 0;
      }, `a ticket not touched yet (${i} done)`);
      // First the bottom-right corner, then across the board.
      const ordered = candidates.sort((a, b) => b.x + b.y - (a.x + a.y));
      const pick = i === 0 ? ordered[0]! : ordered[(i * 7) % ordered.length]!;
      touched.push(pick.id);
      lastTouch = await doubleTouch(pick.x + pick.width / 2, pick.y + pick.height / 2);
      // The engine's clock is the tests' own (it stands still): a second of it per touch, so the
      // screen's write limit (20, then 10 a second) refills as it would in a kitchen.
      k.clock.advance(1000);
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    // Every held move sent, nothing waiting: then each touched ticket is exactly one step on.
    let report = '';
    await eventually(async () => {
      k.clock.advance(1000);
      const wrong: string[] = [];
      for (const id of touched) {
        const status = await statusOf(id);
        if (status !== next.get(id)) wrong.push(`${id.slice(0, 8)}: ${statusesBefore.get(id)} → ${status}`);
      }
      report = wrong.join(', ');
      return wrong.length === 0 && (await page.locator('[data-testid="undo-tray"]').count()) === 0 && (await page.locator('[data-testid="pending-count"]').count()) === 0;
    }, 'the 20 moves over /v1').catch(async (error: Error) => {
      const kept = await page.evaluate(() => localStorage.getItem('comanda.pending-changes.v1'));
      throw new Error(`${error.message}: ${report}; pending on the page: ${kept}; now ${Date.now()}`);
    });
    const after = new Map(((await k.call('GET', '/orders?limit=100')).body.data as { id: string; status: string }[]).map((o) => [o.id, o.status]));
    const oneStep = touched.filter((id) => after.get(id) === next.get(id));
    console.log(`[touch] CPU 4×: ${oneStep.length} of ${touched.length} double touches moved their ticket exactly one step`);
    assert.equal(oneStep.length, 20);
    for (const [id, status] of statusesBefore) if (!touched.includes(id)) assert.equal(after.get(id) ?? status, status, `${id} was not touched`);
    await page.context().close();
  });
});
