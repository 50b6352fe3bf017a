// The kitchen screen in headless Chromium against a real engine: the built renderer, the preload's
// bridge answered by the same IPC handlers main registers, and the same live feed main runs.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { PaymentProviderRegistry } from '../../../src/engine/payments/payment-provider-registry.ts';
import { createScreenHandlers } from '../../../src/main/channel-handlers.ts';
import { dispatchScreenCall, type ScreenHandlers } from '../../../src/engine/screen/dispatch.ts';
import { startLiveFeed, type LiveFeed } from '../../../src/engine/screen/live-feed.ts';
import { memoryOnlinePayments, memoryPlatformKey, memorySettings } from '../../main/support/memory-ports.ts';
import { STANDALONE_STATUS } from '../../../src/engine/screen/live-hub.ts';
import type { ConnectionStatus, LivePush } from '../../../src/shared/screen-contract/kitchen.ts';
import { DEFAULT_SETTINGS, type AppSettings } from '../../../src/shared/screen-contract/settings.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1 } from '../../support/demo-ids.ts';
import { buildRenderer } from './build-renderer.ts';
import { IPC_PATH, serveStatic } from './static-server.ts';

export const ARTIFACTS = resolve(import.meta.dirname, '../../../test-artifacts');

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

export interface KitchenUnderTest {
  engine: EngineUnderTest;
  page: Page;
  context: BrowserContext;
  handlers: ScreenHandlers;
  feed: LiveFeed;
  settings: ReturnType<typeof memorySettings>;
  platformKey: ReturnType<typeof memoryPlatformKey>;
  /** Ajustes → Pagos en línea's key storage (refuses like the platform key's without secure storage). */
  onlinePayments: ReturnType<typeof memoryOnlinePayments>;
  /** Holds live pushes (events and heartbeats) back, as a stalled main process would; resume delivers them. */
  pausePushes(): void;
  resumePushes(): void;
  /** Makes every call from the screen fail to reach the engine and holds its pushes (as a dead main process or network would); false restores. */
  cutEngine(cut: boolean): void;
  /** Waits until every push sent so far has reached the page. */
  drained(): Promise<void>;
  connection: ConnectionStatus;
  screenshot(name: string): Promise<string>;
  /** Opens the screen (again), on the board or another view. */
  open(view?: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startKitchenUnderTest(
  options: {
    settings?: Partial<AppSettings>;
    secureStorage?: boolean;
    heartbeatMs?: number;
    /** The page's bridge calls over loopback HTTP instead of Playwright's binding (bench row 5). */
    ipcOverHttp?: boolean;
    /** The payment providers Ajustes → Pagos en línea offers: the engine's registry by default. */
    paymentProviders?: PaymentProviderRegistry;
  } = {},
): Promise<KitchenUnderTest> {
  const engine = await startEngineUnderTest();
  const rendered = await buildRenderer();
  const settings = memorySettings({ ...DEFAULT_SETTINGS, ...options.settings });
  const platformKey = memoryPlatformKey({ available: options.secureStorage ?? true });
  const onlinePayments = memoryOnlinePayments({ available: options.secureStorage ?? true });
  const connection: ConnectionStatus = { ...STANDALONE_STATUS };
  const backupDir = mkdtempSync(join(tmpdir(), 'comanda-backups-'));
  const restaurant = (await engine.server.engine.stores.restaurants.get(R1.id))!;
  const handlers = createScreenHandlers({
    engine: engine.server.engine,
    commands: engine.server.commands,
    printers: engine.server.providers.printers,
    restaurantId: R1.id,
    settings,
    platformKey,
    onlinePayments,
    ...(options.paymentProviders ? { paymentProviders: options.paymentProviders } : {}),
    bootSettings: settings.read(),
    log: (error) => console.error('IPC handler error', error),
    host: {
      appInfo: () => ({
        version: '0.1.0-test',
        restaurant: { id: restaurant.id, name: restaurant.name },
        restaurants: engine.server.engine.sqliteStores.restaurants.list().map((r) => ({ id: r.id, name: r.name })),
        api_base_url: engine.baseUrl,
        lan_urls: [],
        data_dir: null,
      }),
      connectionStatus: () => connection,
      syncStatus: async () => null,
      backupFolder: () => backupDir,
      pairingOrigin: () => ({ origin: engine.server.origin, lan: false }),
    },
  });

  const profile = mkdtempSync(join(tmpdir(), 'comanda-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1366, height: 900 },
    locale: 'es-CL',
    timezoneId: 'America/Santiago',
  });
  let engineCut = false;
  const answer = async (channel: unknown, request: unknown) => JSON.stringify(await dispatchScreenCall(handlers, channel, request));
  // Answers cross as JSON text: Playwright's own argument serialiser walks a 500-ticket snapshot
  // (~0.8 MB) object by object and took 0.5-1.6 s on it, where Electron's IPC clones it in a few ms.
  await context.exposeFunction('__comandaInvoke', async (channel: unknown, request: unknown) => {
    if (engineCut) throw new Error('engine unreachable');
    return answer(channel, request);
  });
  // With `ipcOverHttp` (bench row 5) the calls cross as JSON over loopback HTTP to this harness
  // instead (same origin as the page), the way a tablet's reach the engine: even as text, the binding
  // carried the 500-ticket snapshot (0.7 MB) in 370-630 ms on a busy machine, more than the whole
  // first render may take. A cut engine answers nothing (503).
  const site = await serveStatic(rendered.dir, async (channel, request) => (engineCut ? null : answer(channel, request)));
  const overHttp = options.ipcOverHttp
    ? `window.__comandaInvoke = (channel, request) =>
    fetch(${JSON.stringify(IPC_PATH)}, { method: 'POST', body: JSON.stringify({ channel, request }) }).then((response) => {
      if (!response.ok) throw new Error('engine unreachable');
      return response.text();
    });`
    : '';
  await context.addInitScript({
    content: `${rendered.bridgeScript}
;(() => {
  const listeners = new Set();
  window.__comandaPush = (push) => { for (const listener of listeners) listener(push); return true; };
  ${overHttp}
  window.comanda = ComandaBridge.createBridge({
    invoke: (channel, request) => window.__comandaInvoke(channel, request).then((answer) => JSON.parse(answer)),
    subscribe: (listener) => { listeners.add(listener); return () => listeners.delete(listener); },
  });
})();`,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => console.error('page error:', error.message));

  // Pushes go to the page one after the other, in order, like webContents.send.
  let held: LivePush[] | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  const deliver = (push: LivePush) => {
    chain = chain.then(() => page.evaluate((p) => (window as unknown as { __comandaPush(p: unknown): boolean }).__comandaPush(p), push)).catch(() => {});
  };
  const send = (push: LivePush) => {
    if (held) held.push(push);
    else deliver(push);
  };
  const feed = await startLiveFeed({
    engine: engine.server.engine,
    restaurantId: R1.id,
    send,
    connectionStatus: () => connection,
    heartbeatMs: options.heartbeatMs ?? 1000,
  });

  const pausePushes = () => {
    held ??= [];
  };
  const resumePushes = async () => {
    const backlog = held ?? [];
    held = null;
    for (const push of backlog) deliver(push);
    await feed.heartbeat();
  };

  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    engine,
    page,
    context,
    handlers,
    feed,
    settings,
    platformKey,
    onlinePayments,
    connection,
    pausePushes,
    resumePushes,
    async cutEngine(cut) {
      // A dead engine neither answers nor pushes: its heartbeats stop too until it is back.
      engineCut = cut;
      if (cut) pausePushes();
      else await resumePushes();
    },
    drained: () => chain.then(() => undefined),
    async screenshot(name) {
      const path = join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path });
      return path;
    },
    async open(view = 'board') {
      await page.goto(`${site.url}/index.html${view === 'board' ? '' : `?view=${view}`}`);
      await page.locator('[data-testid="app"]').waitFor();
    },
    async stop() {
      feed.stop();
      await context.close().catch(() => {});
      await site.close();
      await engine.stop();
      rmSync(profile, { recursive: true, force: true });
      rmSync(backupDir, { recursive: true, force: true });
    },
  };
}

/** A production pickup order at the open location (external payment: straight to the kitchen). */
export async function placeOrder(
  engine: EngineUnderTest,
  overrides: Record<string, unknown> = {},
  key: string = engine.demo[0]!.keys.live_write,
): Promise<any> {
  const response = await engine.call('POST', '/orders', {
    key,
    body: {
      location_id: R1.openLocation,
      type: 'retiro',
      customer: { name: 'Camila Rojas', phone: '+56 9 1234 5678' },
      items: [
        { product_id: R1.products.empanadaQueso, quantity: 2, notes: 'bien doradas' },
        { product_id: R1.products.churrasco, quantity: 1, modifier_option_ids: [R1.options.panAmasado] },
      ],
      ...overrides,
    },
  });
  if (response.status !== 201) throw new Error(`order not created: ${response.status} ${response.text}`);
  return response.body;
}
