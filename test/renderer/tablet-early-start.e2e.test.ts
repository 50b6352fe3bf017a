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

  test("the session and the snapshot are asked for together, before the app's script runs; the snapshot once", async () => {
    // Each read with the moment it was sent and the document that sent it: this test failed once in
    // ~20 runs beside stress-ng without saying which of its checks, so its messages now carry them.
    const snapshots: string[] = [];
    const reloadAt = Date.now();
    page.on('request', (request) => {
      if (request.url().endsWith('/kitchen/api/board:snapshot')) snapshots.push(`+${Date.now() - reloadAt} ms from ${request.frame().url()}`);
    });
    await page.reload();
    await page.locator('[data-testid="board"]').waitFor();
    // A string: the test's compiler would wrap a named function for the page in a helper it does not have.
    const timings = (await page.evaluate(`(() => {
      const entry = (suffix) => performance.getEntriesByType('resource').find((e) => e.name.endsWith(suffix));
      const session = entry('/kitchen/session');
      const snapshot = entry('/kitchen/api/board:snapshot');
      const app = performance.getEntriesByName('comanda:app-script')[0];
      return { session: session && { start: session.startTime, end: session.responseEnd }, snapshot: snapshot && { start: snapshot.startTime }, app: app?.startTime };
    })()`)) as { session?: { start: number; end: number }; snapshot?: { start: number }; app?: number };
    assert.ok(timings.session && timings.snapshot && timings.app !== undefined, JSON.stringify(timings));
    assert.ok(timings.snapshot.start < timings.app, `snapshot asked at ${timings.snapshot.start} ms, the app's script ran at ${timings.app} ms`);
    assert.ok(timings.snapshot.start < timings.session.end, `snapshot asked at ${timings.snapshot.start} ms, after the session's answer (${timings.session.end} ms)`);
    assert.equal(snapshots.length, 1, `one read of the board: ${JSON.stringify(snapshots)}, timings ${JSON.stringify(timings)}`);
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
