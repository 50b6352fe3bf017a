// A paired tablet's early start (src/renderer/src/start.ts, early-board.ts): the page served by the
// engine asks what it is and for the board's snapshot together, before the app's script has run, as
// the desktop window does; the live stream then opens after the snapshot's cursor, so a change made
// between the snapshot's read and the stream's opening still reaches the board. Headless Chromium
// against a served engine over real HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Route } from 'playwright-core';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { startServedKitchen, type ServedKitchen } from '../engine/http/kitchen/served-kitchen.ts';

const ORDER = {
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name: 'Early Start', phone: '+56 9 1111 2222' },
  items: [{ product_id: R1.products.empanadaQueso, quantity: 1 }],
};

/**
 * Run in the page before its own scripts: notes when the board first appears (performance.now(), the
 * clock of resource timing). React commits the board in the microtasks right after the snapshot is
 * taken in; a re-read follows a heartbeat, a later task, so it starts after this moment.
 */
const BOARD_APPEARS = `new MutationObserver((changes, observer) => {
  if (!document.querySelector('[data-testid="board"]')) return;
  window.__boardAppearedAt = performance.now();
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });`;

describe("a paired tablet's early start (Chromium, served engine)", () => {
  let k: ServedKitchen;
  let page: Page;

  before(async () => {
    k = await startServedKitchen({ heartbeatMs: 300 });
    page = (await k.tablet({ width: 1280, height: 800 })).page;
    await page.goto(await k.pairingUrl());
    await page.locator('[data-testid="board"]').waitFor();
  });
  after(async () => {
    await k?.close();
  });

  const ticket = (orderId: string) => page.locator(`article[data-order-id="${orderId}"]`);

  test("the session and the snapshot are asked for together, before the app's script runs; the board drawn from that one read", async () => {
    // "Once" means the board's first drawing: once drawn, the board may read again by design (three
    // heartbeats missed, 900 ms here, are common on a busy machine), and so may the page being
    // replaced while the reload is under way. Counting every read the test saw, as this test did,
    // bounded the heartbeats' delay in wall-clock time: it failed 1 run in ~45 beside stress-ng.
    // So the reads counted are the new page's own (its resource timing) sent before the board appeared.
    await page.addInitScript(BOARD_APPEARS);
    await page.reload();
    await page.locator('[data-testid="board"]').waitFor();
    // A string: the test's compiler would wrap a named function for the page in a helper it does not have.
    const timings = (await page.evaluate(`(() => {
      const resources = performance.getEntriesByType('resource');
      const entry = (suffix) => resources.find((e) => e.name.endsWith(suffix));
      const session = entry('/kitchen/session');
      const app = performance.getEntriesByName('comanda:app-script')[0];
      const snapshots = resources.filter((e) => e.name.endsWith('/kitchen/api/board:snapshot')).map((e) => ({ start: e.startTime, end: e.responseEnd }));
      return { session: session && { start: session.startTime, end: session.responseEnd }, snapshots, app: app?.startTime, board: window.__boardAppearedAt };
    })()`)) as { session?: { start: number; end: number }; snapshots: { start: number; end: number }[]; app?: number; board?: number };
    const evidence = JSON.stringify(timings);
    const [snapshot] = timings.snapshots;
    assert.ok(timings.session && snapshot && timings.app !== undefined && timings.board !== undefined, evidence);
    assert.ok(snapshot.start < timings.app, `snapshot asked at ${snapshot.start} ms, the app's script ran at ${timings.app} ms: ${evidence}`);
    assert.ok(snapshot.start < timings.session.end, `snapshot asked at ${snapshot.start} ms, after the session's answer (${timings.session.end} ms): ${evidence}`);
    const beforeBoard = timings.snapshots.filter((read) => read.start < timings.board!);
    assert.equal(beforeBoard.length, 1, `one read before the board appeared at ${timings.board} ms: ${evidence}`);
  });

  test("an order placed between the snapshot's read and the stream's opening reaches the board", async () => {
    // The live stream is held back until the board has drawn its snapshot and an order was placed.
    const held: Route[] = [];
    const liveUrls: string[] = [];
    let release = false;
    await page.route('**/kitchen/live*', async (route) => {
      liveUrls.push(route.request().url());
      if (release) await route.continue();
      else held.push(route);
    });
    try {
      await page.reload();
      await page.locator('[data-testid="board"]').waitFor();
      await eventually(() => held.length > 0, 'the page opens its live stream');
      const created = await k.call('POST', '/orders', { body: ORDER });
      assert.equal(created.status, 201);
      const id = created.body.id as string;
      release = true;
      for (const route of held.splice(0)) await route.continue();
      await ticket(id).waitFor();
      assert.match(liveUrls[0]!, /[?&]after=\d+/, 'the stream resumes after the snapshot');
    } finally {
      release = true;
      for (const route of held.splice(0)) await route.continue().catch(() => {});
      await page.unroute('**/kitchen/live*');
    }
  });
});
