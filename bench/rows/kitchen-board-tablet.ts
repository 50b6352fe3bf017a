// Row 5, on a paired browser tablet: the same 500 tickets' first render, from navigation to laid
// out, on the page the engine serves to tablets (its own HTTP door and live stream, no harness in
// between). The page asks for its session and the board's snapshot from its first script, before the
// app's script has run (src/renderer/src/start.ts); the note says when the snapshot was asked for.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rushOrder } from '../../src/shared/demo-rush.ts';
import { DEMO_NOW } from '../../test/support/engine-under-test.ts';
import type * as ServedHarness from '../../test/engine/http/kitchen/served-kitchen.ts';
import type { BenchContext } from '../lib/context.ts';
import { median } from '../lib/stats.ts';

const SERVED_HARNESS = new URL('../../test/engine/http/kitchen/served-kitchen.ts', import.meta.url);

/** In the tablet's page before its scripts: when the board first holds `target` tickets, laid out. */
const probe = (target: number) => `
(() => {
  const bench = (window.__tabletBench = { full: null });
  const count = () => Number(document.querySelector('[data-testid="board"]')?.getAttribute('data-active') ?? 0);
  new MutationObserver(() => {
    if (bench.full !== null || count() < ${target}) return;
    document.body.getBoundingClientRect();
    bench.full = performance.now();
  }).observe(document, { childList: true, subtree: true, attributes: true });
})();
`;

export interface TabletFirstRender {
  /** Each run's first render, ms from navigation. */
  firstRender: number[];
  /** Each run's time, from navigation, when the page asked for the snapshot. */
  askedAt: number[];
}

/** `tickets` orders of the rush (250 received, 150 in preparation, the rest ready, as the window's figure), `runs` page loads. */
export async function benchTabletFirstRender(context: BenchContext, tickets: number): Promise<TabletFirstRender | null> {
  if (!existsSync(fileURLToPath(SERVED_HARNESS))) return null;
  const { startServedKitchen } = (await import(SERVED_HARNESS.href)) as typeof ServedHarness;
  const served = await startServedKitchen({ heartbeatMs: 60_000 });
  try {
    const ids: string[] = [];
    for (let i = 0; i < tickets; i++) {
      const { scheduled_for: _later, ...body } = rushOrder(i, { now: Date.parse(DEMO_NOW) });
      const created = await served.call('POST', '/orders', { body });
      if (created.status !== 201) throw new Error(`POST /orders: ${created.status} ${created.text}`);
      ids.push(created.body.id as string);
    }
    for (const [index, id] of ids.entries()) {
      for (const status of index >= 400 ? ['en_preparacion', 'listo'] : index >= 250 ? ['en_preparacion'] : []) {
        const moved = await served.call('PATCH', `/orders/${id}`, { body: { status } });
        if (moved.status !== 200) throw new Error(`PATCH /orders: ${moved.status} ${moved.text}`);
      }
    }
    const { context: browser, page } = await served.tablet({ width: 1366, height: 900 });
    await browser.addInitScript({ content: probe(tickets) });
    const laidOut = async () => {
      const handle = await page.waitForFunction(() => (window as any).__tabletBench.full as number | null, undefined, { timeout: 60_000, polling: 20 }).catch(() => {
        throw new Error(`tablet board: ${tickets} tickets were not laid out within 60 s`);
      });
      return (await handle.jsonValue()) as number;
    };
    // Paired once (the pairing URL lands on the board: a first load, not measured), then reloaded.
    await page.goto(await served.pairingUrl());
    await laidOut();
    const result: TabletFirstRender = { firstRender: [], askedAt: [] };
    for (let run = 0; run < context.runs; run++) {
      await page.reload();
      result.firstRender.push(await laidOut());
      result.askedAt.push(
        (await page.evaluate(`performance.getEntriesByType('resource').find((e) => e.name.endsWith('/api/board:snapshot'))?.startTime ?? NaN`)) as number,
      );
      context.log(`  tablet run ${run + 1}: first render ${result.firstRender.at(-1)!.toFixed(0)} ms (snapshot asked at ${result.askedAt.at(-1)!.toFixed(0)} ms)`);
    }
    return result;
  } finally {
    await served.close();
  }
}

export const tabletNote = (result: TabletFirstRender) =>
  `a paired browser tablet (the engine's own page, HTTP and live stream), from navigation to the tickets laid out; the snapshot asked for at a median of ${median(result.askedAt).toFixed(0)} ms; ceiling: the window's board as static HTML`;
