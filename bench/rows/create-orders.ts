// Row 3: POST /orders sustained (3 items of tracked stock, external payment), against a raw
// better-sqlite3 loop that writes the same rows in one transaction per order.
import BetterSqlite3 from 'better-sqlite3';
import { R1 } from '../../test/support/demo-ids.ts';
import { spawnChild } from '../lib/child.ts';
import { authorization, copyOfDatabase, removeDatabase, underTest, type BenchContext } from '../lib/context.ts';
import { runLoad, type LoadResult } from '../lib/load.ts';
import { figure, type Figure } from '../lib/report.ts';
import type { WriterConfig } from '../children/sqlite-writer.ts';

const ITEMS = [
  { product_id: R1.products.empanadaQueso, quantity: 2 },
  { product_id: R1.products.pastelDeChoclo, quantity: 1 },
  { product_id: R1.products.empanadaPino, quantity: 3, notes: 'Bien doradas' },
];

export const CREATE_ORDER_BODY = JSON.stringify({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name: 'Carga Sostenida', phone: '+56 9 5555 1234' },
  items: ITEMS,
  payment: 'external',
});

/** The rows the engine wrote for its last order, to have the ceiling write the same. */
function lastOrderWritten(path: string): Pick<WriterConfig, 'order' | 'orderEvent' | 'stockEvent' | 'channel'> {
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    const order = db.prepare('SELECT * FROM orders ORDER BY created_at DESC, rowid DESC LIMIT 1').get() as Record<string, unknown>;
    const event = (type: string) =>
      (db.prepare('SELECT data FROM events WHERE type = ? ORDER BY seq DESC LIMIT 1').get(type) as { data: string }).data;
    const { channel } = db.prepare('SELECT channel FROM kitchen_order_channels WHERE order_id = ?').get(order.id) as { channel: string };
    return { order, orderEvent: event('order.created'), stockEvent: event('stock.updated'), channel };
  } finally {
    db.close();
  }
}

export async function benchCreateOrders(context: BenchContext): Promise<Figure[]> {
  const headers = { ...authorization(context.prepared.keys.live_write), 'content-type': 'application/json' };
  const ours: LoadResult[] = [];
  const ceiling: { ordersPerSecond: number; p50: number; p99: number; cpuMicrosPerOrder: number }[] = [];
  const cpuOurs: number[] = [];
  for (let run = 0; run < context.runs; run++) {
    const database = copyOfDatabase(context);
    const engine = await spawnChild('engine', { database }, underTest(context, 'row3'));
    try {
      const load = (durationSeconds: number) =>
        runLoad({ url: `${engine.ready.baseUrl as string}/orders`, method: 'POST', headers, body: CREATE_ORDER_BODY, durationSeconds });
      // Warm-up first (JIT, caches), not measured; then the engine's CPU (user + system) over the measured run.
      if (context.warmupSeconds > 0) await load(context.warmupSeconds);
      const before = await engine.ask({ type: 'cpu' });
      ours.push(await load(context.seconds));
      const after = await engine.ask({ type: 'cpu' });
      const micros = (after.user as number) - (before.user as number) + (after.system as number) - (before.system as number);
      cpuOurs.push(micros / Math.max(1, ours.at(-1)!.requests));
    } finally {
      await engine.stop();
    }
    const written = lastOrderWritten(database);
    removeDatabase(database);
    const ceilingDatabase = copyOfDatabase(context);
    const writer = await spawnChild('sqlite-writer', {
      database: ceilingDatabase,
      seconds: context.seconds,
      restaurantId: context.prepared.restaurantId,
      locationId: R1.openLocation,
      takes: ITEMS.map((i) => ({ productId: i.product_id, quantity: i.quantity })),
      ...written,
    } satisfies WriterConfig);
    await writer.stop();
    removeDatabase(ceilingDatabase);
    ceiling.push(writer.ready as unknown as (typeof ceiling)[number]);
    context.log(`  run ${run + 1}: ours ${Math.round(ours.at(-1)!.rps)} orders/s (${cpuOurs.at(-1)!.toFixed(0)} µs CPU each), raw SQLite ${Math.round(ceiling.at(-1)!.ordersPerSecond)} orders/s (${ceiling.at(-1)!.cpuMicrosPerOrder.toFixed(0)} µs)`);
  }
  return [
    figure(
      { row: 3, name: 'POST /orders throughput', unit: 'orders/s', better: 'higher', note: '10 connections; ceiling: raw better-sqlite3, same rows, 1 transaction/order' },
      { ours: ours.map((r) => r.rps), ceiling: ceiling.map((r) => r.ordersPerSecond) },
      (_value, ratio) => ({ text: '≥ 50% of ceiling', met: ratio !== null && ratio >= 0.5 }),
    ),
    figure(
      {
        row: 3,
        name: 'POST /orders CPU per order',
        unit: 'µs',
        better: 'lower',
        note: 'user + system CPU of the engine process over a measured run ÷ its orders (the raw loop\'s own for the ceiling); steadier than throughput on a shared machine',
      },
      { ours: cpuOurs, ceiling: ceiling.map((r) => r.cpuMicrosPerOrder) },
    ),
    figure(
      { row: 3, name: 'POST /orders latency p50', unit: 'ms', better: 'lower', note: 'ceiling: one transaction of the raw loop' },
      { ours: ours.map((r) => r.p50), ceiling: ceiling.map((r) => r.p50) },
    ),
    figure(
      { row: 3, name: 'POST /orders latency p99', unit: 'ms', better: 'lower' },
      { ours: ours.map((r) => r.p99), ceiling: ceiling.map((r) => r.p99) },
      (value) => ({ text: '< 10 ms', met: value < 10 }),
    ),
  ];
}
