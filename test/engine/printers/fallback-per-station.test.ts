import { mapInOrder } from '../../../src/shared/in-order.ts';
// Fallback printing per station (issue 22): a fallback printer prints only when no screen OF ITS
// STATION has been live for its seconds, and stops once one is back. Tablets say which stations
// their board shows when their live stream opens (`/kitchen/live?stations=`): a live horno tablet
// keeps the horno's fallback printer quiet and says nothing for the plancha, whose printer prints.
// Over real HTTP streams and a real port; the engine's clock is injected and moved by the test,
// the streams' heartbeats (real time, 30 ms) note it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src/engine/clock.ts';
import { seedDemo, type DemoRestaurant } from '../../../src/engine/demo/seed-demo.ts';
import type { LiveStreamStats } from '../../../src/engine/http/kitchen/live-stream.ts';
import { createPairingCode, pairWithCode } from '../../../src/engine/services/kitchen/kitchen-devices.ts';
import { addPrinter } from '../../../src/engine/services/printing/printers.ts';
import { startEngineServer, type EngineServer } from '../../../src/host/start-engine-server.ts';
import { R1 } from '../../support/demo-ids.ts';
import { eventually } from '../../support/eventually.ts';
import { callApi, DEMO_NOW, GENEROUS_LIMITS } from '../../support/engine-under-test.ts';
import { StandInPrinter } from '../../support/stand-in-printer.ts';

const SECOND = 1000;

interface Stream {
  status: number;
  body: string;
  response: IncomingMessage;
  request: ClientRequest;
}

describe('fallback printing per station', () => {
  let dir: string;
  let server: EngineServer;
  let clock: ManualClock;
  let demo: DemoRestaurant[];
  let horno: StandInPrinter;
  let plancha: StandInPrinter;
  let stats: () => LiveStreamStats;
  const open: Stream[] = [];

  const pairDevice = async () => `comanda_device=${(await pairWithCode(server.engine, (await createPairingCode(server.engine, { restaurantId: demo[0]!.id, origin: server.origin })).code)).token}`;
  const openStream = (cookie: string, query = '') =>
    new Promise<Stream>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port: server.port, path: `/kitchen/live${query}`, headers: { host: `127.0.0.1:${server.port}`, cookie } });
      request.on('response', (response) => {
        const stream: Stream = { status: response.statusCode ?? 0, body: '', response, request };
        open.push(stream);
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (stream.body += chunk));
        resolve(stream);
      });
      request.on('error', reject);
      request.end();
    });
  const presence = (stations: string[]) => server.engine.screenPresence.lastLive(R1.id, stations);
  /** Moves the engine's clock, lets the live screens' heartbeats note the new time, and runs the jobs. */
  const step = async (seconds: number, live: string[][]) => {
    clock.advance(seconds * SECOND);
    const now = clock.now();
    for (const stations of live) await eventually(() => presence(stations), `a heartbeat for ${stations.join(',')} at the new time`, { until: (at) => at === now });
    await server.jobs.runDue();
  };
  const order = async () => {
    const created = await callApi(server.baseUrl, demo[0]!.keys.live_write, 'POST', '/orders', {
      body: {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Ñuño Pérez' },
        items: [
          { product_id: R1.products.empanadaCamaronQueso, quantity: 2 },
          { product_id: R1.products.churrasco, quantity: 1, modifier_option_ids: [R1.options.marraqueta] },
        ],
      },
    });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: string; number: string };
  };
  const statuses = async (orderId: string) =>
    Object.fromEntries((await mapInOrder((await server.engine.stores.printJobs.ofOrder(orderId)), async (j) => [(await server.engine.stores.printers.get(j.printer_id))!.name, j.status])));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-fallback-station-'));
    clock = new ManualClock(DEMO_NOW);
    server = await startEngineServer({ database: join(dir, 'engine.db'), clock, rateLimits: GENEROUS_LIMITS, jobsIntervalMs: 50, printTimeoutMs: 2000, kitchen: { heartbeatMs: 30, observeLive: (s) => (stats = s) } });
    demo = await seedDemo(server.engine, server.providers.payments);
    horno = await new StandInPrinter().start();
    plancha = await new StandInPrinter().start();
    await addPrinter(server.engine, R1.id, { name: 'Respaldo horno', host: '127.0.0.1', port: horno.port, width_mm: 80, stations: ['horno'], when: ['fallback'], fallback_seconds: 30 });
    await addPrinter(server.engine, R1.id, { name: 'Respaldo plancha', host: '127.0.0.1', port: plancha.port, width_mm: 58, stations: ['plancha'], when: ['fallback'], fallback_seconds: 30 });
  });
  after(async () => {
    for (const stream of open) stream.request.destroy();
    await server?.close();
    await horno?.stop();
    await plancha?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a stream says its stations: malformed is refused, a station the restaurant lacks counts for none', async () => {
    const device = await pairDevice();
    for (const bad of ['?stations=Horno', '?stations=horno,,plancha', `?stations=${'a,'.repeat(60)}a`, `?stations=${'x'.repeat(3000)}`]) {
      const refused = await openStream(device, bad);
      assert.equal(refused.status, 400, bad);
      await eventually(() => refused.body, 'the refusal read');
      assert.equal(JSON.parse(refused.body).error.code, 'invalid_request', bad);
    }
    const gone = await openStream(device, '?stations=parrilla');
    assert.equal(gone.status, 200);
    await eventually(() => gone.body.includes('heartbeat'), 'its first heartbeat');
    assert.equal(presence(['horno']), null, 'a screen of a station the restaurant has not is no screen of the horno');
    assert.equal(presence([]), null, 'nor one of every station');
    gone.request.destroy();
    await eventually(() => stats().open, 'its stream ended', { until: (n) => n === 0 });
  });

  test('a live horno tablet keeps only the horno quiet: the plancha prints after its seconds, and stops once its tablet is back', async () => {
    const hornoTablet = await openStream(await pairDevice(), '?stations=horno');
    assert.equal(hornoTablet.status, 200);
    await eventually(() => presence(['horno']), 'the horno tablet is live');
    const first = await order();

    // 10 s, 20 s: nothing yet (the plancha's screens have been gone less than 30 s).
    await step(10, [['horno']]);
    await step(10, [['horno']]);
    assert.equal(plancha.tickets.length, 0, 'held while the plancha has had no screen for 20 s');
    await step(11, [['horno']]);
    const [ticket] = await eventually(() => plancha.tickets, 'the plancha\'s fallback ticket', { until: (t) => t.length === 1 });
    assert.ok(ticket!.text.some((l) => l.includes(`#${first.number}`)));
    assert.ok(ticket!.text.some((l) => l.includes('1 x Churrasco italiano')));
    await eventually(async () => await statuses(first.id), 'the horno ticket dropped, the plancha one printed', {
      until: (s) => s['Respaldo horno'] === 'dropped' && s['Respaldo plancha'] === 'printed',
    });
    assert.equal(horno.tickets.length, 0, 'the horno tablet had the order: no paper at the horno');

    // The plancha's tablet comes back: no more fallback tickets for it (nor for the horno).
    const planchaTablet = await openStream(await pairDevice(), '?stations=plancha');
    assert.equal(planchaTablet.status, 200);
    await eventually(() => presence(['plancha']), 'the plancha tablet is live');
    const second = await order();
    for (let i = 0; i < 4; i++) await step(10, [['horno'], ['plancha']]);
    await eventually(async () => await statuses(second.id), 'both fallback tickets dropped', {
      until: (s) => s['Respaldo horno'] === 'dropped' && s['Respaldo plancha'] === 'dropped',
    });
    assert.equal(plancha.tickets.length, 1, 'nothing more at the plancha');
    assert.equal(horno.tickets.length, 0);

    // The horno tablet goes away: the horno's printer takes over after its seconds, the plancha's does not.
    hornoTablet.request.destroy();
    await eventually(() => stats().open, 'the horno tablet\'s stream ended', { until: (n) => n === 1 });
    const third = await order();
    for (let i = 0; i < 4; i++) await step(10, [['plancha']]);
    await eventually(() => horno.tickets.length, 'the horno\'s fallback ticket', { until: (n) => n === 1 });
    await eventually(async () => await statuses(third.id), 'the horno printed, the plancha dropped', {
      until: (s) => s['Respaldo horno'] === 'printed' && s['Respaldo plancha'] === 'dropped',
    });
    assert.equal(plancha.tickets.length, 1);
    planchaTablet.request.destroy();
  });

  test('a screen showing every station (expo) counts for each station', async () => {
    const expo = await openStream(await pairDevice());
    assert.equal(expo.status, 200);
    await eventually(() => presence(['horno', 'plancha']), 'the expo screen is live for both');
    const before = [horno.tickets.length, plancha.tickets.length];
    const seen = await order();
    for (let i = 0; i < 4; i++) await step(10, [[]]);
    await eventually(async () => await statuses(seen.id), 'both dropped', { until: (s) => s['Respaldo horno'] === 'dropped' && s['Respaldo plancha'] === 'dropped' });
    assert.deepEqual([horno.tickets.length, plancha.tickets.length], before);
    expo.request.destroy();
  });
});
