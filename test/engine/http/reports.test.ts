// The kitchen report over the API (issue 33): a read key gets the report and its tables; the figures
// recomputed here from the exported CSV (tickets and promises) equal the report's; a table's CSV
// reads back to the same rows; a label that a spreadsheet would run as a formula stays text.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../screen/support.ts';
import { createApiKey } from '../../../src/engine/services/keys/api-keys.ts';
import { parseCsv } from '../../../src/shared/csv.ts';

const MIN = 60_000;
const T0 = DateTime.fromISO('2026-11-28T19:00:00-03:00').toMillis();
const DAY = '2026-11-28';
const ZONE = 'America/Santiago';

let engine: EngineUnderTest;
let readKey: string;
before(async () => {
  engine = await startEngineUnderTest();
  readKey = engine.demo[0]!.keys.live_read;
});
after(async () => {
  await engine?.stop();
});

/** The report's quantile: linear between ranks. Written again here, so the round trip checks it. */
function q(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const rank = (s.length - 1) * p;
  return s[Math.floor(rank)]! + (s[Math.ceil(rank)]! - s[Math.floor(rank)]!) * (rank - Math.floor(rank));
}

test('figures recomputed from the exported CSV equal the report\'s', async () => {
  const kitchen = handlersFor(engine);
  const formula = (await createApiKey(engine.server.engine, { restaurantId: R1.id, world: 'live', write: true, label: '=HYPERLINK("http://x","tienda")' })).key;
  // A two-hour service: 24 orders of one or two lines at different stations, bumped after known
  // minutes, one in four started at once, every one taken to listo when its last line is done.
  const menu = [R1.products.completo, R1.products.empanadaQueso, R1.products.cazuela, R1.products.bebidaLata];
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const plan: { at: number; kind: 'fire' | 'bump' | 'ready'; n: number; line?: number }[] = [];
  const sizes: number[] = [];
  for (let n = 0; n < 24; n++) {
    const fired = n * 5 * MIN + next(60) * 1000;
    const lines = 1 + next(2);
    sizes.push(lines);
    plan.push({ at: fired, kind: 'fire', n });
    let last = fired;
    for (let line = 0; line < lines; line++) {
      const done = fired + (4 + next(14)) * MIN + next(60) * 1000;
      last = Math.max(last, done);
      plan.push({ at: done, kind: 'bump', n, line });
    }
    plan.push({ at: last, kind: 'ready', n });
  }
  plan.sort((a, b) => a.at - b.at || (a.kind === 'fire' ? -1 : 1));
  const orders: any[] = [];
  for (const step of plan) {
    engine.clock.set(T0 + step.at);
    if (step.kind === 'fire') {
      const items = Array.from({ length: sizes[step.n]! }, (_, i) => ({ product_id: menu[(step.n + i) % menu.length]!, quantity: 1 }));
      orders[step.n] = await placeOrder(engine, { items }, step.n % 6 === 0 ? formula : engine.demo[0]!.keys.live_write);
      if (step.n % 4 === 0) await kitchen.ok('orders:transition', { order_id: orders[step.n].id, target: 'en_preparacion' });
    } else if (step.kind === 'bump') await kitchen.ok('items:set-done', { order_id: orders[step.n].id, item_index: step.line!, done: true });
    else {
      // Through en preparación (a no-op for a ticket started already).
      await kitchen.ok('orders:transition', { order_id: orders[step.n].id, target: 'en_preparacion' });
      await kitchen.ok('orders:transition', { order_id: orders[step.n].id, target: 'listo' });
    }
  }
  engine.clock.set(T0 + 4 * 60 * MIN);

  const query = `location_id=${R1.openLocation}&from=${DAY}`;
  const report = await engine.call('GET', `/reports/kitchen?${query}`, { key: readKey });
  assert.equal(report.status, 200, report.text);
  assert.equal(report.body.tickets.fired, 24);
  assert.ok(report.body.tickets.counted >= 15, `most tickets count: ${JSON.stringify(report.body.tickets)}`);

  // Tickets: the rush strip and the heatmap again, from the CSV alone.
  const ticketsCsv = await engine.call('GET', `/reports/kitchen/tickets?${query}`, { key: readKey });
  assert.equal(ticketsCsv.status, 200, ticketsCsv.text);
  assert.match(ticketsCsv.headers.get('content-type')!, /^text\/csv/);
  assert.match(ticketsCsv.headers.get('content-disposition')!, /comanda-tickets-2026-11-28\.csv/);
  const tickets = parseCsv(ticketsCsv.text);
  const col = (name: string) => tickets.columns.indexOf(name);
  const rows = tickets.rows.map((r) => ({
    fired: Number(r[col('fired_ms')]),
    ready: r[col('ready_ms')] === '' ? null : Number(r[col('ready_ms')]),
    cancelled: r[col('cancelled_at')] !== '',
    seconds: r[col('seconds')] === '' ? null : Number(r[col('seconds')]),
    excluded: r[col('excluded')] !== '',
    channel: r[col('channel')]!,
    stations: r[col('stations')]!.split(';').filter(Boolean).map((s) => s.split('=') as [string, string]),
  }));
  assert.equal(rows.length, 24);
  const counted = rows.filter((t) => !t.excluded && !t.cancelled && t.ready !== null);
  for (const slot of report.body.rush) {
    const start = DateTime.fromISO(slot.start).toMillis();
    const end = DateTime.fromISO(slot.end).toMillis();
    const times = counted.filter((t) => t.ready! >= start && t.ready! < end).map((t) => t.seconds!);
    assert.equal(slot.finished, times.length, slot.start);
    assert.equal(slot.p50_seconds, times.length ? Math.round(q(times, 0.5)) : null, slot.start);
    assert.equal(slot.p90_seconds, times.length ? Math.round(q(times, 0.9)) : null, slot.start);
    // In progress at the slot's end, at the report's instant for the slot holding it, unknown after.
    const now = DateTime.fromISO(report.body.generated_at).toMillis();
    const at = Math.min(end, now);
    assert.equal(slot.in_progress, start >= now ? null : rows.filter((t) => t.fired < at && (t.ready === null || t.ready >= at)).length, slot.start);
  }
  const cells = new Map<string, number[]>();
  for (const t of counted) {
    for (const [station, done] of t.stations) {
      const key = `${station} ${DateTime.fromMillis(Number(done), { zone: ZONE }).hour}`;
      cells.set(key, [...(cells.get(key) ?? []), (Number(done) - t.fired) / 1000]);
    }
  }
  assert.deepEqual(
    Object.fromEntries(report.body.heatmap.map((c: any) => [`${c.station_id} ${c.hour}`, [c.p90_seconds, c.tickets]])),
    Object.fromEntries([...cells].map(([key, times]) => [key, [Math.round(q(times, 0.9)), times.length]])),
  );
  // The label that would be a formula is text in the sheet.
  assert.ok(rows.some((t) => t.channel === `'=HYPERLINK("http://x","tienda")`), 'the formula label is prefixed');
  assert.ok(ticketsCsv.text.includes(`"'=HYPERLINK(""http://x"",""tienda"")"`), 'and quoted as RFC 4180 says');

  // Promises: kept and the share, from the CSV alone.
  const promisesCsv = parseCsv((await engine.call('GET', `/reports/kitchen/promises?${query}`, { key: readKey })).text);
  const p = (name: string) => promisesCsv.columns.indexOf(name);
  const ready = promisesCsv.rows.filter((r) => r[p('ready_ms')] !== '');
  const kept = ready.filter((r) => Number(r[p('ready_ms')]) <= Number(r[p('promised_ms')]));
  assert.equal(report.body.promises.orders, promisesCsv.rows.length);
  assert.equal(report.body.promises.kept, kept.length);
  assert.equal(report.body.promises.kept_share, kept.length / ready.length);
  const lateness = ready.map((r) => (Number(r[p('ready_ms')]) - Number(r[p('promised_ms')])) / 1000);
  assert.equal(report.body.promises.lateness_p90_seconds, Math.round(q(lateness, 0.9)));

  // A figure's table reads back to the figure itself; its JSON is the same rows.
  const itemsCsv = parseCsv((await engine.call('GET', `/reports/kitchen/items?${query}`, { key: readKey })).text);
  const itemsJson = await engine.call('GET', `/reports/kitchen/items?${query}&format=json`, { key: readKey });
  assert.equal(itemsJson.status, 200, itemsJson.text);
  const numeric = new Set(['count', 'excluded', 'median_seconds', 'p90_seconds', 'typed_seconds', 'learned_seconds']);
  const fromCsv = itemsCsv.rows.map((r) => Object.fromEntries(itemsCsv.columns.map((c, i) => [c, numeric.has(c) ? (r[i] === '' ? null : Number(r[i])) : r[i]])));
  assert.deepEqual(fromCsv, report.body.items);
  assert.deepEqual(itemsJson.body.data, report.body.items);

  // The item timing log: every row of the day, fired, started and done.
  const log = await engine.call('GET', `/reports/kitchen/item_timings?${query}&format=json`, { key: readKey });
  assert.equal(log.status, 200, log.text);
  const lines = sizes.reduce((a, b) => a + b, 0);
  assert.equal(log.body.data.filter((r: any) => r.kind === 'fired').length, lines);
  assert.equal(log.body.data.filter((r: any) => r.kind === 'done').length, lines);
});

test('refusals: an unknown table, a location of no one, more than 92 days, the log over 31 days, no key', async () => {
  const bad = await engine.call('GET', `/reports/kitchen/sales?location_id=${R1.openLocation}&from=${DAY}`, { key: readKey });
  assert.equal(bad.status, 400);
  const nowhere = await engine.call('GET', `/reports/kitchen?location_id=21000000-0000-4000-8000-000000000001&from=${DAY}`, { key: readKey });
  assert.equal(nowhere.status, 404);
  const long = await engine.call('GET', `/reports/kitchen?location_id=${R1.openLocation}&from=2026-01-01&to=2026-06-01`, { key: readKey });
  assert.equal(long.status, 400);
  assert.match(long.body.error.message, /92 days/);
  const logLong = await engine.call('GET', `/reports/kitchen/item_timings?location_id=${R1.openLocation}&from=2026-10-01&to=2026-11-28`, { key: readKey });
  assert.equal(logLong.status, 400);
  assert.match(logLong.body.error.message, /31 days/);
  const badDay = await engine.call('GET', `/reports/kitchen?location_id=${R1.openLocation}&from=2026-13-01`, { key: readKey });
  assert.equal(badDay.status, 400);
  const anonymous = await engine.call('GET', `/reports/kitchen?location_id=${R1.openLocation}&from=${DAY}`, { key: null });
  assert.equal(anonymous.status, 401);
});
