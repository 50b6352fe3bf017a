// One tap, one step, nothing lost: a paired tablet (touch, over real HTTP) against a served engine.
// Wet fingers tap twice; a dozen quick bumps must not shrink the board; a bump tapped while the
// engine is away is kept (across a reload), shown waiting, and reaches /v1 exactly once when the
// engine is back; a queued change the engine then refuses shows as a refusal. The page's clock is
// Playwright's: hold times and the tap guard pass when the test says.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startServedKitchen, type ServedKitchen } from '../engine/http/kitchen/served-kitchen.ts';
import { eveningOrder } from './support/rush.ts';
import { eventually } from '../support/eventually.ts';

const HOLD = 5100;

describe('one tap, one step, nothing lost (Chromium touch over HTTP, served engine)', () => {
  let k: ServedKitchen;
  let page: Page;

  const statusOf = async (id: string) => (await k.call('GET', `/orders/${id}`)).body.status as string;
  const newOrder = async (i: number, type: 'retiro' | 'delivery' = 'retiro') => {
    const body = { ...eveningOrder(i, { scheduled: false }), type, ...(type === 'delivery' ? { address: 'Av. Grecia 1200, Ñuñoa' } : {}) };
    if (type === 'retiro') delete (body as Record<string, unknown>).address;
    const created = await k.call('POST', '/orders', { body });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: string; number: string };
  };
  /** A ticket on the lanes: its first fragment (every fragment carries its hooks and bump). */
  const card = (id: string) => page.locator(`.lanes article[data-order-id="${id}"]`).first();
  /** Two touch taps at the same point, `gapMs` apart on the page's clock. */
  const doubleTap = async (id: string, gapMs: number) => {
    const bump = card(id).locator('[data-testid="bump"]');
    await bump.scrollIntoViewIfNeeded();
    const box = (await bump.boundingBox())!;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.touchscreen.tap(x, y);
    await page.clock.runFor(gapMs);
    await page.touchscreen.tap(x, y);
  };
  /** Where /v1's change feed is now (a feed read without a cursor starts at the present). */
  const feedNow = async () => (await k.call('GET', '/events')).body.next_cursor as string;
  /** The statuses the order went through over /v1's change feed since `after`. */
  const updatesOf = async (id: string, after: string) => {
    const statuses: string[] = [];
    for (;;) {
      const page = (await k.call('GET', `/events?limit=500&after=${after}`)).body as { data: { type: string; data: { id: string; status: string } }[]; next_cursor: string; has_more: boolean };
      for (const e of page.data) if (e.type === 'order.updated' && e.data.id === id) statuses.push(e.data.status);
      if (!page.has_more) return statuses;
      after = page.next_cursor;
    }
  };

  before(async () => {
    k = await startServedKitchen({ heartbeatMs: 300 });
    ({ page } = await k.tablet({ width: 1180, height: 820 }));
    await page.clock.install();
    await page.goto(await k.pairingUrl());
    await page.locator('[data-testid="board"]').waitFor();
  });
  after(async () => {
    await k?.close();
  });

  test('the first tap anywhere lets the board ring: until then the strip says so', async () => {
    const chip = page.locator('[data-testid="sound-prompt"]');
    await chip.waitFor();
    const lanes = (await page.locator('.lanes').boundingBox())!;
    await page.touchscreen.tap(lanes.x + lanes.width - 20, lanes.y + lanes.height - 20);
    await chip.waitFor({ state: 'detached' });
  });

  test('two touch taps 150 ms apart on a new order move it exactly one step', async () => {
    const order = await newOrder(1);
    const since = await feedNow();
    await card(order.id).waitFor();
    await doubleTap(order.id, 150);
    await page.clock.runFor(HOLD);
    await eventually(() => statusOf(order.id), 'one step over /v1', { until: (status) => status === 'en_preparacion' });
    await page.clock.runFor(HOLD);
    assert.equal(await statusOf(order.id), 'en_preparacion');
    assert.deepEqual(await updatesOf(order.id, since), ['en_preparacion']);
  });

  for (const type of ['retiro', 'delivery'] as const) {
    test(`a double tap on "Listo" of a ${type} order is one step`, async () => {
      const order = await newOrder(type === 'retiro' ? 2 : 3, type);
      assert.equal((await k.call('PATCH', `/orders/${order.id}`, { body: { status: 'en_preparacion' } })).status, 200);
      await eventually(async () => (await card(order.id).getAttribute('data-status')) === 'en_preparacion', 'in preparation on the tablet');
      assert.equal(await card(order.id).locator('[data-testid="bump"]').getAttribute('data-target'), 'listo');
      await doubleTap(order.id, 200);
      await page.clock.runFor(HOLD);
      await eventually(() => statusOf(order.id), 'listo over /v1', { until: (status) => status === 'listo' });
      await page.clock.runFor(HOLD);
      assert.equal(await statusOf(order.id), 'listo');
    });
  }

  test('a second tap after 1 s still confirms the first at once and holds the next step', async () => {
    const order = await newOrder(4);
    await card(order.id).waitFor();
    const tappedAt = Date.now();
    await card(order.id).locator('[data-testid="bump"]').tap();
    await page.clock.runFor(1000);
    assert.equal(await card(order.id).locator('[data-testid="bump"]').getAttribute('data-target'), 'listo');
    // A second of the touches' own time too (the page's installed clock does not move them).
    await eventually(async () => Date.now() > tappedAt + 1000, 'a second later');
    await card(order.id).locator('[data-testid="bump"]').tap();
    await eventually(async () => (await statusOf(order.id)) === 'en_preparacion', 'the first step sent at once');
    assert.equal(await card(order.id).getAttribute('data-status'), 'listo');
    await page.clock.runFor(HOLD);
    await eventually(async () => (await statusOf(order.id)) === 'listo', 'the second after its hold');
  });

  test('engine stopped: a bump is kept across a reload, shown waiting, the stale band stays; back, it reaches /v1 once', async () => {
    const order = await newOrder(5);
    const since = await feedNow();
    await card(order.id).waitFor();
    await k.stopEngine();
    await card(order.id).locator('[data-testid="bump"]').tap();
    await page.clock.runFor(HOLD);
    await eventually(async () => (await card(order.id).getAttribute('data-waiting')) === 'true', 'the card shows it waiting');
    await page.clock.runFor(7000);
    await page.locator('[data-testid="stale-banner"]').waitFor();
    assert.equal(await page.locator('[data-testid="pending-count"]').getAttribute('data-count'), '1');
    assert.match(await page.locator('[data-testid="connection"]').innerText(), /Sin conexión con el motor|Datos desactualizados/);
    // Another tap while it is away: the board still never says "En línea".
    await page.clock.runFor(3000);
    assert.doesNotMatch(await page.locator('[data-testid="connection"]').innerText(), /En línea/);
    assert.equal(await page.locator('[data-testid="stale-banner"]').isVisible(), true);

    // The tablet reloads while its engine is still out of reach (the page itself loads; the
    // kitchen's calls and stream do not): the change is still there.
    await page.context().route('**/kitchen/api/**', (route) => route.abort());
    await page.context().route('**/kitchen/live**', (route) => route.abort());
    await k.startEngine();
    await page.reload();
    await page.locator('[data-testid="app"]').waitFor();
    const kept = await page.evaluate(() => localStorage.getItem('comanda.pending-changes.v1'));
    assert.match(kept ?? '', new RegExp(order.id));
    assert.equal(await statusOf(order.id), 'recibido');

    // The engine answers again: the change goes, once.
    await page.context().unroute('**/kitchen/api/**');
    await page.context().unroute('**/kitchen/live**');
    await eventually(async () => {
      await page.clock.runFor(2500); // the stream's reopening delay, on the page's clock
      return (await statusOf(order.id)) === 'en_preparacion';
    }, 'the queued bump reached /v1');
    await eventually(async () => (await page.locator('[data-testid="pending-count"]').count()) === 0, 'nothing waits any more');
    await page.clock.runFor(HOLD);
    assert.deepEqual(await updatesOf(order.id, since), ['en_preparacion']);
    await eventually(async () => !(await page.locator('[data-testid="stale-banner"]').isVisible()), 'fresh again');
  });

  test('a queued change the engine refuses once it is back (cancelled over /v1 meanwhile) shows a refusal on its card', async () => {
    const order = await newOrder(6);
    await card(order.id).waitFor();
    await page.context().route('**/kitchen/api/**', (route) => route.abort());
    await card(order.id).locator('[data-testid="bump"]').tap();
    await page.clock.runFor(HOLD);
    await eventually(async () => (await card(order.id).getAttribute('data-waiting')) === 'true', 'waiting');
    assert.equal((await k.call('PATCH', `/orders/${order.id}`, { body: { status: 'cancelado' } })).status, 200);
    await page.context().unroute('**/kitchen/api/**');
    await eventually(async () => (await page.locator(`article[data-order-id="${order.id}"] [data-testid="refused"]`).count()) > 0 || (await page.locator('[data-testid="toast"][data-code="illegal_transition"]').count()) > 0, 'the refusal is shown');
    assert.equal(await statusOf(order.id), 'cancelado');
  });
  test('12 bumps in a row: the lanes keep their height, the undo tray stays one row', async () => {
    for (let i = 0; i < 16; i++) await newOrder(100 + i);
    await eventually(() => page.locator('.lanes article[data-order-id] [data-testid="bump"][data-target="en_preparacion"]').count(), 'new tickets on the board', { until: (shown) => shown >= 4 });
    // From here the page's time moves only when this test says (it flowed with the wall clock: on a
    // loaded machine the held bumps' 5 s ran out between the loop and the tray's checks, and the
    // "+N" the test had just counted was gone when it read it; it failed so under stress-ng).
    // Paused only now: the board's own timers (the freeze after the last test's touches) still had
    // to run to bring the new tickets in.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    const lanesHeight = async () => (await page.locator('.lanes').boundingBox())!.height;
    const before = await lanesHeight();
    for (let i = 0; i < 12; i++) {
      // Each a tap of its own: a touch within 700 ms of a bump is the same tap (the touches' own
      // timestamps, which the page's installed clock does not move), so they come 750 ms apart;
      // the board settles between them (1.5 s after a touch) and brings the next new tickets.
      const last = Date.now();
      await page.locator('.lanes [data-column="recibido"] article[data-order-id] [data-testid="bump"][data-target="en_preparacion"]').first().tap();
      await page.clock.runFor(1600);
      await eventually(async () => Date.now() > last + 750, 'the next tap');
    }
    const during = await lanesHeight();
    assert.equal(during, before, `lanes ${before} px before, ${during} px during`);
    // The tray read at one instant: the last three bumps (1.6 s apart) are still held.
    const tray = await page.evaluate(() => {
      const box = document.querySelector('[data-testid="undo-tray"]')?.getBoundingClientRect();
      return { box: box?.toJSON() as DOMRect | undefined, undos: document.querySelectorAll('[data-testid="undo"]').length, more: document.querySelector('[data-testid="undo-more"]')?.textContent ?? null };
    });
    assert.ok(tray.box, 'the undo tray is up');
    assert.ok(tray.box.height <= 60, `the undo tray is one row (${tray.box.height} px)`);
    assert.ok(tray.box.y + tray.box.height <= 820, 'the undo tray is on screen');
    assert.equal(tray.undos, 1);
    assert.equal(tray.more, '+2');
    await page.clock.runFor(HOLD);
  });
});
