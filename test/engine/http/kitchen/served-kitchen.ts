// An engine serving the kitchen screen to browser tablets, as `npm run serve` does: a real SQLite
// file, a real port, the built renderer at /kitchen/, and headless Chromium contexts as tablets.
// It can be stopped and started again on the same port and file (a restart the tablets live through).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { seedDemo, type DemoRestaurant } from '../../../../src/engine/demo/seed-demo.ts';
import type { KitchenDoorOptions } from '../../../../src/engine/http/kitchen/kitchen-door.ts';
import type { RateLimitSettings } from '../../../../src/engine/http/rate-limiter.ts';
import { createPairingCode } from '../../../../src/engine/services/kitchen/kitchen-devices.ts';
import { startEngineServer, type EngineServer } from '../../../../src/host/start-engine-server.ts';
import { buildRenderer } from '../../../renderer/support/build-renderer.ts';
import { callApi, DEMO_NOW, GENEROUS_LIMITS, type CallOptions, type CallResult } from '../../../support/engine-under-test.ts';

export interface ServedKitchen {
  server: EngineServer;
  clock: ManualClock;
  demo: DemoRestaurant[];
  browser: Browser;
  /** The engine's origin (http://127.0.0.1:PORT), where /kitchen/ lives. */
  origin: string;
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  /** A fresh pairing URL for the restaurant, as the desktop's "Añadir una pantalla" makes one. */
  pairingUrl(restaurantId?: string): Promise<string>;
  /** A fresh pairing offer: its URL (with its secret) and the six digits typed by hand. */
  pairingOffer(restaurantId?: string): Promise<{ pairing_url: string; code: string }>;
  /** A new browser context: one more tablet (portrait 800×1280 unless told). */
  tablet(viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }>;
  /** Stops the engine (the tablets stay open). */
  stopEngine(): Promise<void>;
  /** Starts it again on the same port and file. */
  startEngine(): Promise<void>;
  close(): Promise<void>;
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function startServedKitchen(
  options: { heartbeatMs?: number; pairingLimits?: RateLimitSettings; kitchen?: Omit<KitchenDoorOptions, 'rendererDir' | 'heartbeatMs' | 'pairingLimits'> } = {},
): Promise<ServedKitchen> {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-kitchen-'));
  const database = join(dir, 'engine.db');
  const clock = new ManualClock(DEMO_NOW);
  const rendered = await buildRenderer();
  const kitchen = {
    rendererDir: rendered.dir,
    heartbeatMs: options.heartbeatMs ?? 300,
    // The engine's clock here is manual and moves only when a test says, so a device's budget of
    // calls (20, refilled 10 a second on that clock) would never refill: a board that re-reads on a
    // loaded machine, or a file's twentieth tap, would be refused for good. Generous, as the HTTP
    // limits are; door-guards.test.ts holds the real budget with its own clock.
    deviceWriteLimits: GENEROUS_LIMITS.perKey,
    ...(options.pairingLimits ? { pairingLimits: options.pairingLimits } : {}),
    ...options.kitchen,
  };
  let server = await startEngineServer({ database, clock, rateLimits: GENEROUS_LIMITS, kitchen });
  const port = server.port;
  const demo = await seedDemo(server.engine, server.providers.payments);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  const contexts: BrowserContext[] = [];
  let running = true;
  const served: ServedKitchen = {
    server,
    clock,
    demo,
    browser,
    origin: server.origin,
    call: (method, path, callOptions) => callApi(server.baseUrl, demo[0]!.keys.live_write, method, path, callOptions),
    pairingUrl: async (restaurantId = demo[0]!.id) => (await createPairingCode(server.engine, { restaurantId, origin: server.origin })).pairing_url,
    pairingOffer: async (restaurantId = demo[0]!.id) => await createPairingCode(server.engine, { restaurantId, origin: server.origin }),
    async tablet(viewport = { width: 800, height: 1280 }) {
      const context = await browser.newContext({ viewport, locale: 'es-CL', timezoneId: 'America/Santiago', hasTouch: true });
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => console.error('tablet page error:', error.message));
      return { context, page };
    },
    async stopEngine() {
      running = false;
      await server.close();
    },
    async startEngine() {
      server = await startEngineServer({ database, clock, rateLimits: GENEROUS_LIMITS, kitchen, port });
      served.server = server;
      running = true;
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close().catch(() => {});
      if (running) await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return served;
}
