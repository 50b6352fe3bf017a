// Informes in headless Chromium over the real engine (issue 33): a service with known bumps, the
// screen opened from the desktop's nav (its chunk loaded then, not with the board), each figure
// drawn with its rule, the numbers on the page equal to the engine's report, the export of a table;
// screenshots at 1920×1080, 1280×800 and 820×1180 in docs/screens/informes/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { callScreenHandler } from '../../src/engine/screen/dispatch.ts';
import { readKitchenReport } from '../../src/engine/services/reports/kitchen-report.ts';
import { parseCsv } from '../../src/shared/csv.ts';
import { R1 } from '../support/demo-ids.ts';
import { DEMO_NOW } from '../support/engine-under-test.ts';
import { placeOrder, startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';

const SCREENS = resolve(import.meta.dirname, '../../docs/screens/informes');
const VIEWPORTS = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 800 },
  { width: 820, height: 1180 },
  { width: 390, height: 844 },
];
const MIN = 60_000;
const DAY = DEMO_NOW.slice(0, 10);
const manager = { restaurantId: R1.id, world: 'live' as const, canWrite: false, keyId: 'test' };

/** An evening at the demo's open location: 24 tickets bumped after known minutes, a sweep, a cancellation, a recall. */
async function service(k: KitchenUnderTest): Promise<void> {
  const start = Date.parse(DEMO_NOW);
  const ok = async (channel: Parameters<typeof callScreenHandler>[1], request: unknown) => {
    const answer = await callScreenHandler(k.handlers, channel, request as never);
    if (!answer.ok) throw new Error(`${channel}: ${answer.error.code} ${answer.error.message}`);
  };
  const menu = [R1.products.completo, R1.products.empanadaQueso, R1.products.cazuela, R1.products.bebidaLata];
  const steps: { at: number; run: () => Promise<void> }[] = [];
  const orders: { id: string }[] = [];
  for (let n = 0; n < 24; n++) {
    const fired = start + n * 4 * MIN;
    const lines = 1 + (n % 2);
    steps.push({
      at: fired,
      run: async () => {
        orders[n] = await placeOrder(k.engine, { items: Array.from({ length: lines }, (_, i) => ({ product_id: menu[(n + i) % menu.length]!, quantity: 1 })) });
        await ok('orders:transition', { order_id: orders[n]!.id, target: 'en_preparacion' });
      },
    });
    let last = fired;
    for (let line = 0; line < lines; line++) {
      const done = fired + (5 + ((n * 7 + line * 5) % 13)) * MIN;
      last = Math.max(last, done);
      steps.push({ at: done, run: () => ok('items:set-done', { order_id: orders[n]!.id, item_index: line, done: true }) });
    }
    steps.push({ at: last, run: () => ok('orders:transition', { order_id: orders[n]!.id, target: 'listo' }) });
  }
  steps.sort((a, b) => a.at - b.at);
  for (const step of steps) {
    k.engine.clock.set(step.at);
    await step.run();
  }
  // Four completos swept off the plancha within seconds, a cancellation and a recall.
  const swept = [];
  for (let i = 0; i < 4; i++) swept.push(await placeOrder(k.engine, { items: [{ product_id: R1.products.completo, quantity: 1 }] }));
  k.engine.clock.set(start + 130 * MIN);
  for (const order of swept) {
    await ok('items:set-done', { order_id: order.id, item_index: 0, done: true });
    k.engine.clock.advance(1000);
  }
  const cancelled = await placeOrder(k.engine, { items: [{ product_id: R1.products.cazuela, quantity: 1 }] });
  await ok('orders:transition', { order_id: cancelled.id, target: 'cancelado' });
  await ok('orders:transition', { order_id: orders[0]!.id, target: 'entregado' });
  await ok('orders:recall', { order_id: orders[0]!.id });
  k.engine.clock.set(start + 150 * MIN);
}

describe('Informes (Chromium, real engine)', () => {
  let k: KitchenUnderTest;
  before(async () => {
    k = await startKitchenUnderTest();
    await service(k);
  });
  after(async () => {
    await k?.stop();
  });

  test('loaded on first use; every figure drawn with its rule and the engine\'s numbers; a table exported', async () => {
    const { page } = k;
    const chunks: string[] = [];
    page.on('request', (request) => chunks.push(request.url()));
    await k.open();
    await page.locator('[data-testid="nav-reports"]').waitFor();
    assert.ok(!chunks.some((url) => /InformesScreen/.test(url)), 'the board does not load the Informes chunk');
    await page.locator('[data-testid="nav-reports"]').click();
    const report = page.locator(`[data-testid="report"][data-from="${DAY}"]`);
    await report.waitFor();
    assert.ok(chunks.some((url) => /InformesScreen-.*\.js$/.test(url)), 'the Informes chunk is loaded when the screen opens');
    assert.equal(await page.locator('[data-testid="nav-reports"]').innerText(), 'Informes');

    const expected = await readKitchenReport(k.engine.server.engine, manager, { location_id: R1.openLocation, from: DAY });
    assert.ok(expected.tickets.counted >= 15, JSON.stringify(expected.tickets));
    const t = expected.tickets;
    // Each ticket said once, by why it does not count: the recalled one, open 150 minutes, is among those left out.
    assert.deepEqual([t.cancelled, t.open, t.fired - t.counted - t.cancelled - t.left_out], [1, 1, 0], 'one cancelled, one open (the recalled ticket, left out), none unfinished otherwise');
    assert.equal(
      await page.locator('[data-testid="tickets-summary"]').innerText(),
      `${t.fired} comandas llegaron a cocina. Los tiempos se calculan con ${t.counted} comandas terminadas. No cuentan: 1 anulada y ${t.left_out} dejadas fuera porque sus marcas no pueden ser reales.`,
    );
    // The rule behind those words is one tap away, and from it the list of those left out.
    const countRule = page.locator('[data-testid="count-rule"]');
    assert.equal(await countRule.locator('.figure-rule').isVisible(), false, 'closed until asked');
    await countRule.locator('summary').click();
    assert.match(await countRule.locator('.figure-rule').innerText(), /^Una comanda cuenta en los tiempos cuando terminó .* Queda fuera entera si una de sus marcas no puede ser real: .*barrida/);
    await countRule.locator('[data-testid="count-rule-list"]').click();
    await page.waitForFunction(() => {
      const figure = document.querySelector('[data-testid="figure-excluded"]')!.getBoundingClientRect();
      return figure.top >= 0 && figure.top < window.innerHeight / 2;
    });
    await countRule.locator('summary').click();
    await page.locator('[data-testid="rush-chart"] canvas').waitFor();
    assert.equal(await page.locator('[data-testid="heatmap-cell"]').count(), expected.heatmap.length);
    assert.equal(await page.locator('[data-testid="items-table"] tbody tr').count(), expected.items.length);
    const p = expected.promises;
    assert.equal(await page.locator('[data-testid="promises-summary"]').innerText(), `${p.kept} de ${p.ready} pedidos listos a tiempo · ${p.not_ready} sin estar listos (anulados o abiertos)`);
    assert.equal(
      await page.locator('[data-testid="excluded-counts"]').innerText(),
      `${expected.excluded.bumps.mass_bump} barridas · ${expected.excluded.bumps.too_fast} demasiado rápidas · ${expected.excluded.bumps.left_open} platos abiertos · 1 comanda abierta`,
    );
    assert.equal(expected.excluded.tickets_left_open, 1);
    assert.equal(expected.excluded.bumps.mass_bump, 4, 'the sweep is left out');
    assert.equal(await page.locator('[data-testid="excluded-table"] tbody tr').count(), expected.excluded.list.length);
    // The ticket left open (the recalled #1, open 150 minutes) is named as a whole ticket, not shown with blank item and station.
    const wholeTicket = expected.excluded.list.find((e) => e.product_id === null)!;
    assert.match(await page.locator('[data-testid="excluded-table"] tbody tr').filter({ has: page.locator('th', { hasText: new RegExp(`^#${wholeTicket.number}$`) }) }).innerText(), /toda la comanda\s+quedó abierta/);
    for (const figure of ['rush', 'heatmap', 'items', 'busy', 'recalls', 'cancellations', 'excluded', 'export']) {
      const rule = page.locator(`[data-testid="figure-${figure}"] .figure-rule`);
      assert.ok((await rule.innerText()).length > 30, `${figure} states its rule`);
    }
    assert.match(await page.locator('[data-testid="figure-rush"] .figure-rule').innerText(), /mediana \(no el promedio\)/);
    assert.match(await page.locator('[data-testid="figure-promises"] .figure-rule').innerText(), /Se pide cubrir el 90 %/);
    assert.match(await page.locator('[data-testid="figure-recalls"]').innerText(), /Comandas recuperadas \(1\)/);
    assert.match(await page.locator('[data-testid="figure-cancellations"]').innerText(), /Anulaciones \(1\)/);

    // Exportar: the tickets as CSV, downloaded by the browser, the same rows as the API's.
    await page.locator('[data-testid="export-table"]').selectOption('tickets');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-csv"]').click()]);
    assert.equal(download.suggestedFilename(), `comanda-tickets-${DAY}.csv`);
    const csv = parseCsv(readFileSync((await download.path())!, 'utf8'));
    const api = await k.engine.call('GET', `/reports/kitchen/tickets?location_id=${R1.openLocation}&from=${DAY}`, { key: k.engine.demo[0]!.keys.live_read });
    assert.deepEqual(csv, parseCsv(api.text));
    assert.equal(csv.rows.length, t.fired);
    // The same table as JSON from the screen: the same rows, each an object of the CSV's columns.
    const [json] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-json"]').click()]);
    assert.equal(json.suggestedFilename(), `comanda-tickets-${DAY}.json`);
    const objects = JSON.parse(readFileSync((await json.path())!, 'utf8')) as Record<string, unknown>[];
    assert.deepEqual(
      objects.map((o) => csv.columns.map((c) => (o[c] === null ? '' : String(o[c])))),
      csv.rows,
    );

    mkdirSync(SCREENS, { recursive: true });
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.locator('[data-testid="rush-chart"] canvas').waitFor();
      // The chart follows the page's width: wait until it was drawn again at this one.
      await page.waitForFunction(() => {
        const holder = document.querySelector('.chart-holder');
        const canvas = document.querySelector('[data-testid="rush-chart"] canvas') as HTMLCanvasElement | null;
        return holder !== null && canvas !== null && Math.abs(canvas.getBoundingClientRect().width - holder.getBoundingClientRect().width) < 2;
      });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `nothing wider than the window at ${viewport.width}×${viewport.height} (${overflow} px over)`);
      // The page scrolls inside its own view: no figure runs past that view's right edge either (its words would be cut).
      const pastEdge = await page.evaluate(`(() => {
        const view = document.querySelector('[data-testid="reports-view"]'), edge = view.getBoundingClientRect().left + view.clientWidth;
        return [...document.querySelectorAll('.report-figure')].filter((f) => f.getBoundingClientRect().right > edge + 0.5).map((f) => f.dataset.testid);
      })()`);
      assert.deepEqual(pastEdge, [], `no figure past the page's edge at ${viewport.width}×${viewport.height}`);
      // A picture wider than its card scrolls inside it (.scroll-x), not past the card's edge.
      const pastCard = await page.evaluate(`[...document.querySelectorAll('.report-figure svg')].filter((svg) => {
        const box = (svg.closest('.scroll-x') ?? svg.closest('.report-figure')).getBoundingClientRect();
        return svg.getBoundingClientRect().right > box.right + 0.5 && !svg.closest('.scroll-x');
      }).map((svg) => svg.getAttribute('data-testid') ?? svg.getAttribute('class'))`);
      assert.deepEqual(pastCard, [], `no picture past its card at ${viewport.width}×${viewport.height}`);
      // The items and left-out tables fit their card whole (a narrow window shows each row as a small card), no column cut behind a scroll.
      const tablesCut = await page.evaluate(`[...document.querySelectorAll('[data-testid="items-table"], [data-testid="excluded-table"]')].filter((table) => table.offsetWidth > table.closest('.scroll-x').clientWidth + 0.5).map((table) => table.dataset.testid)`);
      assert.deepEqual(tablesCut, [], `no table cut at ${viewport.width}×${viewport.height}`);
      // No chart's words cut: every text of the SVG pictures lies inside its picture's drawing.
      const cut = await page.evaluate(`[...document.querySelectorAll('.report-figure svg text')].filter((t) => {
        const svg = t.ownerSVGElement, box = t.getBBox(), view = svg.viewBox.baseVal;
        const [x0, y0, w, h] = view && view.width ? [view.x, view.y, view.width, view.height] : [0, 0, svg.width.baseVal.value, svg.height.baseVal.value];
        return box.width > 0 && (box.x < x0 - 0.5 || box.y < y0 - 0.5 || box.x + box.width > x0 + w + 0.5 || box.y + box.height > y0 + h + 0.5);
      }).map((t) => t.textContent)`);
      assert.deepEqual(cut, [], `no chart text cut at ${viewport.width}×${viewport.height}`);
      // No words past their card's edge (the promises' lines, the export's table select on a phone): each wraps or fits, unless it scrolls on purpose.
      const wordsCut = await page.evaluate(`[...document.querySelectorAll('.report-figure :is(p, h2, caption, th, td, li, summary, label, select, button)')].filter((e) => {
        if (e.closest('.scroll-x') || e.getClientRects().length === 0) return false;
        const card = e.closest('.report-figure'), edge = card.getBoundingClientRect().right - parseFloat(getComputedStyle(card).paddingRight);
        return e.getBoundingClientRect().right > edge + 0.5 || (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible');
      }).map((e) => e.textContent.slice(0, 50))`);
      assert.deepEqual(wordsCut, [], `no words past their card at ${viewport.width}×${viewport.height}`);
      // The lateness histogram shrinks to its card: every bar in sight from a tablet's width up (a phone scrolls it).
      if (viewport.width >= 820) {
        const hidden = await page.locator('[data-testid="lateness-histogram"]').evaluate((svg) => svg.parentElement!.scrollWidth - svg.parentElement!.clientWidth);
        assert.ok(hidden <= 1, `the histogram whole at ${viewport.width}×${viewport.height} (${hidden} px behind a scroll)`);
      }
      // The page scrolls inside the window: a picture from the top, one at the promises and items, one at what is left out.
      const size = `${viewport.width}x${viewport.height}`;
      await page.locator('[data-testid="reports-view"]').evaluate((el) => el.scrollTo(0, 0));
      await page.screenshot({ path: join(SCREENS, `informes-${size}-1-arriba.png`) });
      await page.locator('[data-testid="figure-promises"]').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: join(SCREENS, `informes-${size}-2-promesas.png`) });
      await page.locator('[data-testid="figure-excluded"]').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: join(SCREENS, `informes-${size}-3-fuera.png`) });
    }
  });

  test('another day is asked of the engine: a day without service says so', async () => {
    const { page } = k;
    await page.locator('[data-testid="period-yesterday"]').click();
    await page.locator('[data-testid="report"][data-from="2026-11-20"]').waitFor();
    assert.equal(await page.locator('[data-testid="tickets-summary"]').innerText(), 'Ningún pedido llegó a la cocina este día.');
    // The dates are written the Chilean way, whatever the browser's locale (Chromium's date input wrote 11/20/2026).
    assert.equal(await page.locator('[data-testid="period-from"]').inputValue(), '20-11-2026');
    assert.equal(await page.locator('[data-testid="period-to"]').inputValue(), '20-11-2026');
    assert.match(await page.locator('[data-testid="figure-replay"] .figure-rule').innerText(), /^El servicio del 20-11-2026,/);
    // An empty day says so in each picture: no chart of axes only, no empty histogram or share tables, no "—" figures.
    assert.equal(await page.locator('[data-testid="rush-chart"]').count(), 0, 'no rush chart of axes only');
    assert.equal(await page.locator('[data-testid="rush-none"]').innerText(), 'Ninguna comanda terminó ni estuvo en curso este día.');
    assert.equal(await page.locator('[data-testid="lateness-histogram"]').count(), 0, 'no histogram of empty bars');
    assert.equal(await page.locator('[data-testid="promises"] table').count(), 0, 'no share tables of headers only');
    assert.equal(await page.locator('[data-testid="promises-none"]').innerText(), 'Ningún pedido recibió una hora prometida este día.');
    assert.doesNotMatch(await page.locator('[data-testid="figure-promises"]').innerText(), /—|NaN|undefined/);
    assert.equal(await page.locator('[data-testid="busy-none"]').innerText(), 'La sucursal no pausó pedidos este día.');
    assert.match(await page.locator('[data-testid="figure-cancellations"] .figure-rule').innerText(), /^Pedidos hechos este día y anulados/);
    assert.equal(await page.locator('[data-testid="figure-items"] .muted').innerText(), 'Ninguno.');
    const words = await page.locator('[data-testid="reports-view"]').innerText();
    assert.doesNotMatch(words, /NaN|undefined|null|Infinity/);
    // Another location: asked of the engine for that location (the service was at the open one).
    await page.locator('[data-testid="period-today"]').click();
    await page.locator(`[data-testid="report"][data-from="${DAY}"]`).waitFor();
    await page.locator('[data-testid="tickets-summary"]', { hasText: 'comandas llegaron' }).waitFor();
    const other = await page.locator('[data-testid="reports-location"] option').evaluateAll((options, open) => options.map((o) => (o as HTMLOptionElement).value).find((v) => v !== open)!, R1.openLocation);
    await page.locator('[data-testid="reports-location"]').selectOption(other);
    await page.locator('[data-testid="tickets-summary"]', { hasText: 'Ningún pedido llegó a la cocina este día.' }).waitFor();
    await page.locator('[data-testid="reports-location"]').selectOption(R1.openLocation);
    await page.locator('[data-testid="tickets-summary"]', { hasText: 'comandas llegaron' }).waitFor();
    await page.locator('[data-testid="period-yesterday"]').click();
    await page.locator('[data-testid="report"][data-from="2026-11-20"]').waitFor();
    // A date typed day first is a period from it; a month-first one is not taken.
    await page.locator('[data-testid="period-from"]').fill('11/28/2026');
    assert.equal(await page.locator('[data-testid="period-from"]').getAttribute('aria-invalid'), 'true');
    await page.locator('[data-testid="period-from"]').fill('14-11-2026');
    await page.locator('[data-testid="report"][data-from="2026-11-14"][data-to="2026-11-20"]').waitFor();
    // A range with nothing in it says so of its days ("este día" above was of one day).
    assert.equal(await page.locator('[data-testid="tickets-summary"]').innerText(), 'Ningún pedido llegó a la cocina en estos días.');
    assert.equal(await page.locator('[data-testid="busy-none"]').innerText(), 'La sucursal no pausó pedidos en estos días.');
  });
});
