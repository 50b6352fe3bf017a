// Issue 28: how many times the board commits (plans and draws) for one change, and how many blocks
// it reads (forced layout) in that change's frame, at bench row 5's 500 tickets, over the page's
// calls on loopback HTTP. A change is timed as row 5 times it: from the live push reaching the page
// to the change laid out. React's commits are counted through its devtools hook (which a production
// build calls too), blocks read by wrapping getBoundingClientRect on `[data-block]` elements.
//
//   npm exec -- node --import tsx bench/probes/board-commits-per-change.ts [--changes 8] [--tickets 500]
import { parseArgs } from 'node:util';
import { rushOrder } from '../../src/shared/demo-rush.ts';
import { DEMO_NOW } from '../../test/support/engine-under-test.ts';
import { startKitchenUnderTest } from '../../test/renderer/support/kitchen-under-test.ts';
import { median, sleep } from '../lib/stats.ts';

const { values: args } = parseArgs({ options: { changes: { type: 'string', default: '8' }, tickets: { type: 'string', default: '500' } } });
const CHANGES = Number(args.changes);
const TICKETS = Number(args.tickets);

const PROBE = `
(() => {
  const probe = (window.__probe = { commits: [], reads: [], pushAt: null, done: null, watch: null, full: null });
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, renderers: new Map(), isDisabled: false,
    inject(renderer) { const id = this.renderers.size + 1; this.renderers.set(id, renderer); return id; },
    onCommitFiberRoot() { probe.commits.push(performance.now()); },
    onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, checkDCE() {},
  };
  const read = Element.prototype.getBoundingClientRect;
  Element.prototype.getBoundingClientRect = function () {
    if (this.hasAttribute && this.hasAttribute('data-block')) probe.reads.push([performance.now(), this.closest('.measure-ahead') !== null]);
    return read.call(this);
  };
  const count = () => Number(document.querySelector('[data-testid="board"]')?.getAttribute('data-active') ?? 0);
  new MutationObserver(() => {
    if (probe.full === null && count() >= ${TICKETS}) probe.full = performance.now();
    if (probe.watch && probe.done === null && probe.watch()) { document.body.getBoundingClientRect(); probe.done = performance.now(); }
  }).observe(document, { childList: true, subtree: true, attributes: true });
  let push = window.__comandaPush;
  Object.defineProperty(window, '__comandaPush', {
    configurable: true,
    get: () => push && ((p) => { if (p && p.kind === 'events' && probe.watch && probe.pushAt === null) probe.pushAt = performance.now(); return push(p); }),
    set: (value) => { push = value; },
  });
  probe.arm = (watch) => { probe.pushAt = null; probe.done = null; probe.watch = watch; };
  probe.columnOf = (n) => document.querySelector('.lanes article[data-number="' + n + '"]')?.closest('[data-column]')?.getAttribute('data-column') ?? null;
  probe.columnCount = (s) => Number(document.querySelector('[data-column="' + s + '"]')?.getAttribute('data-count') ?? -1);
  probe.window = (settleMs) => {
    const from = probe.pushAt, to = probe.done;
    const late = to + settleMs;
    return {
      ms: to - from,
      commits: probe.commits.filter((t) => t >= from && t <= to).length,
      readsInFrame: probe.reads.filter(([t, ahead]) => t >= from && t <= to && !ahead).length,
      commitsAfter: probe.commits.filter((t) => t > to && t <= late).length,
      readsAheadAfter: probe.reads.filter(([t, ahead]) => t > to && t <= late && ahead).length,
    };
  };
})();
`;

const kitchen = await startKitchenUnderTest({ heartbeatMs: 60_000, ipcOverHttp: true });
try {
  const { engine, page } = kitchen;
  const key = engine.demo[0]!.keys.live_write;
  let placed = 0;
  const place = async () => {
    const { scheduled_for: _later, ...body } = rushOrder(placed++, { now: Date.parse(DEMO_NOW) });
    const created = await engine.call('POST', '/orders', { key, body });
    if (created.status !== 201) throw new Error(`POST /orders: ${created.status}`);
    return created.body as { id: string; number: string };
  };
  const move = async (id: string, status: string) => {
    const moved = await engine.call('PATCH', `/orders/${id}`, { key, body: { status } });
    if (moved.status !== 200) throw new Error(`PATCH /orders: ${moved.status}`);
  };
  const orders: { id: string; number: string }[] = [];
  for (let i = 0; i < TICKETS; i++) orders.push(await place());
  for (const [index, order] of orders.entries()) {
    if (index >= TICKETS / 2) await move(order.id, 'en_preparacion');
    if (index >= (TICKETS * 4) / 5) await move(order.id, 'listo');
  }
  await kitchen.drained();
  await kitchen.context.addInitScript({ content: PROBE });
  await kitchen.open();
  await page.waitForFunction(() => (window as any).__probe.full !== null, undefined, { timeout: 60_000, polling: 20 });
  await sleep(1000);
  const waiting = orders.slice(0, TICKETS / 2);
  const rows: { ms: number; commits: number; readsInFrame: number; commitsAfter: number; readsAheadAfter: number }[] = [];
  for (let i = 0; i < CHANGES; i++) {
    const order = waiting.shift()!;
    await page.evaluate((n) => {
      const p = (window as any).__probe;
      const before = p.columnCount('en_preparacion');
      p.arm(() => p.columnOf(n) !== 'recibido' && p.columnCount('en_preparacion') > before);
    }, order.number);
    await move(order.id, 'en_preparacion');
    await page.waitForFunction(() => (window as any).__probe.done !== null && (window as any).__probe.pushAt !== null, undefined, { timeout: 30_000, polling: 20 });
    await sleep(500);
    rows.push(await page.evaluate(() => (window as any).__probe.window(500)));
  }
  for (const [i, row] of rows.entries()) console.log(`transition ${i + 1}: ${row.ms.toFixed(1)} ms, ${row.commits} commit(s), ${row.readsInFrame} block(s) read in its frame; after it: ${row.commitsAfter} commit(s), ${row.readsAheadAfter} block(s) measured ahead`);
  console.log(`median ${median(rows.map((r) => r.ms)).toFixed(1)} ms; transitions committed twice or more: ${rows.filter((r) => r.commits > 1).length} of ${rows.length}`);
} finally {
  await kitchen.stop();
}
