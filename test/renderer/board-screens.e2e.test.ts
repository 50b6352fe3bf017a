// The board on every screen it meets at rush hour, in the desktop window's renderer: a TV over the
// pass, tablets both ways and a phone, with 40 and then 100 active orders. Nothing overflows
// sideways, buttons are big and their words whole, a new order is in view or announced, and the
// undo of a tap stays on screen. One browser and one engine for the whole file; the screenshots are
// saved as artifacts. (board-rush.e2e.test.ts counts the tickets in view on a paired tablet.)
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { placeOrder, startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';
import { eventually } from '../support/eventually.ts';
import { eveningOrder, RUSH_VIEWPORTS } from './support/rush.ts';

const VIEWPORTS = RUSH_VIEWPORTS;

describe('the board on every screen (Chromium, real engine)', () => {
  let k: KitchenUnderTest;
  let keys: KitchenUnderTest['engine']['demo'][number]['keys'];
  let placed = 0;

  const addOrders = async (count: number) => {
    const made: { id: string }[] = [];
    for (let i = 0; i < count; i++) made.push(await placeOrder(k.engine, eveningOrder(placed++, { scheduled: false })));
    // A spread over the columns: a third in preparation, a sixth ready.
    for (const [index, order] of made.entries()) {
      if (index % 3 === 1 || index % 6 === 2) await k.engine.call('PATCH', `/orders/${order.id}`, { key: keys.live_write, body: { status: 'en_preparacion' } });
      if (index % 6 === 2) await k.engine.call('PATCH', `/orders/${order.id}`, { key: keys.live_write, body: { status: 'listo' } });
    }
  };
  const activeOnBoard = async () => Number(await k.page.locator('[data-testid="board"]').getAttribute('data-active'));

  before(async () => {
    k = await startKitchenUnderTest();
    keys = k.engine.demo[0]!.keys;
    await k.page.clock.install();
    await k.open();
    await k.page.locator('[data-testid="board"]').waitFor();
  });
  after(async () => {
    await k?.stop();
  });

  for (const count of [40, 100]) {
    test(`${count} active orders: every viewport fits, nothing hidden without a word`, { timeout: 300_000 }, async () => {
      await addOrders(count - (await activeOnBoard()));
      await eventually(async () => (await activeOnBoard()) >= count, `${count} tickets on the board`, { timeoutMs: 60_000 });
      for (const viewport of VIEWPORTS) {
        await k.page.setViewportSize({ width: viewport.width, height: viewport.height });
        await k.page.locator('[data-testid="board"]').waitFor();
        await checkFit(k, `${viewport.name} with ${count}`);

        // A new order: in view, or announced by the indicator, which brings it into view.
        const fresh = await placeOrder(k.engine, { customer: { name: `Recién llegado ${viewport.name}` } });
        const card = k.page.locator(`.lanes article[data-order-id="${fresh.id}"]`);
        const indicator = k.page.locator('[data-testid="new-orders-indicator"]');
        const announced = async () => (await indicator.isVisible()) && (await indicator.innerText()).includes(`#${fresh.number}`);
        await eventually(async () => (await inViewport(k, card)) || (await announced()), `new order in view or announced (${viewport.name}, ${count})`, { timeoutMs: 60_000 });
        if (!(await inViewport(k, card))) {
          await indicator.click();
          await eventually(() => inViewport(k, card), `the indicator brings the new order into view (${viewport.name}, ${count})`);
        }
        assert.equal(await card.first().getAttribute('data-ringing'), 'true');
        await k.screenshot(`board-${viewport.name}-${viewport.width}x${viewport.height}-${count}`);
        // Acknowledged while in view (a touch on its number: a station's ticket shows no customer
        // line): it stops ringing, and the next viewport's new order is the one announced.
        await card.first().locator('.ticket-number').click();
        await eventually(async () => (await card.first().getAttribute('data-ringing')) === 'false', 'the new order acknowledged');

        // A tap at the far end of a lane: its undo stays in view, in the tray, and the lanes keep
        // their size (the tray floats over the board at a fixed height).
        const lanesBefore = await k.page.locator('.lanes').boundingBox();
        const column = k.page.locator('.lanes [data-column="recibido"]');
        // Its last page (the lane pages by whole columns: "+N · 2/3").
        await eventually(async () => {
          if ((await column.getAttribute('data-page')) === (await column.getAttribute('data-pages'))) return true;
          await column.locator('[data-testid="hidden-count"]').click();
          return false;
        }, 'the lane on its last page');
        const last = column.locator('article[data-order-id]').last();
        const lastId = await last.getAttribute('data-order-id');
        // The page's clock stands still while the move is held: on a busy machine the checks and the
        // screenshot below can outlast the 5 s hold, and the undo must still be there to take it back.
        // (A moment ahead of the page's time when asked: if that moment has passed by the time the
        // pause lands, ask again.)
        await eventually(async () => {
          await k.page.clock.pauseAt((await k.page.evaluate(() => Date.now())) + 250);
          return true;
        }, 'the page clock paused');
        await last.locator('[data-testid="bump"]').click();
        const undo = k.page.locator(`[data-testid="undo"][data-order-id="${lastId}"]`);
        assert.ok(await inViewport(k, undo), `undo in view after a tap at the end of a lane (${viewport.name}, ${count})`);
        await checkFit(k, `${viewport.name} with ${count}, a move held`);
        assert.deepEqual(await k.page.locator('.lanes').boundingBox(), lanesBefore, `the lanes keep their size (${viewport.name}, ${count})`);
        await k.screenshot(`board-${viewport.name}-${viewport.width}x${viewport.height}-${count}-held`);
        await undo.click();
        assert.equal(await undo.count(), 0);
        await k.page.clock.resume();
      }
      await k.page.setViewportSize({ width: 1280, height: 800 });
    });
  }
});

/** The element's box lies inside the window (and it is drawn). */
async function inViewport(k: KitchenUnderTest, locator: ReturnType<KitchenUnderTest['page']['locator']>): Promise<boolean> {
  if ((await locator.count()) === 0) return false;
  return locator.first().evaluate((el) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const visibleHeight = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
    return box.left >= 0 && box.right <= window.innerWidth + 0.5 && visibleHeight >= Math.min(box.height, window.innerHeight / 2) * 0.5;
  });
}

/** No sideways scrolling, the header in one piece, buttons of at least 48 px with their words whole. */
async function checkFit(k: KitchenUnderTest, where: string): Promise<void> {
  // The plan follows the lanes' measured size (a ResizeObserver): a resize lands a frame later.
  await eventually(
    () => k.page.evaluate(() => [...document.querySelectorAll('.lanes > .lane')].every((lane) => lane.getBoundingClientRect().right <= window.innerWidth + 0.5)),
    `${where}: lanes laid out for the window`,
  );
  const report = await k.page.evaluate(() => {
    const root = document.documentElement;
    const problems: string[] = [];
    if (root.scrollWidth > root.clientWidth) problems.push(`page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
    // A lane of several columns runs on to the right (swiped); the board and the page never do.
    for (const el of document.querySelectorAll<HTMLElement>('.board, .lanes, .top-bar')) {
      if (el.scrollWidth > el.clientWidth + 1) problems.push(`${el.className} overflows sideways: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    const boxes = ['.brand', '.tabs', '.top-tools'].map((s) => document.querySelector(s)!.getBoundingClientRect());
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) problems.push(`header parts ${i} and ${j} overlap`);
      }
    // A lane header's pager ("+N · 1/3") and new-orders chips are 36 px high in a 40 px header (their words checked, not their height).
    const buttons = [...document.querySelectorAll<HTMLElement>('[data-testid="bump"], [data-testid="cancel"], [data-testid="undo"], .tab, .column-tab, [data-testid="screen-menu"]')];
    for (const chip of document.querySelectorAll<HTMLElement>('[data-testid="hidden-count"]')) {
      if (chip.scrollWidth > chip.clientWidth) problems.push(`"${chip.innerText}" is clipped`);
    }
    let checked = 0;
    for (const button of buttons) {
      const box = button.getBoundingClientRect();
      // Only what is in view: inside the lane that scrolls it (a lane swiped sideways stops on a column).
      const clip = button.closest('.lane-body')?.getBoundingClientRect();
      if (clip && (box.left < clip.left - 0.5 || box.right > clip.right + 0.5 || box.bottom <= clip.top || box.top >= clip.bottom)) continue;
      if (box.width === 0 || box.bottom < 0 || box.top > window.innerHeight) continue;
      checked++;
      if (box.height < 48 || box.width < 48) problems.push(`"${button.innerText}" is ${box.width.toFixed(0)}×${box.height.toFixed(0)} px`);
      if (button.scrollWidth > button.clientWidth) problems.push(`"${button.innerText}" is clipped: ${button.scrollWidth} > ${button.clientWidth}`);
      if (box.right > window.innerWidth + 0.5 || box.left < 0) problems.push(`"${button.innerText}" is outside the window (${box.left.toFixed(0)}–${box.right.toFixed(0)} px, its lane ${clip ? `${clip.left.toFixed(0)}–${clip.right.toFixed(0)}` : 'none'})`);
    }
    const bumps = document.querySelectorAll('[data-testid="bump"]').length;
    return { problems, checked, bumps };
  });
  assert.deepEqual(report.problems, [], where);
  assert.ok(report.bumps > 0, `${where}: bump buttons on screen`);
}
