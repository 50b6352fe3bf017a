// Boots the main process as built (`electron-vite build` → out/main/index.js) under a stand-in
// `electron` module: the wiring and the paths that only a real launch would otherwise show. The
// build goes to a temp folder of its own, never the repo's out/ (which `npm run build` owns).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SCREEN_CHANNELS, LIVE_CHANNEL } from '../../src/shared/screen-contract/contract.ts';
import type { LivePush } from '../../src/shared/screen-contract/kitchen.ts';
import { R1 } from '../support/demo-ids.ts';
import { walLogState } from '../support/wal-log-state.ts';
import { eventually } from '../support/eventually.ts';
import { MercadoPagoStandIn } from '../support/mercadopago-stand-in.ts';
import type { StandInCommand, StandInQuestion, StandInReport } from './support/stand-in-electron.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** The build's folder, laid out as the repo is where the bundle looks outside itself. */
const BUILT = mkdtempSync(join(tmpdir(), 'comanda-built-main-'));
const OUT = join(BUILT, 'out');

before(() => {
  // The bundle leaves its dependencies to node_modules and finds the window icon at
  // ../../resources from out/main: both reached through links beside the build.
  symlinkSync(join(ROOT, 'node_modules'), join(BUILT, 'node_modules'));
  symlinkSync(join(ROOT, 'resources'), join(BUILT, 'resources'));
  // The same build `npm run build` makes, a few seconds of it.
  execFileSync(join(ROOT, 'node_modules/.bin/electron-vite'), ['build', '--logLevel', 'warn', '--outDir', OUT], { cwd: ROOT, stdio: 'inherit' });
}, { timeout: 300_000 });
after(() => rmSync(BUILT, { recursive: true, force: true }));

interface BootedMain {
  child: ChildProcess;
  reports: StandInReport[];
  /** Resolves with the first report (already received or yet to come) that `match` accepts. */
  waitFor<T extends StandInReport>(match: (report: StandInReport) => report is T, what: string): Promise<T>;
  ask(question: StandInQuestion): Promise<unknown>;
  exited: Promise<number | null>;
}

/** The built app, not electron-vite dev: no dev server URL may leak in from the environment. */
function withoutDevServer(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ELECTRON_RENDERER_URL: _devServer, ...rest } = env;
  return rest;
}

function bootBuiltMain(dataDir: string): BootedMain {
  const child = fork(join(OUT, 'main/index.js'), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx', '--import', join(ROOT, 'test/main/support/use-stand-in-electron.ts')],
    env: { ...withoutDevServer(process.env), COMANDA_DATA_DIR: dataDir },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const reports: StandInReport[] = [];
  const waiters: { match: (report: StandInReport) => boolean; resolve: (report: StandInReport) => void }[] = [];
  child.on('message', (report: StandInReport) => {
    reports.push(report);
    for (const waiter of [...waiters]) {
      if (waiter.match(report)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(report);
      }
    }
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let nextId = 1;
  const waitFor = <T extends StandInReport>(match: (report: StandInReport) => report is T, what: string) => {
    const seen = reports.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<T>((done, fail) => {
      // A safety net against a main that never says it (a busy machine boots it slowly, not wrongly).
      const timer = setTimeout(() => fail(new Error(`main never reported ${what}`)), 120_000);
      waiters.push({
        match,
        resolve: (report) => {
          clearTimeout(timer);
          done(report as T);
        },
      });
      void exited.then((code) => fail(new Error(`main exited (${code}) before ${what}`)));
    });
  };
  const ask = async (question: StandInQuestion) => {
    const id = nextId++;
    const reply = waitFor((r): r is Extract<StandInReport, { type: 'reply' }> => r.type === 'reply' && r.id === id, `a reply to ${id}`);
    child.send({ ...question, id } satisfies StandInCommand);
    return (await reply).result;
  };
  return { child, reports, waitFor, ask, exited };
}

describe('the built main process under a stand-in electron', () => {
  let dataDir: string;
  let main: BootedMain;

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'comanda-main-'));
    main = bootBuiltMain(dataDir);
  });

  after(async () => {
    if (main.child.exitCode === null) main.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the window is created isolated and sandboxed, with the preload the build produced, on the built page', async () => {
    const window = await main.waitFor((r): r is Extract<StandInReport, { type: 'window' }> => r.type === 'window', 'a window');
    const web = window.options.webPreferences;
    assert.equal(web.contextIsolation, true);
    assert.equal(web.sandbox, true);
    assert.equal(web.nodeIntegration, false);
    assert.equal(web.webSecurity, true);
    assert.equal(web.webviewTag, false);
    assert.equal(resolve(web.preload), join(OUT, 'preload/index.cjs'));
    assert.ok(existsSync(web.preload), `the preload ${web.preload} exists`);
    assert.ok(existsSync(window.options.icon), 'the window icon exists');
    const load = await main.waitFor((r): r is Extract<StandInReport, { type: 'load' }> => r.type === 'load', 'a page load');
    assert.equal(fileURLToPath(load.url), join(OUT, 'renderer/index.html'));
    assert.ok(existsSync(fileURLToPath(load.url)));
    assert.equal(await main.ask({ cmd: 'permission', permission: 'geolocation' }), false);
    assert.equal(await main.ask({ cmd: 'permission', permission: 'clipboard-sanitized-write' }), true);
  });

  test('the engine starts on the data folder and every channel of the IPC contract has a handler', async () => {
    await main.waitFor((r): r is Extract<StandInReport, { type: 'load' }> => r.type === 'load', 'a page load');
    const handled = main.reports.filter((r) => r.type === 'handle').map((r) => (r as { channel: string }).channel);
    assert.deepEqual([...handled].sort(), [...SCREEN_CHANNELS].sort());
    assert.ok(existsSync(join(dataDir, 'comanda.db')), 'the database is in the data folder');
    const info = (await main.ask({ cmd: 'invoke', channel: 'app:info', request: {} })) as { ok: true; value: { api_base_url: string; data_dir: string } };
    assert.equal(info.ok, true);
    assert.equal(info.value.data_dir, dataDir);
    const openapi = await fetch(`${info.value.api_base_url}/openapi.json`);
    assert.equal(openapi.status, 200);
    const board = (await main.ask({ cmd: 'invoke', channel: 'board:snapshot', request: {} })) as { ok: boolean; value: { restaurant: { name: string } } };
    assert.equal(board.ok, true);
    // The first demo restaurant (resources/demo/restaurant-1.json), imported on the first start.
    assert.equal(board.value.restaurant.name, 'La Picada de Ñuñoa');
  });

  test('a page that is not the app is refused', async () => {
    const refused = (await main.ask({ cmd: 'invoke', channel: 'board:snapshot', request: {}, senderUrl: 'https://evil.example/' })) as { ok: boolean; error: { code: string } };
    assert.deepEqual([refused.ok, refused.error.code], [false, 'forbidden']);
  });

  test('the live feed pushes an order written over the HTTP API to the window', async () => {
    const info = (await main.ask({ cmd: 'invoke', channel: 'app:info', request: {} })) as { value: { api_base_url: string } };
    const created = (await main.ask({ cmd: 'invoke', channel: 'keys:create', request: { world: 'test', write: true, label: 'boot test' } })) as { value: { key: string } };
    const response = await fetch(`${info.value.api_base_url}/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${created.value.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Prueba de arranque', phone: '+56911112222' },
        items: [{ product_id: R1.products.cazuela, quantity: 1 }],
      }),
    });
    const order = (await response.json()) as { id: string };
    assert.equal(response.status, 201, JSON.stringify(order));
    const pushed = await main.waitFor(
      (r): r is Extract<StandInReport, { type: 'send' }> =>
        r.type === 'send' &&
        r.channel === LIVE_CHANNEL &&
        (r.payload as LivePush).kind === 'events' &&
        (r.payload as Extract<LivePush, { kind: 'events' }>).events.some((e) => 'order' in e && e.order.id === order.id),
      'the new order on the live channel',
    );
    assert.ok(pushed);
    // The bundled main process runs the WAL checkpointer's worker (store/wal-checkpointer.ts): the
    // log is copied into the file without the serving connection's own checkpoint (16,000 pages).
    await eventually(
      () => {
        const { frames, copied } = walLogState(join(dataDir, 'comanda.db'));
        return frames > 0 && copied === frames;
      },
      'the log copied by the worker',
    );
  });

  test('quitting closes the engine: the process exits 0, the port closes and the data is on disk', async () => {
    const info = (await main.ask({ cmd: 'invoke', channel: 'app:info', request: {} })) as { value: { api_base_url: string } };
    main.child.send({ cmd: 'quit' });
    assert.equal(await main.exited, 0);
    assert.ok(main.reports.some((r) => r.type === 'exit' && r.code === 0));
    assert.ok(!main.reports.some((r) => r.type === 'error-box'), 'no error dialog');
    await assert.rejects(fetch(`${info.value.api_base_url}/openapi.json`));
    const db = new Database(join(dataDir, 'comanda.db'), { readonly: true });
    try {
      const orders = db.prepare(`SELECT COUNT(*) AS n FROM orders WHERE customer_name = 'Prueba de arranque'`).get() as { n: number };
      assert.equal(orders.n, 1);
    } finally {
      db.close();
    }
  });
});

describe('the built main process on a database it cannot use', () => {
  test('a 0-byte comanda.db: the error dialog says what, which file and how to restore; exit 1; the file untouched', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'comanda-main-bad-'));
    const dbPath = join(dataDir, 'comanda.db');
    try {
      writeFileSync(dbPath, '');
      const main = bootBuiltMain(dataDir);
      const box = await main.waitFor((r): r is Extract<StandInReport, { type: 'error-box' }> => r.type === 'error-box', 'an error dialog');
      assert.ok(box.content.includes(`cannot use the database ${dbPath}: it is empty (0 bytes)`), box.content);
      assert.match(box.content, /To restore: .*backup/);
      assert.equal(await main.exited, 1);
      assert.ok(!main.reports.some((r) => r.type === 'window'), 'no kitchen window on a database it cannot use');
      assert.equal(statSync(dbPath).size, 0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the built main process on a settings file written before issue 31\'s renames', () => {
  // What a release before issue 31 wrote (settings-file.ts at 5865221^): the platform key's world
  // under `mode`, the payment account without its provider (Mercado Pago's was the only one). The
  // ciphers are the stand-in safeStorage's, so main decrypts them as it would its own.
  const PLATFORM_KEY = 'cm_live_0123456789abcdefABCDEF0123456789';
  const ACCESS_TOKEN = 'APP_USR-3131313131313131-112620-0a1b2c3d4e5f60718293a4b5c6d7e8f9-313131';
  const WEBHOOK_SECRET = 'whsec-old-file-7e6d5c4b3a29';
  const standInCipher = (text: string) => Buffer.from(`stand-in:${Buffer.from(text, 'utf8').toString('base64')}`).toString('base64');
  let dataDir: string;
  let main: BootedMain;
  let mp: MercadoPagoStandIn;

  before(async () => {
    mp = await MercadoPagoStandIn.start(ACCESS_TOKEN);
    dataDir = mkdtempSync(join(tmpdir(), 'comanda-main-old-settings-'));
    const oldFile = {
      settings: { restaurant_id: R1.id },
      platformKey: { cipher: standInCipher(PLATFORM_KEY), label: 'Plataforma', mode: 'live', last4: PLATFORM_KEY.slice(-4) },
      payments: {
        [R1.id]: {
          cipher: standInCipher(JSON.stringify({ accessToken: ACCESS_TOKEN, webhookSecret: WEBHOOK_SECRET })),
          api_base: mp.baseUrl,
          access_token_last4: ACCESS_TOKEN.slice(-4),
          webhook_secret_last4: WEBHOOK_SECRET.slice(-4),
        },
      },
    };
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(oldFile, null, 2));
    main = bootBuiltMain(dataDir);
    await main.waitFor((r): r is Extract<StandInReport, { type: 'load' }> => r.type === 'load', 'a page load');
  });
  after(async () => {
    if (main.child.exitCode === null) main.child.kill('SIGKILL');
    await main.exited;
    await mp.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the platform key kept under `mode` is read with its world', async () => {
    const view = (await main.ask({ cmd: 'invoke', channel: 'settings:get', request: {} })) as { ok: boolean; value: { platform_key: unknown; settings: { restaurant_id: string } } };
    assert.equal(view.ok, true, JSON.stringify(view));
    assert.deepEqual(view.value.platform_key, { present: true, world: 'live', label: 'Plataforma', last4: PLATFORM_KEY.slice(-4) });
    assert.equal(view.value.settings.restaurant_id, R1.id);
  });

  test('the payment account kept without a provider is Mercado Pago\'s: shown, decrypted and used with Probar conexión', async () => {
    const info = (await main.ask({ cmd: 'invoke', channel: 'payments:get', request: {} })) as { ok: boolean; value: Record<string, unknown> };
    assert.equal(info.ok, true, JSON.stringify(info));
    assert.equal(info.value.provider, 'mercadopago');
    assert.equal(info.value.configured, true);
    assert.equal(info.value.api_base, mp.baseUrl);
    assert.equal(info.value.access_token_last4, ACCESS_TOKEN.slice(-4));
    assert.equal(info.value.webhook_secret_last4, WEBHOOK_SECRET.slice(-4));
    const check = (await main.ask({ cmd: 'invoke', channel: 'payments:test', request: {} })) as { ok: boolean; value: unknown };
    assert.deepEqual(check, { ok: true, value: { result: 'ok', user_id: '424242', message: null } });
    assert.ok(mp.requests.includes('GET /users/me'), 'the decrypted token reached Mercado Pago');
  });

  test('saved again, the account is written under its provider\'s name; the key entry main did not touch stays as written', async () => {
    const saved = (await main.ask({
      cmd: 'invoke',
      channel: 'payments:set',
      request: { provider: 'mercadopago', access_token: ACCESS_TOKEN, webhook_secret: WEBHOOK_SECRET, api_base: mp.baseUrl },
    })) as { ok: boolean };
    assert.equal(saved.ok, true, JSON.stringify(saved));
    const file = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as { payments: Record<string, { provider?: string; cipher: string }>; platformKey: { mode?: string } };
    assert.equal(file.payments[R1.id]?.provider, 'mercadopago');
    assert.equal(file.payments[R1.id]?.cipher.includes(ACCESS_TOKEN), false, 'never in clear');
    assert.equal(file.platformKey.mode, 'live', 'an entry main did not rewrite stays as it was');
  });
});
