// Live fan-out with bounds (issue 19), over real HTTP: a device keeps at most a few streams (a
// newer one ends its oldest), the engine keeps at most `total` (then 503 too_many_streams in the
// kitchen's shape), each message is serialised once whatever the number of streams, and a stream
// that does not read is closed once its backlog passes the bound; reopened with its last event id,
// it gets exactly what it missed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { seedDemo, type DemoRestaurant } from '../../../../src/engine/demo/seed-demo.ts';
import type { LiveStreamStats } from '../../../../src/engine/http/kitchen/live-stream.ts';
import { kitchenActor } from '../../../../src/engine/screen/kitchen-handlers.ts';
import { createPairingCode, pairWithCode } from '../../../../src/engine/services/kitchen/kitchen-devices.ts';
import { setItemDone } from '../../../../src/engine/services/kitchen/kitchen-items.ts';
import { startEngineServer, type EngineServer } from '../../../../src/host/start-engine-server.ts';
import { R1 } from '../../../support/demo-ids.ts';
import { eventually } from '../../../support/eventually.ts';
import { callApi, DEMO_NOW, GENEROUS_LIMITS } from '../../../support/engine-under-test.ts';

interface Stream {
  status: number;
  body: string;
  ended: boolean;
  response: IncomingMessage;
  request: ClientRequest;
  /** Event ids received, in order. */
  ids(): number[];
}

describe('live fan-out with bounds (served engine)', () => {
  let dir: string;
  let server: EngineServer;
  let demo: DemoRestaurant[];
  let stats: () => LiveStreamStats;
  const open: Stream[] = [];

  const pairDevice = async () => `comanda_device=${(await pairWithCode(server.engine, (await createPairingCode(server.engine, { restaurantId: demo[0]!.id, origin: server.origin })).code)).token}`;
  const openStream = (cookie: string, options: { lastEventId?: number; paused?: boolean } = {}) =>
    new Promise<Stream>((resolve, reject) => {
      const request = httpRequest({
        host: '127.0.0.1',
        port: server.port,
        path: '/kitchen/live',
        headers: { host: `127.0.0.1:${server.port}`, cookie, ...(options.lastEventId !== undefined ? { 'last-event-id': String(options.lastEventId) } : {}) },
      });
      request.on('response', (response) => {
        const stream: Stream = {
          status: response.statusCode ?? 0,
          body: '',
          ended: false,
          response,
          request,
          ids: () => [...stream.body.matchAll(/^id: (\d+)\ndata:/gm)].map((m) => Number(m[1])),
        };
        open.push(stream);
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (stream.body += chunk));
        response.on('end', () => (stream.ended = true));
        response.on('close', () => (stream.ended = true));
        if (options.paused) response.pause();
        resolve(stream);
      });
      request.on('error', reject);
      request.end();
    });
  let orderId: string;
  let done = false;
  /** One kitchen event (an item toggled), written as the board's tap would. */
  const toggle = async () => {
    done = !done;
    await setItemDone(server.engine, kitchenActor(demo[0]!.id, 'live'), orderId, 0, done);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-live-fanout-'));
    server = await startEngineServer({
      database: join(dir, 'engine.db'),
      clock: new ManualClock(DEMO_NOW),
      rateLimits: GENEROUS_LIMITS,
      kitchen: { heartbeatMs: 60_000, liveLimits: { perViewer: 3, total: 8, maxBufferedBytes: 64 * 1024 }, observeLive: (s) => (stats = s) },
    });
    demo = await seedDemo(server.engine, server.providers.payments);
    const items = Array.from({ length: 30 }, () => ({ product_id: R1.products.empanadaQueso, quantity: 1, notes: 'sin cebolla, bien cocida, cortada en cuatro'.repeat(3) }));
    const created = await callApi(server.baseUrl, demo[0]!.keys.live_write, 'POST', '/orders', { body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Fan-out' }, items } });
    assert.equal(created.status, 201, created.text);
    orderId = created.body.id;
  });
  after(async () => {
    for (const stream of open) stream.request.destroy();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a device keeps at most 3 streams: a fourth ends its oldest; past 8 in all, a new one is refused with 503', async () => {
    const device = await pairDevice();
    const first = await openStream(device);
    const second = await openStream(device);
    const third = await openStream(device);
    assert.deepEqual([first.status, second.status, third.status], [200, 200, 200]);
    const fourth = await openStream(device);
    assert.equal(fourth.status, 200);
    await eventually(() => first.ended, 'the oldest stream ended');
    assert.equal(second.ended || third.ended, false);
    assert.equal(stats().open, 3);
    // Five more from other screens: 8 in all.
    for (let i = 0; i < 5; i++) assert.equal((await openStream(await pairDevice())).status, 200);
    assert.equal(stats().open, 8);
    const refused = await openStream(await pairDevice());
    assert.equal(refused.status, 503);
    await eventually(() => refused.ended, 'the refusal read');
    const body = JSON.parse(refused.body);
    assert.deepEqual([body.ok, body.error.code], [false, 'too_many_streams']);
    assert.match(String(refused.response.headers['content-security-policy']), /frame-ancestors 'none'/);
    // The device already holding streams still gets a new one (its oldest makes room).
    assert.equal((await openStream(device)).status, 200);
    assert.equal(stats().open, 8);
    for (const stream of open) stream.request.destroy();
    await eventually(() => stats().open === 0, 'every stream closed');
  });

  test('each message is serialised once, whatever the number of streams', async () => {
    const streams: Stream[] = [];
    for (let i = 0; i < 6; i++) streams.push(await openStream(await pairDevice()));
    const before = stats().serialised;
    const seq = await server.engine.stores.events.lastSeq(demo[0]!.id);
    await toggle();
    await eventually(() => streams.every((s) => s.ids().includes(seq + 1)), 'every stream got the event');
    assert.equal(stats().serialised - before, 1, 'one serialisation for six streams');
    for (const stream of streams) stream.request.destroy();
    await eventually(() => stats().open === 0, 'every stream closed');
  });

  test('a stream that does not read is closed past its backlog bound; reopened from its last id, it misses nothing', async () => {
    const device = await pairDevice();
    const start = await server.engine.stores.events.lastSeq(demo[0]!.id);
    const reader = await openStream(device);
    const laggard = await openStream(device, { paused: true });
    const laggardsBefore = stats().laggards;
    // Toggles until the laggard's backlog passes 64 KiB beyond what the sockets hold (bounded: 20,000).
    for (let i = 0; i < 20_000 && stats().laggards === laggardsBefore; i++) {
      await toggle();
      if (i % 50 === 49) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await eventually(() => stats().laggards > laggardsBefore, 'the laggard closed');
    const last = await server.engine.stores.events.lastSeq(demo[0]!.id);
    await eventually(() => reader.ids().at(-1) === last, 'the reading stream has everything');
    // The laggard reads what had reached it, and finds its stream ended.
    laggard.response.resume();
    await eventually(() => laggard.ended, 'the laggard sees the end');
    const seen = laggard.ids();
    assert.ok(seen.length < reader.ids().length, 'the laggard missed some');
    const resumed = await openStream(device, { lastEventId: seen.at(-1) ?? start });
    await eventually(() => resumed.ids().at(-1) === last, 'the reopened stream caught up');
    const all = [...seen, ...resumed.ids()];
    assert.deepEqual(all, reader.ids(), 'nothing missed, nothing twice');
  });
});
