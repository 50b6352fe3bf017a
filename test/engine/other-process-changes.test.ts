// Changes committed by another process on the same file wake this engine's waiters: a long-poll of
// GET /events and the kitchen's live feed (PRAGMA data_version, read on an injected short period).
// The other process is a second engine under --share-file, the one that can create orders.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDemo } from '../../src/engine/demo/seed-demo.ts';
import { startLiveFeed } from '../../src/engine/screen/live-feed.ts';
import { STANDALONE_STATUS } from '../../src/engine/screen/live-hub.ts';
import { startEngineServer, type EngineServer } from '../../src/host/start-engine-server.ts';
import type { LivePush } from '../../src/shared/screen-contract/kitchen.ts';
import { R1 } from '../support/demo-ids.ts';
import { callApi, GENEROUS_LIMITS } from '../support/engine-under-test.ts';
import { startHeadlessEngine, type HeadlessEngine } from '../hardening/headless-engine.ts';

describe('changes committed by another process', () => {
  let dir: string;
  let here: EngineServer;
  let other: HeadlessEngine;
  let key: string;
  let serial = 0;

  const orderOnOtherProcess = async () => {
    serial++;
    const res = await callApi(other.baseUrl, other.restaurants[0]!.keys.live_write, 'POST', '/orders', {
      body: { location_id: R1.openLocation, type: 'retiro', customer: { name: `Otro proceso ${serial}` }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
    });
    assert.equal(res.status, 201, res.text);
    return res.body.id as string;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-other-process-'));
    const dbPath = join(dir, 'comanda.db');
    here = await startEngineServer({ database: dbPath, rateLimits: GENEROUS_LIMITS, logger: false, externalChangesPollMs: 20 });
    key = (await seedDemo(here.engine, here.providers.payments))[0]!.keys.live_read;
    other = await startHeadlessEngine(dbPath, { args: ['--share-file'], timeoutMs: 90_000 });
  });
  after(async () => {
    // Guarded: a start that failed under load must not leave a server or a child keeping the run alive.
    await other?.kill();
    await here?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a long-poll is woken by an order created by another process', async () => {
    const now = await callApi(here.baseUrl, key, 'GET', '/events');
    // Long enough that only a wake-up can answer it within the test (no wake: an empty page after 25 s).
    const poll = callApi(here.baseUrl, key, 'GET', `/events?after=${now.body.next_cursor}&wait=25`);
    const id = await orderOnOtherProcess();
    const page = await poll;
    assert.equal(page.status, 200, page.text);
    assert.ok(
      (page.body.data as { type: string; data: { id?: string } }[]).some((e) => e.type === 'order.created' && e.data.id === id),
      `the long-poll carries the other process's order: ${page.text.slice(0, 300)}`,
    );
  });

  test("the kitchen's live feed pushes an order created by another process", async () => {
    let delivered: (push: LivePush) => void = () => {};
    const pushed = new Promise<LivePush>((resolve) => (delivered = resolve));
    const feed = await startLiveFeed({
      engine: here.engine,
      restaurantId: R1.id,
      connectionStatus: () => STANDALONE_STATUS,
      send: (push) => {
        if (push.kind === 'events') delivered(push);
      },
    });
    try {
      const id = await orderOnOtherProcess();
      // Bounded, so a missed wake-up fails with what the feed saw instead of hanging the run.
      let timer: NodeJS.Timeout | undefined;
      const push = await Promise.race([
        pushed,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            async () => reject(new Error(`no push within 20 s: feed cursor ${feed.cursor}, last event here ${await here.engine.stores.events.lastSeq(R1.id)}, data_version ${here.engine.dataVersion.read()}`)),
            20_000,
          );
        }),
      ]).finally(() => clearTimeout(timer));
      assert.ok(JSON.stringify(push).includes(id), 'the pushed events carry the order');
    } finally {
      feed.stop();
    }
  });
});
