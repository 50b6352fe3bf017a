// The ceiling of the disk and SQLite here for POST /orders: a raw better-sqlite3 loop writing the
// rows one order writes (its number, three stock takes, the order, its channel for the kitchen, its
// stock and order events),
// prepared statements, one IMMEDIATE transaction per order, opened as the engine opens its file
// (same pragmas).
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../src/engine/store/open-database.ts';
import { childConfig, tell } from '../lib/child.ts';

export interface WriterConfig {
  database: string;
  seconds: number;
  restaurantId: string;
  locationId: string;
  /** An order row as the engine wrote it, and the data of its two events. */
  order: Record<string, unknown>;
  orderEvent: string;
  stockEvent: string;
  /** The order's channel row (kitchen_order_channels), as the engine wrote it. */
  channel: string;
  /** Tracked products and the quantity of each the order takes. */
  takes: { productId: string; quantity: number }[];
}

const config = childConfig<WriterConfig>();
const db = openDatabase(config.database);

const columns = Object.keys(config.order);
const insertOrder = db.prepare(`INSERT INTO orders (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
const takeNumber = db.prepare(
  'UPDATE restaurants SET next_order_number = next_order_number + 1 WHERE id = ? RETURNING next_order_number - 1 AS n',
);
const takeStock = db.prepare('UPDATE stock SET quantity = quantity - ? WHERE location_id = ? AND product_id = ? AND quantity >= ?');
const insertChannel = db.prepare('INSERT INTO kitchen_order_channels (order_id, channel) VALUES (?, ?)');
const insertEvent = db.prepare('INSERT INTO events (restaurant_id, world, type, created_at, data) VALUES (?, ?, ?, ?, ?)');

const writeOne = db.transaction(() => {
  const now = Date.now();
  const { n } = takeNumber.get(config.restaurantId) as { n: number };
  for (const take of config.takes) takeStock.run(take.quantity, config.locationId, take.productId, take.quantity);
  insertEvent.run(config.restaurantId, 'both', 'stock.updated', now, config.stockEvent);
  const id = randomUUID();
  insertOrder.run({ ...config.order, id, number: String(n), created_at: now, updated_at: now });
  insertChannel.run(id, config.channel);
  insertEvent.run(config.restaurantId, 'live', 'order.created', now, config.orderEvent);
});

const latencies: number[] = [];
const cpuBefore = process.cpuUsage();
const started = performance.now();
const deadline = started + config.seconds * 1000;
let now = started;
while (now < deadline) {
  writeOne.immediate();
  const after = performance.now();
  latencies.push(after - now);
  now = after;
}
const cpu = process.cpuUsage(cpuBefore);
db.close();
latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!;
tell({ type: 'ready', ordersPerSecond: latencies.length / ((now - started) / 1000), p50: at(50), p99: at(99), orders: latencies.length, cpuMicrosPerOrder: (cpu.user + cpu.system) / Math.max(1, latencies.length) });
process.disconnect?.();
