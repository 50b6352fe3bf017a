import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { mkdtempSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CONTENT_SECURITY_POLICY, DEV_SERVER_CONTENT_SECURITY_POLICY } from '../../src/shared/content-security-policy.ts';
import { LAN_HOST, LOOPBACK_HOST, portIsFree, startEngineHost } from '../../src/main/engine-host.ts';
import { isAllowedNavigation, isTrustedSenderUrl } from '../../src/main/ipc-guard.ts';
import { DEFAULT_SETTINGS, type AppSettings } from '../../src/shared/screen-contract/settings.ts';
import { R1, R2 } from '../support/demo-ids.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const source = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('IPC sender checks', () => {
  const built = 'file:///opt/Comanda/resources/app.asar/out/renderer/index.html';
  test('the built page: only that file', () => {
    assert.equal(isTrustedSenderUrl(built, built), true);
    assert.equal(isTrustedSenderUrl(`${built}?view=stock`, built), true);
    assert.equal(isTrustedSenderUrl('file:///tmp/evil.html', built), false);
    assert.equal(isTrustedSenderUrl('https://evil.example/', built), false);
    assert.equal(isTrustedSenderUrl(undefined, built), false);
    assert.equal(isTrustedSenderUrl('not a url', built), false);
  });
  test('the dev server: its origin only', () => {
    const dev = 'http://localhost:5173/';
    assert.equal(isTrustedSenderUrl('http://localhost:5173/index.html', dev), true);
    assert.equal(isTrustedSenderUrl('http://localhost:5174/', dev), false);
    assert.equal(isTrustedSenderUrl('http://127.0.0.1:4750/v1/sandbox/pay/x', dev), false);
    assert.equal(isAllowedNavigation('https://example.com', dev), false);
  });
});

describe('Electron security settings', () => {
  test('the page and main share one strict Content Security Policy', () => {
    assert.ok(source('src/renderer/index.html').includes(`content="${CONTENT_SECURITY_POLICY}"`));
    assert.doesNotMatch(CONTENT_SECURITY_POLICY, /unsafe-inline|unsafe-eval|\*/);
    assert.match(CONTENT_SECURITY_POLICY, /default-src 'none'/);
    assert.match(DEV_SERVER_CONTENT_SECURITY_POLICY, /script-src 'self' 'unsafe-inline'/);
    assert.match(DEV_SERVER_CONTENT_SECURITY_POLICY, /connect-src 'self' ws:\/\/localhost:\*/);
    assert.match(source('renderer.vite.ts'), /apply: 'serve'/);
  });

  test('the window is isolated and sandboxed, navigation and new windows are blocked, IPC senders checked', () => {
    const window = source('src/main/window.ts');
    for (const option of ['contextIsolation: true', 'sandbox: true', 'nodeIntegration: false', 'webviewTag: false', 'webSecurity: true']) {
      assert.ok(window.includes(option), option);
    }
    const security = source('src/main/security.ts');
    assert.match(security, /will-navigate/);
    assert.match(security, /setWindowOpenHandler/);
    assert.match(security, /action: 'deny'/);
    assert.match(security, /setPermissionRequestHandler/);
    const ipc = source('src/main/ipc-main.ts');
    assert.match(ipc, /isTrustedSenderUrl/);
    assert.match(ipc, /dispatchScreenCall/);
  });

  test('the preload exposes the bridge only, and builds to one CommonJS file (sandboxed preloads cannot load ESM)', () => {
    const preload = source('src/preload/index.ts');
    assert.match(preload, /contextBridge\.exposeInMainWorld\('comanda', bridge\)/);
    assert.doesNotMatch(preload, /exposeInMainWorld\([^)]*ipcRenderer\)/);
    assert.match(source('electron.vite.config.ts'), /format: 'cjs', entryFileNames: '\[name\]\.cjs'/);
    assert.match(source('src/main/index.ts'), /preload\/index\.cjs/);
  });

  test('the key store encrypts with safeStorage and refuses where it is unavailable', () => {
    const store = source('src/main/settings-file.ts');
    assert.match(store, /safeStorage\.encryptString/);
    assert.match(store, /isEncryptionAvailable\(\)/);
    assert.match(store, /basic_text/);
    assert.match(store, /throw secureStorageUnavailable\(\)/);
  });
});

describe('engine host (the engine as main boots it)', () => {
  const settings = (over: Partial<AppSettings> = {}): AppSettings => ({ ...DEFAULT_SETTINGS, http: { port: 0 + 48_000 + (process.pid % 1000), lan: false }, ...over });

  test('first start: database in the data folder, demo restaurants, the HTTP API on 127.0.0.1', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'comanda-host-'));
    try {
      const host = await startEngineHost({ dataDir, settings: settings() });
      try {
        assert.equal(host.databasePath, join(dataDir, 'comanda.db'));
        assert.ok(existsSync(host.databasePath));
        assert.equal(host.host, LOOPBACK_HOST);
        assert.equal(host.restaurantId, R1.id);
        assert.deepEqual(host.restaurants.map((r) => r.id), [R1.id, R2.id]);
        assert.match(host.server.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
        const response = await fetch(`${host.server.baseUrl}/menu`);
        assert.equal(response.status, 401);
        assert.deepEqual(host.lanUrls(), []);
        // The engine's jobs run with it (scheduled releases, unpaid expiry, couriers, mail).
        assert.equal(host.jobs, host.server.jobs);
        await host.jobs.runDue();
      } finally {
        await host.close();
      }
      // A second start keeps the data: no second demo, the chosen restaurant from the settings.
      const again = await startEngineHost({ dataDir, settings: settings({ restaurant_id: R2.id }) });
      try {
        assert.equal(again.restaurantId, R2.id);
        assert.equal(again.restaurants.length, 2);
        const managed = again.server.engine.db.prepare('SELECT COUNT(*) AS n FROM orders WHERE managed_by IS NOT NULL').get() as { n: number };
        assert.equal(managed.n, 0, 'the hub starts without the API demo\'s POS-managed order: nothing on a new board a cook cannot bump');
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('LAN access binds every interface; a busy port falls back to a free one and says so', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'comanda-host-'));
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const busy = (blocker.address() as { port: number }).port;
    try {
      assert.equal(await portIsFree('127.0.0.1', busy), false);
      const host = await startEngineHost({ dataDir, settings: settings({ http: { port: busy, lan: false } }) });
      try {
        assert.deepEqual(host.portFallback, { wanted: busy, got: host.server.port });
        assert.notEqual(host.server.port, busy);
      } finally {
        await host.close();
      }
      const lan = await startEngineHost({ dataDir, settings: settings({ http: { port: 0 + 49_000 + (process.pid % 1000), lan: true } }) });
      try {
        assert.equal(lan.host, LAN_HOST);
        assert.equal((await fetch(`http://127.0.0.1:${lan.server.port}/v1/menu`)).status, 401);
        for (const url of lan.lanUrls()) assert.match(url, /^http:\/\/\d+\.\d+\.\d+\.\d+:\d+\/v1$/);
      } finally {
        await lan.close();
      }
    } finally {
      blocker.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
