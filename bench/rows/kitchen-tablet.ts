// Row 7: an order created over /v1 until it is laid out on a paired browser tablet (the engine's
// HTTP kitchen transport: SSE push, then the same React board), beside the same path to the
// Electron board (the renderer harness through the preload bridge). Wall-clock latency per order,
// measured from just before the POS sends the POST to the ticket's first layout in the page.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { R1 } from '../../test/support/demo-ids.ts';
import type * as KitchenHarness from '../../test/renderer/support/kitchen-under-test.ts';
import type * as ServedHarness from '../../test/engine/http/kitchen/served-kitchen.ts';
import type { BenchContext } from '../lib/context.ts';
import { figure, notMeasured, type Figure } from '../lib/report.ts';
import { percentile, sleep } from '../lib/stats.ts';

const ELECTRON_HARNESS = new URL('../../test/renderer/support/kitchen-under-test.ts', import.meta.url);
const SERVED_HARNESS = new URL('../../test/engine/http/kitchen/served-kitchen.ts', import.meta.url);

/** In every page before its scripts: the epoch time (sub-ms) each ticket was first laid out. */
const PROBE = `
(() => {
  const laidOut = (window.__laidOut = {});
  new MutationObserver(() => {
    for (const article of document.querySelectorAll('article[data-order-id]')) {
      const id = article.getAttribute('data-order-id');
      if (laidOut[id] !== undefined) continue;
      article.getBoundingClientRect();
      laidOut[id] = performance.timeOrigin + performance.now();
    }
  }).observe(document, { childList: true, subtree: true });
})();
`;

const WARMUP = 3;

const ORDER = {
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name: 'Bench' },
  // Untracked stock: a full run's 100 orders (and more) never run out.
  items: [{ product_id: R1.products.cazuela, quantity: 1 }],
};

/**
 * Posts `count` orders one after the other; each one's time from the POST to its ticket laid out on
 * `page`. Each order moves on to "en preparación" once measured: the board renders a window of
 * tickets per column (new ones last), so a "Nuevos" column filling up with bench orders would leave
 * the next one announced but not laid out. (Not cancelled: a cancelled ticket stays in its column
 * while it flashes, for the cooks to see.)
 */
async function measure(page: Page, post: () => Promise<string>, accept: (id: string) => Promise<void>, count: number): Promise<number[]> {
  const latencies: number[] = [];
  // The first few warm up the engine's statements, the page's code paths and the connection.
  for (let i = -WARMUP; i < count; i++) {
    const sentAt = performance.timeOrigin + performance.now();
    const id = await post();
    const handle = await page.waitForFunction((orderId) => (window as any).__laidOut[orderId] as number | undefined, id, { timeout: 10_000, polling: 'raf' });
    if (i >= 0) latencies.push(((await handle.jsonValue()) as number) - sentAt);
    await accept(id);
    await sleep(30);
  }
  return latencies;
}

export async function benchKitchenTablet(context: BenchContext): Promise<Figure[]> {
  const names = ['Tablet board: order over /v1 → laid out, p50', 'Tablet board: order over /v1 → laid out, p99'];
  const missing = (note: string) => [notMeasured(7, names[0]!, 'ms', 'lower', note), notMeasured(7, names[1]!, 'ms', 'lower', note, 'p99 < 250 ms')];
  if (!existsSync(fileURLToPath(ELECTRON_HARNESS)) || !existsSync(fileURLToPath(SERVED_HARNESS))) return missing('not measured (test harnesses missing)');
  if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) return missing('not measured (no Chromium at /usr/bin/chromium)');
  const { startKitchenUnderTest } = (await import(ELECTRON_HARNESS.href)) as typeof KitchenHarness;
  const { startServedKitchen } = (await import(SERVED_HARNESS.href)) as typeof ServedHarness;
  const count = context.quick ? 20 : 100;
  const tablet: number[] = [];
  const electron: number[] = [];

  for (let run = 0; run < context.runs; run++) {
    // A paired tablet: the pairing URL opened in its own browser context, the board over HTTP + SSE.
    const served = await startServedKitchen({ heartbeatMs: 2000 });
    try {
      const { context: browser, page } = await served.tablet({ width: 1280, height: 800 });
      await browser.addInitScript({ content: PROBE });
      await page.goto(await served.pairingUrl());
      await page.locator('[data-testid="board"]').waitFor();
      await sleep(300);
      const post = async () => {
        const created = await served.call('POST', '/orders', { body: ORDER });
        if (created.status !== 201) throw new Error(`POST /orders: ${created.status} ${created.text}`);
        return created.body.id as string;
      };
      const accept = async (id: string) => {
        const accepted = await served.call('PATCH', `/orders/${id}`, { body: { status: 'en_preparacion' } });
        if (accepted.status !== 200) throw new Error(`PATCH /orders/${id}: ${accepted.status} ${accepted.text}`);
      };
      tablet.push(...(await measure(page, post, accept, count)));
    } finally {
      await served.close();
    }

    // The desktop window: the same engine path, pushed through the preload bridge.
    const kitchen = await startKitchenUnderTest({ heartbeatMs: 2000 });
    try {
      await kitchen.context.addInitScript({ content: PROBE });
      await kitchen.open();
      await kitchen.page.locator('[data-testid="board"]').waitFor();
      await sleep(300);
      const key = kitchen.engine.demo[0]!.keys.live_write;
      const post = async () => {
        const created = await kitchen.engine.call('POST', '/orders', { key, body: ORDER });
        if (created.status !== 201) throw new Error(`POST /orders: ${created.status} ${created.text}`);
        return created.body.id as string;
      };
      const accept = async (id: string) => {
        const accepted = await kitchen.engine.call('PATCH', `/orders/${id}`, { key, body: { status: 'en_preparacion' } });
        if (accepted.status !== 200) throw new Error(`PATCH /orders/${id}: ${accepted.status} ${accepted.text}`);
      };
      electron.push(...(await measure(kitchen.page, post, accept, count)));
    } finally {
      await kitchen.stop();
    }
    context.log(`  run ${run + 1}: tablet p50 ${percentile(tablet, 50).toFixed(1)} ms p99 ${percentile(tablet, 99).toFixed(1)} ms; Electron board p50 ${percentile(electron, 50).toFixed(1)} ms p99 ${percentile(electron, 99).toFixed(1)} ms`);
  }
  const note = `${count} orders per run (after ${WARMUP} unmeasured), one at a time, from the POST leaving the POS to the ticket laid out (wall clock, same machine); ceiling: the same path to the Electron board (bridge push)`;
  return [
    figure({ row: 7, name: names[0]!, unit: 'ms', better: 'lower', note }, { ours: [percentile(tablet, 50)], ceiling: [percentile(electron, 50)] }),
    figure({ row: 7, name: names[1]!, unit: 'ms', better: 'lower', note: `over ${tablet.length} orders` }, { ours: [percentile(tablet, 99)], ceiling: [percentile(electron, 99)] }, (value) => ({ text: 'p99 < 250 ms', met: value < 250 })),
  ];
}
