// Boots the main process as built (`electron-vite build` → out/main/index.js) under a stand-in
// `electron` module: the wiring and the paths that only a real launch would otherwise show. The
// build goes to a temp folder of its own, never the repo's out/ (which `npm run build` owns).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SCREEN_CHANNELS, LIVE_CHANNEL } from '../../src/shared/screen-contract/contract.ts';
import type { LivePush } from '../../src/shared/screen-contract/kitchen.ts';
import { R1 } from '../support/demo-ids.ts';
import { walLogState } from '../support/wal-log-state.ts';
import { eventually } from '../support/eventually.ts';
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
