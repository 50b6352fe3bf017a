// `npm start` where Electron's binary cannot be downloaded (its mirror pointed at a closed port), run
// as a user runs it: the npm process, a fresh data folder, the page built on first start. It falls
// back to the browser: the link it prints opens the whole app in headless Chromium, whose manager
// screens change what /v1 sees; the link is single use; the manager's channels are refused without
// the session cookie, from a non-loopback address and from a foreign Origin; a paired tablet keeps
// only the kitchen channels; SIGTERM to npm stops the engine and frees the port.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { lanAddresses, portIsFree } from '../../src/main/engine-host.ts';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { ARTIFACTS } from '../renderer/support/kitchen-under-test.ts';
import { browserOpener, windowlessReason } from '../../scripts/start.ts';
import { rawRequest } from '../engine/http/kitchen/raw-request.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const LINK = /http:\/\/127\.0\.0\.1:(\d+)\/kitchen\/admin\?token=(cmadm_[A-Za-z0-9_-]{43})/;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const VIEWS = ['board', 'stock', 'locations', 'reports', 'screens', 'integrations', 'settings'] as const;
const VIEW_READY: Record<(typeof VIEWS)[number], string> = {
  board: '[data-testid="board"]',
  stock: '[data-testid="stock-view"]',
  locations: '[data-testid="locations-view"]',
  // Informes over the browser mode's transport (the admin session's HTTP door): drawn once the report came back.
  reports: '[data-testid="report"]',
  screens: '[data-testid="screens-view"]',
  integrations: '[data-testid="integrations-view"]',
  settings: '[data-testid="settings-view"]',
};
const SIZES = { landscape: { width: 1280, height: 800 }, portrait: { width: 800, height: 1280 } };

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

describe('npm start without Electron: the whole app in the browser', () => {
  let dataDir: string;
  let work: string;
  let port: number;
  let npm: ChildProcess;
  let stdout = '';
  let stderr = '';
  let exited: Promise<number | null>;
  let startedAt: number;
  let linkAfterMs: number;
  let link: string;
  let origin: string;
  let browser: Browser;
  let manager: BrowserContext;
  let page: Page;
  let opened: string;
  /** The key made in Integraciones. */
  let key: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'comanda-start-'));
    dataDir = join(work, 'data');
    mkdirSync(dataDir);
    // LAN access on, as a restaurant would have it for its tablets: admin calls stay loopback-only anyway.
    port = await freePort();
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ settings: { http: { port, lan: true } } }));
    // The system's browser opener, recording what it was asked to open (headless Chromium opens it below).
    const bin = join(work, 'bin');
    mkdirSync(bin);
    opened = join(work, 'opened.txt');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const closedPort = await freePort();
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(electron_|ELECTRON_|npm_config_electron|COMANDA_)/.test(name)));
    startedAt = Date.now();
    npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: {
        ...env,
        ELECTRON_MIRROR: `http://127.0.0.1:${closedPort}/`,
        electron_config_cache: join(work, 'electron-cache'),
        COMANDA_DATA_DIR: dataDir,
        // A page built on this start, as on a fresh clone (and apart from out/, which other tests rebuild).
        COMANDA_RENDERER_DIR: join(work, 'renderer'),
        DISPLAY: ':0',
        PATH: `${bin}:${process.env.PATH}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    npm.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    exited = new Promise((done) => npm.once('exit', (code) => done(code)));
    await eventually(() => LINK.test(stdout) || npm.exitCode !== null, 'the link on stdout', { timeoutMs: 180_000 });
    linkAfterMs = Date.now() - startedAt;
    const match = LINK.exec(stdout);
    assert.ok(match, `no link printed:\n${stdout}\n${stderr}`);
    link = match[0];
    origin = `http://127.0.0.1:${match[1]}`;
    console.log(`[start] link printed ${(linkAfterMs / 1000).toFixed(1)} s after npm start (Electron download refused, page built, engine started)`);
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    manager = await browser.newContext({ viewport: SIZES.landscape, locale: 'es-CL', timezoneId: 'America/Santiago' });
    page = await manager.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
  }, { timeout: 300_000 });

  after(async () => {
    await browser?.close().catch(() => {});
    if (npm && npm.exitCode === null) npm.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  });

  const adminCall = (channel: string, body: unknown = {}) =>
    page.evaluate(
      async ([c, b]) => {
        const response = await fetch(`/kitchen/api/${c}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
        return { status: response.status, body: (await response.json()) as any };
      },
      [channel, body] as const,
    );
  const v1 = async (path: string, key: string) => {
    const response = await fetch(`${origin}/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: response.status, body: (await response.json()) as any };
  };

  test('it says in one line why Electron cannot start, prints the link and opens it in the browser', async () => {
    // How long the link took is printed above (the minute is a figure to watch, not a
    // wall-clock bound a busy machine could break).
    const why = stdout.split('\n').filter((line) => line.startsWith('Comanda: Electron cannot start here'));
    assert.equal(why.length, 1, stdout);
    assert.match(why[0]!, /could not download Electron .* from http:\/\/127\.0\.0\.1:\d+\/: .*; running the whole app in this machine's browser instead\.$/);
    assert.match(stdout, /on the demo restaurants/);
    assert.match(stdout, new RegExp(`unencrypted in ${join(dataDir, 'browser-mode-secrets.json').replaceAll('/', '\\/')} \\(0600\\)`));
    await eventually(() => existsSync(opened), 'xdg-open called');
    assert.equal(readFileSync(opened, 'utf8').trim(), link, 'the default browser was asked to open the link');
    assert.equal(existsSync(join(dataDir, 'comanda.db')), true, 'the app’s database, in the app’s data folder');
  });

  test('the link opens the whole app: the board and every manager screen, in both sizes', async () => {
    const response = await page.goto(link);
    assert.equal(new URL(page.url()).pathname, '/kitchen/');
    assert.match(response!.headers()['content-security-policy'] ?? '', /default-src 'none'/);
    await page.locator('[data-testid="app"][data-mode="desktop"]').waitFor();
    await page.locator(VIEW_READY.board).waitFor();
    for (const view of VIEWS) assert.equal(await page.locator(`[data-testid="nav-${view}"]`).count(), 1, `tab ${view}`);
    const cookie = (await manager.cookies()).find((c) => c.name === 'comanda_admin')!;
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    assert.equal(cookie.path, '/kitchen');
    assert.equal(await page.evaluate(() => document.cookie), '', 'the session is out of the page scripts’ reach');
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      for (const view of VIEWS) {
        await page.goto(`${origin}/kitchen/?view=${view}`);
        // A view's page load can take long on a loaded machine (another e2e file beside it): the
        // wait is a safety net, well inside the test's own.
        await page.locator(VIEW_READY[view]).waitFor({ timeout: 45_000 });
        // The hub's first start has an empty board (no demo POS order): wait for it to be drawn,
        // not for a ticket (that wait ran out its 30 s at every size).
        if (view === 'board') await page.locator('[data-testid="board"][data-active]').waitFor();
        if (view === 'stock') await page.locator('tr[data-product-id]').first().waitFor();
        if (view === 'locations') await page.locator('[data-location-id]').first().waitFor();
        // Ajustes is shown at the notice on where the browser mode keeps the platform key.
        if (view === 'settings') await page.locator('[data-testid="clear-text-storage"]').scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(ARTIFACTS, `i23-browser-${view}-${size}.png`) });
      }
    }
    await page.setViewportSize(SIZES.landscape);
    assert.match(await page.locator('[data-testid="clear-text-storage"]').innerText(), new RegExp(`browser-mode-secrets\\.json, con permisos 0600`));
  });

  test('a key made in Integraciones, a stock edit and a location closed and opened take effect over /v1', async () => {
    await page.goto(`${origin}/kitchen/?view=integrations`);
    await page.locator('[data-testid="key-label"]').fill('Tienda web');
    await page.locator('[data-testid="key-world"]').selectOption('live');
    await page.locator('[data-testid="key-write"]').selectOption('write');
    await page.locator('[data-testid="key-generate"]').click();
    key = (await page.locator('[data-testid="key-secret"]').innerText()).trim();
    assert.match(key, /^cm_live_/);
    assert.equal((await v1('/menu', key)).status, 200, 'the new key is accepted by /v1');

    await page.goto(`${origin}/kitchen/?view=stock`);
    const row = page.locator(`tr[data-product-id="${R1.products.empanadaQueso}"]`);
    await row.waitFor();
    await row.locator('[data-testid="quantity"]').fill('17');
    await page.locator('[data-testid="stock-save"]').click();
    await page.locator('[data-testid="stock-result"][data-simulated="false"]').waitFor();
    const stock = await v1(`/stock?location_id=${R1.openLocation}`, key);
    assert.equal(stock.body.data.find((e: any) => e.product_id === R1.products.empanadaQueso).quantity, 17);

    await page.goto(`${origin}/kitchen/?view=locations`);
    const card = page.locator(`[data-location-id="${R1.openLocation}"]`);
    await card.locator('[data-testid="location-close"]').click();
    await page.locator('[data-testid="confirm-yes"]').click();
    await eventually(async () => (await card.getAttribute('data-open')) === 'false', 'closed on screen');
    const open = async () => (await v1('/locations', key)).body.data.find((l: any) => l.location_id === R1.openLocation).open_now;
    assert.equal(await open(), false);
    await card.locator('[data-testid="location-open"]').click();
    await eventually(async () => (await card.getAttribute('data-open')) === 'true', 'opened on screen');
    assert.equal(await open(), true);
  });

  test('an order posted over /v1 reaches the manager’s board on the live stream', async () => {
    await page.goto(`${origin}/kitchen/`);
    await page.locator(VIEW_READY.board).waitFor();
    const response = await fetch(`${origin}/v1/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Modo navegador', phone: '+56 9 2222 3333' },
        items: [{ product_id: R1.products.cazuela, quantity: 1 }],
      }),
    });
    const order = (await response.json()) as { id: string };
    assert.equal(response.status, 201, JSON.stringify(order));
    await page.locator(`article[data-order-id="${order.id}"]`).waitFor();
  });

  test('a platform key saved in Ajustes goes to the 0600 file the screen names', async () => {
    const saved = await adminCall('platform:set-key', { key: 'cm_test_abcdefghijklmnopqrstuvwxyz123456', label: 'prueba' });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.value.secure_storage.clear_text_file, join(dataDir, 'browser-mode-secrets.json'));
    assert.equal(statSync(join(dataDir, 'browser-mode-secrets.json')).mode & 0o777, 0o600);
    assert.equal((await adminCall('platform:clear-key')).status, 200);
  });

  test('the link is refused on second use, in another browser as in the same one', async () => {
    const other = await browser.newContext();
    try {
      const again = await other.newPage();
      const response = await again.goto(link);
      assert.equal(response!.status(), 403);
      assert.match(await again.locator('body').innerText(), /ya se usó o venció|already used or has expired|una sola vez/);
      assert.equal((await other.cookies()).some((c) => c.name === 'comanda_admin'), false);
      // Without a session the page is a tablet's pairing page: no manager screen.
      await again.goto(`${origin}/kitchen/`);
      await again.locator('[data-testid="pairing-required"]').waitFor();
      // On the machine itself, the pairing page points the manager to the terminal's link.
      assert.match(await again.locator('[data-testid="pairing-manager-hint"]').innerText(), /enlace que muestra la terminal de npm start/);
    } finally {
      await other.close();
    }
    assert.equal((await fetch(link, { redirect: 'manual' })).status, 403);
  });

  test('admin channels are refused without the cookie, from a non-loopback address and with a foreign Origin', async (t) => {
    const session = (await manager.cookies()).find((c) => c.name === 'comanda_admin')!.value;
    const p = Number(new URL(origin).port);
    const headers = (over: Record<string, string> = {}) => ({ 'content-type': 'application/json', host: `127.0.0.1:${p}`, origin, cookie: `comanda_admin=${session}`, ...over });
    const call = (over: Record<string, string>, localAddress?: string) =>
      rawRequest(p, { method: 'POST', path: '/kitchen/api/keys:list', headers: headers(over), body: '{}', ...(localAddress ? { localAddress } : {}) });

    // The control: this cookie, from loopback, with the app's own Origin, lists the keys.
    const allowed = await call({});
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    assert.ok(Array.isArray(allowed.body.value));

    const { cookie: _none, ...withoutCookie } = headers();
    const anonymous = await rawRequest(p, { method: 'POST', path: '/kitchen/api/keys:list', headers: withoutCookie, body: '{}' });
    assert.equal(anonymous.status, 404, 'a desktop channel does not exist without the session');
    const forged = await call({ cookie: 'comanda_admin=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    assert.equal(forged.status, 404);

    const foreign = await call({ origin: 'http://evil.example' });
    assert.deepEqual([foreign.status, foreign.body.error.code], [403, 'forbidden']);
    const { origin: _origin, ...withoutOrigin } = headers();
    const noOrigin = await rawRequest(p, { method: 'POST', path: '/kitchen/api/keys:list', headers: withoutOrigin, body: '{}' });
    assert.equal(noOrigin.status, 403, 'a POST without Origin is not the app’s page');
    const rebound = await call({ host: `evil.example:${p}`, origin: `http://evil.example:${p}` });
    assert.equal(rebound.status, 403, 'a foreign Host (DNS rebinding) is refused');
    const crossSite = await call({ 'sec-fetch-site': 'cross-site' });
    assert.equal(crossSite.status, 403);
    const live = await rawRequest(p, { method: 'GET', path: '/kitchen/live', headers: { host: `127.0.0.1:${p}`, origin: 'http://evil.example', cookie: `comanda_admin=${session}` } });
    assert.equal(live.status, 403);

    // From another address of this machine to 127.0.0.1: the server sees a non-loopback peer.
    const other = lanAddresses()[0];
    if (!other) {
      t.diagnostic('this machine has no non-loopback IPv4 address: the address check is covered by admin-session.test.ts only');
      return;
    }
    const fromLan = await call({}, other);
    assert.deepEqual([fromLan.status, fromLan.body.error.code], [403, 'forbidden']);
    assert.match(fromLan.body.error.message, /not loopback/);
    const linkFromLan = await rawRequest(p, { method: 'GET', path: '/kitchen/session', headers: { host: `127.0.0.1:${p}`, cookie: `comanda_admin=${session}` }, localAddress: other });
    assert.equal(linkFromLan.status, 401, 'from a non-loopback address the session is no session at all');
  });

  test('a paired tablet keeps exactly the kitchen channels', async () => {
    const offer = await adminCall('devices:pair', { name: 'Plancha' });
    assert.equal(offer.status, 200, JSON.stringify(offer.body));
    // LAN access is on, so the URL names this machine's LAN address: the same secret, opened on loopback.
    const secret = new URL(offer.body.value.pairing_url).searchParams.get('secret');
    const tablet = await browser.newContext({ viewport: SIZES.portrait });
    try {
      const t = await tablet.newPage();
      await t.goto(`${origin}/kitchen/pair?secret=${secret}`);
      await t.locator('[data-testid="app"][data-mode="tablet"]').waitFor();
      const call = (channel: string) =>
        t.evaluate(async (c) => (await fetch(`/kitchen/api/${c}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, channel);
      assert.equal(await call('board:snapshot'), 200);
      for (const channel of ['keys:list', 'settings:get', 'devices:pair', 'app:info']) assert.equal(await call(channel), 404, channel);
    } finally {
      await tablet.close();
    }
  });

  test('the one-time token never reaches the log', () => {
    const log = readFileSync(join(dataDir, 'comanda.log'), 'utf8');
    const token = LINK.exec(link)![2]!;
    assert.ok(log.includes('/kitchen/admin?token=cmadm_[redacted]'), 'the login request is logged, redacted');
    assert.ok(!log.includes(token), 'no token in the log');
  });

  test('SIGTERM to the npm process stops the engine and frees the port', async () => {
    await browser.close();
    npm.kill('SIGTERM');
    await exited;
    await eventually(() => /Comanda: stopped\./.test(stdout), 'the stop line');
    assert.equal(await portIsFree('0.0.0.0', Number(new URL(origin).port)), true, 'the port is free');
    await assert.rejects(fetch(`${origin}/v1/openapi.json`));
    assert.equal(existsSync(join(dataDir, 'comanda.db-serving.json')), false, 'the serving lock is released');
  });
});

describe('npm start: where Electron can open a window, and how the browser is opened', () => {
  test('Linux needs a display (X11 or Wayland); macOS and Windows always have one', () => {
    assert.match(windowlessReason('linux', {}) ?? '', /no display/);
    assert.equal(windowlessReason('linux', { DISPLAY: ':0' }), null);
    assert.equal(windowlessReason('linux', { WAYLAND_DISPLAY: 'wayland-0' }), null);
    assert.equal(windowlessReason('darwin', {}), null);
    assert.equal(windowlessReason('win32', {}), null);
  });

  test('xdg-open, open or start; nothing without a display (a text browser could spend the link)', () => {
    const url = 'http://127.0.0.1:4750/kitchen/admin?token=cmadm_x';
    assert.deepEqual(browserOpener(url, 'linux', { DISPLAY: ':0' }), { command: 'xdg-open', args: [url] });
    assert.deepEqual(browserOpener(url, 'darwin', {}), { command: 'open', args: [url] });
    assert.deepEqual(browserOpener(url, 'win32', {}), { command: 'cmd', args: ['/c', 'start', '', url] });
    assert.equal(browserOpener(url, 'linux', {}), null);
  });
});
