// Row 5: the kitchen board in headless Chromium with 500 active tickets, through the renderer's own
// test harness (test/renderer/support): time to first render, and the time to apply one new order
// and one transition, measured in the page with performance.now(). The ceiling is the same DOM
// without the app: the rendered board saved as static HTML (same stylesheet), and the same two
// changes made to it directly.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rushOrder } from '../../src/shared/demo-rush.ts';
import { DEMO_NOW } from '../../test/support/engine-under-test.ts';
import type * as KitchenHarness from '../../test/renderer/support/kitchen-under-test.ts';
import type { BenchContext } from '../lib/context.ts';
import { figure, notMeasured, type Figure } from '../lib/report.ts';
import { median, sleep } from '../lib/stats.ts';
import { benchTabletFirstRender, tabletNote } from './kitchen-board-tablet.ts';

const TICKETS = 500;
const HARNESS = new URL('../../test/renderer/support/kitchen-under-test.ts', import.meta.url);
const RENDERER = new URL('../../src/renderer/index.html', import.meta.url);

/** Installed in every page before its scripts: notes when the board first holds the tickets, and times single changes. */
const PROBE = `
(() => {
  const bench = (window.__bench = { target: ${TICKETS}, firstFull: null, snapshotAt: null, pushAt: null, watch: null, changedAt: null, done: null });
  // When the snapshot's answer reached the page: what comes before is loading the app and the
  // harness carrying ~0.8 MB through Playwright, what comes after is the board's own work. The
  // figure stays from navigation to laid out; this only splits it in the note.
  const invoke = window.__comandaInvoke;
  if (invoke) window.__comandaInvoke = (channel, request) => invoke(channel, request).then((answer) => {
    if (channel === 'board:snapshot' && bench.snapshotAt === null) bench.snapshotAt = performance.now();
    return answer;
  });
  // The board windows its columns (it renders what fits and counts the rest): what it holds is on
  // the board element; the static copy's changes by hand are counted as cards.
  const count = () => Number(document.querySelector('[data-testid="board"]')?.getAttribute('data-active') ?? 0);
  const cards = () => document.querySelectorAll('.column article').length;
  const settle = () => { document.body.getBoundingClientRect(); return performance.now(); };
  const observer = new MutationObserver(() => {
    if (bench.firstFull === null && count() >= bench.target) bench.firstFull = settle();
    const watch = bench.watch;
    if (watch && bench.done === null && watch()) {
      bench.changedAt = performance.now();
      bench.done = settle();
    }
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
  // The harness's bridge receives live pushes through window.__comandaPush: note when one arrives.
  let push = window.__comandaPush;
  Object.defineProperty(window, '__comandaPush', {
    configurable: true,
    get: () => push && ((p) => { if (p && p.kind === 'events' && bench.watch && bench.pushAt === null) bench.pushAt = performance.now(); return push(p); }),
    set: (value) => { push = value; },
  });
  bench.count = count;
  bench.arm = (watch) => { bench.pushAt = null; bench.changedAt = null; bench.done = null; bench.watch = watch; };
  // The ceiling's changes: a ticket added to the first column, then one moved to the next, by hand.
  bench.changeByHand = async () => {
    const settled = () => new Promise((resolve) => {
      const poll = () => (bench.done !== null ? resolve(bench.done - bench.pushAt) : setTimeout(poll, 1));
      poll();
    });
    const received = document.querySelector('[data-column="recibido"] .lane-body');
    const preparing = document.querySelector('[data-column="en_preparacion"] .lane-body');
    const before = cards();
    bench.arm(() => cards() > before);
    bench.pushAt = performance.now();
    const copy = received.querySelector('article').cloneNode(true);
    copy.setAttribute('data-number', 'copy-' + before);
    received.prepend(copy);
    const added = await settled();
    const ticket = received.querySelector('article:last-of-type');
    bench.arm(() => ticket.parentElement === preparing);
    bench.pushAt = performance.now();
    preparing.prepend(ticket);
    return [added, await settled()];
  };
  bench.columnOf = (number) => document.querySelector('.column article[data-number="' + number + '"]')?.closest('[data-column]')?.getAttribute('data-column') ?? null;
  bench.columnCount = (status) => Number(document.querySelector('[data-column="' + status + '"]')?.getAttribute('data-count') ?? -1);
})();
`;

export async function benchKitchenBoard(context: BenchContext): Promise<Figure[]> {
  const missing = (note: string) => [
    notMeasured(5, 'Kitchen board: first render (500 tickets)', 'ms', 'lower', note, '< 300 ms'),
    notMeasured(5, 'Kitchen board: apply one new order', 'ms', 'lower', note, '< 16 ms'),
    notMeasured(5, 'Kitchen board: apply one transition', 'ms', 'lower', note, '< 16 ms'),
    notMeasured(5, 'Kitchen board: first render on a paired tablet (500 tickets)', 'ms', 'lower', note, '< 300 ms'),
  ];
  if (!existsSync(fileURLToPath(HARNESS)) || !existsSync(fileURLToPath(RENDERER))) return missing('not measured (renderer missing)');
  if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) return missing('not measured (no Chromium at /usr/bin/chromium)');
  const { startKitchenUnderTest } = (await import(HARNESS.href)) as typeof KitchenHarness;

  // The page's calls over loopback HTTP (as a tablet's): Playwright's binding alone took longer to
  // carry the snapshot than the whole figure's target (test/renderer/support/kitchen-under-test.ts).
  const kitchen = await startKitchenUnderTest({ heartbeatMs: 60_000, ipcOverHttp: true });
  try {
    const { engine, page } = kitchen;
    const key = engine.demo[0]!.keys.live_write;
    let placed = 0;
    const place = async (): Promise<{ id: string; number: string }> => {
      // The project's rush (src/shared/demo-rush.ts), every order in the kitchen now.
      const { scheduled_for: _later, ...body } = rushOrder(placed++, { now: Date.parse(DEMO_NOW) });
      const created = await engine.call('POST', '/orders', { key, body });
      if (created.status !== 201) throw new Error(`POST /orders: ${created.status} ${created.text}`);
      return created.body as { id: string; number: string };
    };
    const move = async (id: string, status: string) => {
      const moved = await engine.call('PATCH', `/orders/${id}`, { key, body: { status } });
      if (moved.status !== 200) throw new Error(`PATCH /orders: ${moved.status} ${moved.text}`);
    };
    // 500 active tickets: 250 received, 150 in preparation, 100 ready.
    context.log(`  placing ${TICKETS} orders…`);
    const orders: { id: string; number: string }[] = [];
    for (let i = 0; i < TICKETS; i++) orders.push(await place());
    for (const [index, order] of orders.entries()) {
      if (index >= 250) await move(order.id, 'en_preparacion');
      if (index >= 400) await move(order.id, 'listo');
    }
    await kitchen.drained();
    const waiting = orders.slice(0, 250);
    await kitchen.context.addInitScript({ content: PROBE });

    const waitInPage = async <T>(probe: () => T, what: string, timeoutMs = 30_000): Promise<NonNullable<T>> => {
      const handle = await page.waitForFunction(probe, undefined, { timeout: timeoutMs, polling: 20 }).catch(() => {
        throw new Error(`kitchen board: ${what} did not happen within ${timeoutMs} ms`);
      });
      return (await handle.jsonValue()) as NonNullable<T>;
    };

    const firstRender: number[] = [];
    /** Of each first render, the part after the snapshot's answer arrived (the board's own work). */
    const afterSnapshot: number[] = [];
    /** Each run's median of its changes: a figure is the median over runs, like every other. */
    const newOrder: number[] = [];
    const transition: number[] = [];
    const perRun = { newOrder: [] as number[], transition: [] as number[], ceilingNewOrder: [] as number[], ceilingTransition: [] as number[] };
    /** For each change, the share of its time spent in style and layout after the DOM changed. */
    const layoutShare: number[] = [];
    const ceiling = { firstRender: [] as number[], newOrder: [] as number[], transition: [] as number[] };
    const endRun = () => {
      for (const [from, to] of [
        [perRun.newOrder, newOrder],
        [perRun.transition, transition],
        [perRun.ceilingNewOrder, ceiling.newOrder],
        [perRun.ceilingTransition, ceiling.transition],
      ] as const) {
        to.push(median(from));
        from.length = 0;
      }
    };
    const repeats = context.quick ? 3 : 5;
    let snapshot = '';
    let siteUrl = '';
    for (let run = 0; run < context.runs; run++) {
      await kitchen.open();
      firstRender.push(await waitInPage(() => (window as any).__bench.firstFull as number | null, `${TICKETS} tickets on the board`));
      const snapshotAt = (await page.evaluate(() => (window as any).__bench.snapshotAt as number | null)) ?? Number.NaN;
      afterSnapshot.push(firstRender.at(-1)! - snapshotAt);
      if (run === 0) {
        siteUrl = page.url().replace(/[^/]*$/, '');
        snapshot = await page.evaluate(() => {
          const copy = document.documentElement.cloneNode(true) as HTMLElement;
          for (const script of copy.querySelectorAll('script')) script.remove();
          return `<!doctype html>\n${copy.outerHTML}`;
        });
      }
      await sleep(300);
      for (let i = 0; i < repeats; i++) {
        const before = await page.evaluate(() => (window as any).__bench.count() as number);
        await page.evaluate((n) => (window as any).__bench.arm(() => (window as any).__bench.count() > n), before);
        await place();
        const [pushAt, changedAt, done] = await waitInPage(() => {
          const b = (window as any).__bench;
          return b.done !== null && b.pushAt !== null ? [b.pushAt as number, b.changedAt as number, b.done as number] : null;
        }, 'a new order on the board');
        perRun.newOrder.push(done - pushAt);
        layoutShare.push((done - changedAt) / (done - pushAt));
        const order = waiting.shift()!;
        // The ticket leaves the top of "Nuevos" (a rendered card) and is counted in "En preparación":
        // drawn there while it falls within the column's window, else counted in its "+N más" (after
        // 16 moves, in a full run, the moved tickets fill the window).
        await page.evaluate((n) => {
          const b = (window as any).__bench;
          const before = b.columnCount('en_preparacion');
          b.arm(() => b.columnOf(n) !== 'recibido' && b.columnCount('en_preparacion') > before);
        }, order.number);
        await move(order.id, 'en_preparacion');
        const [movedAt, changedAt2, moved] = await waitInPage(() => {
          const b = (window as any).__bench;
          return b.done !== null && b.pushAt !== null ? [b.pushAt as number, b.changedAt as number, b.done as number] : null;
        }, 'a transition on the board');
        perRun.transition.push(moved - movedAt);
        layoutShare.push((moved - changedAt2) / (moved - movedAt));
        await sleep(50);
      }

      // The ceiling: the same DOM, static, and the same two changes made to it directly.
      await page.route(`${siteUrl}bench-board.html`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: snapshot }));
      await page.goto(`${siteUrl}bench-board.html`);
      ceiling.firstRender.push(await waitInPage(() => (window as any).__bench.firstFull as number | null, 'the static board'));
      for (let i = 0; i < repeats; i++) {
        const [add, moveTime] = (await page.evaluate('window.__bench.changeByHand()')) as [number, number];
        perRun.ceilingNewOrder.push(add);
        perRun.ceilingTransition.push(moveTime);
      }
      await page.unroute(`${siteUrl}bench-board.html`);
      endRun();
      context.log(
        `  run ${run + 1}: first render ${firstRender.at(-1)!.toFixed(0)} ms (${afterSnapshot.at(-1)!.toFixed(0)} after the snapshot arrived; static ${ceiling.firstRender.at(-1)!.toFixed(0)}), new order ${newOrder.at(-1)!.toFixed(1)} ms (by hand ${ceiling.newOrder.at(-1)!.toFixed(1)}), transition ${transition.at(-1)!.toFixed(1)} ms (by hand ${ceiling.transition.at(-1)!.toFixed(1)})`,
      );
    }
    const note = `headless Chromium, ${TICKETS} active tickets, from navigation to the tickets laid out`;
    const tablet = await benchTabletFirstRender(context, TICKETS);
    return [
      figure({ row: 5, name: 'Kitchen board: first render (500 tickets)', unit: 'ms', better: 'lower', note: `${note} (median ${median(afterSnapshot).toFixed(0)} ms of it after the snapshot's answer reached the page); ceiling: the same board as static HTML` }, { ours: firstRender, ceiling: ceiling.firstRender }, (value) => ({ text: '< 300 ms', met: value < 300 })),
      figure({ row: 5, name: 'Kitchen board: apply one new order', unit: 'ms', better: 'lower', note: `from the live push reaching the page to the ticket laid out (each run: the median of ${repeats}), ${Math.round(median(layoutShare) * 100)}% of it style and layout; ceiling: the same DOM change by hand` }, { ours: newOrder, ceiling: ceiling.newOrder }, (value) => ({ text: '< 16 ms', met: value < 16 })),
      figure({ row: 5, name: 'Kitchen board: apply one transition', unit: 'ms', better: 'lower' }, { ours: transition, ceiling: ceiling.transition }, (value) => ({ text: '< 16 ms', met: value < 16 })),
      tablet
        ? figure({ row: 5, name: 'Kitchen board: first render on a paired tablet (500 tickets)', unit: 'ms', better: 'lower', note: tabletNote(tablet) }, { ours: tablet.firstRender, ceiling: ceiling.firstRender }, (value) => ({ text: '< 300 ms', met: value < 300 }))
        : notMeasured(5, 'Kitchen board: first render on a paired tablet (500 tickets)', 'ms', 'lower', 'not measured (served-kitchen harness missing)', '< 300 ms'),
    ];
  } finally {
    await kitchen.stop();
  }
}
