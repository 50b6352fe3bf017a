// A page on the same machine at another port, in real headless Chromium (issue 19): for the
// browser it is "same-site", so it sends the paired screen's SameSite=Strict cookie with that
// page's requests. The kitchen refuses them all the same (Origin / Sec-Fetch-Site), reads and
// writes, fetch (cors and no-cors) and a form posted by navigation; the engine's own page is served.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { chromium, type Browser } from 'playwright-core';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { seedDemo } from '../../../../src/engine/demo/seed-demo.ts';
import { createPairingCode } from '../../../../src/engine/services/kitchen/kitchen-devices.ts';
import { startEngineServer, type EngineServer } from '../../../../src/host/start-engine-server.ts';
import { eventually } from '../../../support/eventually.ts';
import { DEMO_NOW, GENEROUS_LIMITS } from '../../../support/engine-under-test.ts';

let dir: string;
let server: EngineServer;
let browser: Browser;
let other: Server;
let otherPort: number;
const lines: { reqId?: string; req?: { url: string }; res?: { statusCode: number } }[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'comanda-same-site-'));
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  server = await startEngineServer({ database: join(dir, 'engine.db'), clock: new ManualClock(DEMO_NOW), rateLimits: GENEROUS_LIMITS, logger, kitchen: {} });
  await seedDemo(server.engine, server.providers.payments);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  // The other page: another local app on another port.
  other = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>other app</title>
<form id="f" method="post" action="http://127.0.0.1:${server.port}/kitchen/api/board:snapshot" enctype="text/plain"><input name="x" value="1"></form>`);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherPort = (other.address() as { port: number }).port;
});
after(async () => {
  await browser?.close();
  await new Promise((resolve) => other?.close(resolve));
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The statuses the engine logged for a kitchen path (its "incoming request" and "request completed" lines). */
const statusesOf = (path: string) => {
  const ids = new Set(lines.filter((l) => l.req?.url === path).map((l) => l.reqId));
  return lines.filter((l) => l.res !== undefined && ids.has(l.reqId)).map((l) => l.res!.statusCode);
};

test('a page at another port of this machine gets the paired cookie sent, and every kitchen call of it refused', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const offer = await createPairingCode(server.engine, { restaurantId: (await server.engine.stores.restaurants.list())[0]!.id, origin: server.origin });
  await page.goto(offer.pairing_url);
  const cookie = (await context.cookies()).find((c) => c.name === 'comanda_device');
  assert.ok(cookie, 'paired');
  // The engine's own origin: served.
  const own = await page.evaluate(async () => (await fetch('/kitchen/api/board:snapshot', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status);
  assert.equal(own, 200);

  await page.goto(`http://127.0.0.1:${otherPort}/`);
  const target = `http://127.0.0.1:${server.port}/kitchen/api/board:snapshot`;
  const before = statusesOf('/kitchen/api/board:snapshot').length;
  // A no-cors fetch: the page cannot read the answer, but the browser sends the Strict cookie (same-site).
  await page.evaluate(async (url) => {
    await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include' });
    await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include', body: '{}' });
  }, target);
  const live = await page.evaluate(async (url) => {
    try {
      return (await fetch(url, { credentials: 'include' })).status;
    } catch {
      return 'blocked by CORS';
    }
  }, `http://127.0.0.1:${server.port}/kitchen/live`);
  assert.equal(live, 'blocked by CORS');
  await eventually(() => statusesOf('/kitchen/api/board:snapshot').length >= before + 2, 'the engine answered both');
  assert.deepEqual(statusesOf('/kitchen/api/board:snapshot').slice(before), [403, 403]);
  assert.equal(statusesOf('/kitchen/live').at(-1), 403);
  // A form posted by navigation: the tab shows the refusal, not the board.
  await Promise.all([page.waitForURL(target), page.locator('#f').evaluate((form) => (form as HTMLFormElement).submit())]);
  const shown = JSON.parse(await page.locator('body').innerText());
  assert.deepEqual([shown.ok, shown.error.code], [false, 'forbidden']);
  await context.close();
});
