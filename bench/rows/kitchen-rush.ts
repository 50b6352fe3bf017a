// Row 5, at a rush: how many tickets a cook reads at once on each screen a kitchen uses (a TV over
// the pass, tablets both ways, a phone) with the project's rush at its peak (45 active orders:
// 25 new, 10 preparing, 8 ready, 2 out), on a paired browser over real HTTP, counted as the
// renderer's tests count them (test/renderer/support/rush.ts): every fragment wholly inside the
// window and its lane, and not covered. The ceiling is the same screen tiled with no room lost:
// the lanes' area over the mean area of a drawn ticket.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as Served from '../../test/engine/http/kitchen/served-kitchen.ts';
import type * as Rush from '../../test/renderer/support/rush.ts';
import type { BenchContext } from '../lib/context.ts';
import { figure, notMeasured, type Figure } from '../lib/report.ts';

const SERVED = new URL('../../test/engine/http/kitchen/served-kitchen.ts', import.meta.url);
const RUSH = new URL('../../test/renderer/support/rush.ts', import.meta.url);
const NAME = (v: { width: number; height: number }) => `Kitchen board: tickets wholly in view (the rush's 45 orders, ${v.width}×${v.height})`;

export async function benchBoardAtRush(context: BenchContext): Promise<Figure[]> {
  const { RUSH_VIEWPORTS, rush, measureBoard } = (await import(RUSH.href)) as typeof Rush;
  const target = (v: { atLeast: number }) => `≥ ${v.atLeast}`;
  if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) return RUSH_VIEWPORTS.map((v) => notMeasured(5, NAME(v), 'tickets', 'higher', 'not measured (no Chromium at /usr/bin/chromium)', target(v)));
  if (!existsSync(fileURLToPath(SERVED))) return RUSH_VIEWPORTS.map((v) => notMeasured(5, NAME(v), 'tickets', 'higher', 'not measured (test harness missing)', target(v)));
  const { startServedKitchen } = (await import(SERVED.href)) as typeof Served;
  const k = await startServedKitchen();
  try {
    await rush(k);
    const figures: Figure[] = [];
    for (const viewport of RUSH_VIEWPORTS) {
      const { page } = await k.tablet({ width: viewport.width, height: viewport.height });
      await page.goto(await k.pairingUrl());
      const ours: number[] = [];
      const ceiling: number[] = [];
      for (let run = 0; run < context.runs; run++) {
        if (run > 0) await page.reload();
        await page.waitForFunction(() => Number(document.querySelector('[data-testid="board"]')?.getAttribute('data-active') ?? 0) >= 45, undefined, { timeout: 30_000 });
        // Laid out on the lanes' measured size and the drawn tickets' measured blocks: until two reads agree.
        let last = -1;
        for (;;) {
          await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
          const whole = (await measureBoard(page)).whole;
          if (whole === last && whole > 0) break;
          last = whole;
        }
        ours.push(last);
        ceiling.push(
          await page.evaluate(() => {
            const cards = [...document.querySelectorAll<HTMLElement>('.lanes article[data-order-id]')].map((el) => el.getBoundingClientRect());
            const lanes = document.querySelector('.lanes')!.getBoundingClientRect();
            const mean = cards.reduce((sum, r) => sum + r.width * r.height, 0) / Math.max(1, cards.length);
            return Math.min(45, Math.floor((lanes.width * lanes.height) / mean));
          }),
        );
        context.log(`  ${viewport.width}×${viewport.height} run ${run + 1}: ${ours.at(-1)} tickets wholly in view (ceiling ${ceiling.at(-1)})`);
      }
      await page.context().close();
      figures.push(
        figure(
          { row: 5, name: NAME(viewport), unit: 'tickets', better: 'higher', note: "a paired browser tablet over HTTP, the rush's peak; ceiling: the lanes' area over the mean area of a drawn fragment (no room lost at all)" },
          { ours, ceiling },
          (value) => ({ text: target(viewport), met: value >= viewport.atLeast }),
        ),
      );
    }
    return figures;
  } finally {
    await k.close();
  }
}
