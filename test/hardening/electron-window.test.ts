// The Electron window's security settings and Content Security Policy, checked on the real code
// of src/main: createKitchenWindow, guardNavigation and hardenSession run against a stand-in for
// the `electron` module (these tests run in plain Node), and the policy is read directive by directive.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../src/shared/content-security-policy.ts';
import type * as Security from '../../src/main/security.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** Every name src/main imports from 'electron', so the stand-in provides them all. */
function electronImports(): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(join(ROOT, 'src/main')).filter((f) => f.endsWith('.ts'))) {
    const source = readFileSync(join(ROOT, 'src/main', file), 'utf8');
    for (const match of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'electron'/g)) {
      for (const part of match[1]!.split(',')) {
        const name = part.trim();
        if (name && !name.startsWith('type ')) names.add(name.split(/\s+as\s+/)[0]!.trim());
      }
    }
  }
  return [...names];
}

/** A stand-in for `electron`: windows record their options and handlers; anything else absorbs calls. */
function electronStub(names: string[]): string {
  const special = new Set(['BrowserWindow', 'shell', 'nativeTheme']);
  const others = names.filter((n) => !special.has(n) && /^[A-Za-z_$][\w$]*$/.test(n));
  const source = `
const absorb = () => new Proxy(function () {}, { get: (_t, key) => (key === 'then' ? undefined : absorb()), apply: () => absorb(), construct: () => absorb() });
export const created = [];
export const opened = [];
export class BrowserWindow {
  constructor(options) {
    this.options = options;
    this.handlers = {};
    this.loaded = null;
    const self = this;
    this.webContents = { on(event, handler) { self.handlers[event] = handler; }, setWindowOpenHandler(handler) { self.openHandler = handler; } };
    created.push(this);
  }
  once() {}
  on() {}
  show() {}
  loadURL(url) { this.loaded = url; return Promise.resolve(); }
  loadFile(file) { this.loaded = file; return Promise.resolve(); }
}
export const nativeTheme = {};
export const shell = { openExternal(url) { opened.push(url); return Promise.resolve(); } };
${others.map((n) => `export const ${n} = absorb();`).join('\n')}
export default { BrowserWindow, nativeTheme, shell };
`;
  return `data:text/javascript,${encodeURIComponent(source)}`;
}

/** The policy as directive -> sources. */
function directives(policy: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of policy.split(';').map((p) => p.trim()).filter(Boolean)) {
    const [name, ...sources] = part.split(/\s+/);
    assert.ok(!map.has(name!), `directive ${name} twice`);
    map.set(name!, sources);
  }
  return map;
}

describe('the Electron window', () => {
  let window: any;
  let electron: any;
  let security: typeof Security;
  const rendererUrl = 'file:///opt/Comanda/resources/app.asar/out/renderer/index.html';

  before(async () => {
    const stub = electronStub(electronImports());
    registerHooks({
      resolve(specifier, context, next) {
        if (specifier === 'electron') return { url: stub, shortCircuit: true };
        return next(specifier, context);
      },
    });
    electron = await import('electron');
    const { createKitchenWindow } = await import('../../src/main/window.ts');
    security = await import('../../src/main/security.ts');
    window = createKitchenWindow({ preloadPath: '/opt/Comanda/preload/index.cjs', rendererUrl, devServer: false, rendererDir: '/opt/Comanda/out/renderer' });
  });

  test('webPreferences: isolated, sandboxed, no Node anywhere, web security on, no webview, only the preload', () => {
    const prefs = window.options.webPreferences;
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.equal(prefs.nodeIntegrationInWorker ?? false, false);
    assert.equal(prefs.nodeIntegrationInSubFrames ?? false, false);
    assert.equal(prefs.webSecurity ?? true, true);
    assert.equal(prefs.allowRunningInsecureContent ?? false, false);
    assert.equal(prefs.experimentalFeatures ?? false, false);
    assert.equal(prefs.webviewTag ?? false, false);
    assert.equal(prefs.enableBlinkFeatures, undefined);
    assert.equal(prefs.preload, '/opt/Comanda/preload/index.cjs');
    assert.equal(window.loaded, '/opt/Comanda/out/renderer/index.html', 'the built page is loaded from a file');
  });

  test('navigation: nowhere but the app; new windows denied, http(s) links to the system browser; no webviews', () => {
    const prevented = (event: string, url?: string) => {
      let stopped = false;
      window.handlers[event]({ preventDefault: () => (stopped = true) }, url);
      return stopped;
    };
    for (const event of ['will-navigate', 'will-redirect']) {
      assert.equal(prevented(event, `${rendererUrl}?view=stock`), false, `${event} within the app`);
      for (const url of ['https://evil.example/', 'file:///etc/passwd', 'http://127.0.0.1:4750/v1/sandbox/pay/x', 'javascript:alert(1)', 'data:text/html,x']) {
        assert.equal(prevented(event, url), true, `${event} to ${url}`);
      }
    }
    assert.equal(prevented('will-attach-webview'), true);
    for (const url of ['https://comanda.example/ayuda', 'http://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share']) {
      assert.deepEqual(window.openHandler({ url }), { action: 'deny' }, url);
    }
    assert.deepEqual(electron.opened, ['https://comanda.example/ayuda', 'http://example.com/']);
  });

  test('the session: every response carries the policy; no permission but writing the clipboard', () => {
    let onHeaders: any;
    let onRequest: any;
    let onCheck: any;
    const session = {
      webRequest: { onHeadersReceived: (handler: unknown) => (onHeaders = handler) },
      setPermissionRequestHandler: (handler: unknown) => (onRequest = handler),
      setPermissionCheckHandler: (handler: unknown) => (onCheck = handler),
    };
    security.hardenSession(session as never, undefined);
    let headers: any;
    onHeaders({ responseHeaders: { 'Content-Security-Policy': ["default-src *"], 'X-Other': ['1'] } }, (result: any) => (headers = result.responseHeaders));
    assert.deepEqual(headers['Content-Security-Policy'], [CONTENT_SECURITY_POLICY], 'the page cannot loosen the policy');
    assert.deepEqual(headers['X-Other'], ['1']);
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read', 'usb', 'hid', 'serial']) {
      let granted: boolean | undefined;
      onRequest({}, permission, (ok: boolean) => (granted = ok));
      assert.equal(granted, false, permission);
      assert.equal(onCheck({}, permission), false, permission);
    }
    let clipboard: boolean | undefined;
    onRequest({}, 'clipboard-sanitized-write', (ok: boolean) => (clipboard = ok));
    assert.equal(clipboard, true);
  });

  test('the Content Security Policy: nothing but the app\'s own files, no inline or eval, no objects, frames or forms', () => {
    const csp = directives(CONTENT_SECURITY_POLICY);
    assert.deepEqual(csp.get('default-src'), ["'none'"]);
    assert.deepEqual(csp.get('script-src'), ["'self'"]);
    assert.deepEqual(csp.get('object-src'), ["'none'"]);
    assert.deepEqual(csp.get('base-uri'), ["'none'"]);
    assert.deepEqual(csp.get('form-action'), ["'none'"]);
    assert.deepEqual(csp.get('frame-src'), ["'none'"]);
    // The page talks to main through the preload only: no network beyond its own origin.
    assert.deepEqual(csp.get('connect-src'), ["'self'"]);
    for (const [name, sources] of csp) {
      for (const source of sources) {
        assert.doesNotMatch(source, /unsafe-|^\*$|^https?:$|^http:|^ws:|^blob:/, `${name} allows ${source}`);
        if (source === 'data:') assert.ok(['img-src', 'media-src', 'font-src'].includes(name), `${name} allows data:`);
      }
    }
    // The same policy is in the page itself (it also covers file:// loads, where headers are not sent).
    const html = readFileSync(join(ROOT, 'src/renderer/index.html'), 'utf8');
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html)?.[1];
    assert.equal(meta, CONTENT_SECURITY_POLICY);
  });
});
