// Row 5, at a rush: how many tickets a cook reads at once on a TV over the pass (1920×1080) with
// 45 active orders, on a paired browser over real HTTP, counted as the renderer's tests count them
// (test/renderer/support/rush.ts): wholly inside the window and inside their lane. The ceiling is
// the same screen tiled with no room lost: the lanes' area over the mean area of a drawn ticket.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as Served from '../../test/engine/http/kitchen/served-kitchen.ts';
import type * as Rush from '../../test/renderer/support/rush.ts';
import type { BenchContext } from '../lib/context.ts';
import { figure, notMeasured, type Figure } from '../lib/report.ts';

const SERVED = new URL('../../test/engine/http/kitchen/served-kitchen.ts', import.meta.url);
const RUSH = new URL('../../test/renderer/support/rush.ts', import.meta.url);
const NAME = 'Kitchen board: tickets wholly in view (45 orders, 1920×1080)';

export async function benchBoardAtRush(context: BenchContext): Promise<Figure[]> {
  if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) return [notMeasured(5, NAME, 'tickets', 'higher', 'not measured (no Chromium at /usr/bin/chromium)', '≥ 12')];
  if (!existsSync(fileURLToPath(SERVED))) return [notMeasured(5, NAME, 'tickets', 'higher', 'not measured (test harness missing)', '≥ 12')];
  const { startServedKitchen } = (await import(SERVED.href)) as typeof Served;
  const { rush, measureBoard } = (await import(RUSH.href)) as typeof Rush;
  const k = await startServedKitchen();
  try {
    await rush(k);
    const { page } = await k.tablet({ width: 1920, height: 1080 });
    await page.goto(k.pairingUrl());
    const ours: number[] = [];
    const ceiling: number[] = [];
    for (let run = 0; run < context.runs; run++) {
      if (run > 0) await page.reload();
      await page.waitForFunction(() => Number(document.querySelector('[data-testid="board"]')?.getAttribute('data-active') ?? 0) >= 45, undefined, { timeout: 30_000 });
      // Laid out on the lanes' measured size (the plan follows a ResizeObserver): two frames.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      ours.push((await measureBoard(page)).whole);
      ceiling.push(
        await page.evaluate(() => {
          const cards = [...document.querySelectorAll<HTMLElement>('.lanes article[data-order-id]')].map((el) => el.getBoundingClientRect());
          const lanes = document.querySelector('.lanes')!.getBoundingClientRect();
          const mean = cards.reduce((sum, r) => sum + r.width * r.height, 0) / Math.max(1, cards.length);
          return Math.min(45, Math.floor((lanes.width * lanes.height) / mean));
        }),
      );
      context.log(`  run ${run + 1}: ${ours.at(-1)} tickets wholly in view at 1920×1080 (ceiling ${ceiling.at(-1)})`);
    }
    return [
      figure(
        { row: 5, name: NAME, unit: 'tickets', better: 'higher', note: 'a paired browser tablet over HTTP; ceiling: the lanes\' area over the mean area of a drawn ticket (no room lost at all)' },
        { ours, ceiling },
        (value) => ({ text: '≥ 12', met: value >= 12 }),
      ),
    ];
  } finally {
    await k.close();
  }
}
