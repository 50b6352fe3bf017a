import { mapInOrder } from '../../src/shared/in-order.ts';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../src/engine/clock.ts';
import { seedDemo } from '../../src/engine/demo/seed-demo.ts';
import { Engine } from '../../src/engine/engine.ts';
import { sandboxSimulator } from '../../src/engine/payments/sandbox-simulator.ts';
import { createOrder } from '../../src/engine/services/orders/create-order.ts';
import { toOrderView } from '../../src/engine/services/orders/order-view.ts';
import type { OrderRow } from '../../src/engine/store/orders-store.ts';
import type { OrderStatus } from '../../src/shared/order-states.ts';
import type { CreateOrderInput } from '../../src/shared/schemas/orders.ts';
import { R1 } from '../../test/support/demo-ids.ts';

export interface PreparedDatabase {
  path: string;
  restaurantId: string;
  keys: { live_write: string; live_read: string };
  /** Ids spread over the whole history, for GET /orders/{id}. */
  sampleOrderIds: string[];
  orders: number;
}

const DAY = 24 * 60 * 60 * 1000;
const NAMES = ['Camila Rojas', 'Matías González', 'Valentina Muñoz', 'Benjamín Soto', 'Isidora Díaz', 'Tomás Pérez', 'Antonia Silva', 'Joaquín Morales'];

/** Tracked products at the open location get a stock that thousands of orders cannot use up. */
const BENCH_STOCK = 1_000_000_000;

/** The orders the demo's first restaurant typically gets, as a store front would send them. */
const TEMPLATES: Omit<CreateOrderInput, 'location_id'>[] = [
  {
    type: 'retiro',
    customer: { name: 'Plantilla 1', phone: '+56 9 1234 5678' },
    items: [
      { product_id: R1.products.empanadaQueso, quantity: 3 },
      { product_id: R1.products.bebidaLata, quantity: 2 },
    ],
  },
  {
    type: 'retiro',
    customer: { name: 'Plantilla 2', email: 'cliente@example.com' },
    notes: 'Sin mayo, por favor',
    items: [
      { product_id: R1.products.completo, quantity: 2, modifier_option_ids: [R1.options.paltaExtra, R1.options.tomateExtra] },
      { product_id: R1.products.empanadaPino, quantity: 1 },
      { product_id: R1.products.bebidaLata, quantity: 2 },
    ],
  },
  {
    type: 'delivery',
    customer: { name: 'Plantilla 3', phone: '+56 9 8765 4321', email: 'otra@example.com' },
    address: 'Av. Irarrázaval 3456, depto 1203, Ñuñoa',
    shipping_fee: 1990,
    items: [
      { product_id: R1.products.churrasco, quantity: 1, modifier_option_ids: [R1.options.marraqueta], notes: 'Bien cocido' },
      { product_id: R1.products.pastelDeChoclo, quantity: 1 },
      { product_id: R1.products.cazuela, quantity: 1 },
    ],
  },
  {
    type: 'retiro',
    customer: { name: 'Plantilla 4' },
    items: [{ product_id: R1.products.barrosLuco, quantity: 1 }],
  },
];

/**
 * A database as the engine makes it (migrations, the demo seeded, API keys), then `orders` past
 * orders of the first demo restaurant written directly with better-sqlite3 in big transactions:
 * rows cloned from orders the engine itself created (so items JSON and every column are real),
 * each with its `order.created` event and the event of its last state. Tracked stock at the open
 * location is made plentiful for the POST benchmark.
 */
export async function prepareDatabase(dir: string, orders: number): Promise<PreparedDatabase> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'bench.db');
  const now = Date.now();
  const start = now - 90 * DAY;
  const engine = new Engine({ database: path, clock: new ManualClock(start) });
  try {
    const demo = await seedDemo(engine, { live: null, test: sandboxSimulator });
    const restaurant = demo[0]!;
    const restaurantId = restaurant.id;
    for (const product of [R1.products.empanadaPino, R1.products.empanadaQueso, R1.products.pastelDeChoclo]) {
      await engine.stores.stock.set(R1.openLocation, product, BENCH_STOCK);
    }
    const actor = { restaurantId, world: 'live' as const, canWrite: true, keyId: 'bench' };
    const payments = { live: null, test: sandboxSimulator };
    const templates: OrderRow[] = (await mapInOrder(TEMPLATES, async (input) => {
      const view = await createOrder(engine, actor, { ...input, location_id: R1.openLocation }, { payments, origin: 'http://127.0.0.1' });
      return (await engine.stores.orders.getById(view.id))!;
    }));
    const zone = (await engine.stores.restaurants.get(restaurantId))!.time_zone;
    const columns = Object.keys(templates[0]!) as (keyof OrderRow)[];
    const insertOrder = engine.db.prepare(`INSERT INTO orders (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
    const insertEvent = engine.db.prepare('INSERT INTO events (restaurant_id, world, type, created_at, data) VALUES (?, ?, ?, ?, ?)');
    let number = (await engine.stores.restaurants.get(restaurantId))!.next_order_number;
    const sampleOrderIds: string[] = [];
    const sampleEvery = Math.max(1, Math.floor(orders / 1000));
    const span = now - 60 * 60 * 1000 - (start + 60 * 60 * 1000);
    const batch = engine.db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const template = templates[i % templates.length]!;
        const createdAt = start + 60 * 60 * 1000 + Math.floor((span * i) / orders);
        const status: OrderStatus = i % 13 === 0 ? 'cancelado' : 'entregado';
        const row: OrderRow = {
          ...template,
          id: randomUUID(),
          number: String(number++),
          customer_name: NAMES[i % NAMES.length]!,
          status: 'recibido',
          delivery_status: null,
          created_at: createdAt,
          updated_at: createdAt,
        };
        insertEvent.run(restaurantId, 'live', 'order.created', createdAt, JSON.stringify(toOrderView(row, zone)));
        const finishedAt = createdAt + 25 * 60 * 1000;
        Object.assign(row, {
          status,
          updated_at: finishedAt,
          stock_taken: status === 'cancelado' ? 0 : row.stock_taken,
          delivery_status: row.delivery_provider === null ? null : status === 'cancelado' ? 'cancelado' : 'entregado',
        });
        insertOrder.run(row);
        insertEvent.run(restaurantId, 'live', 'order.updated', finishedAt, JSON.stringify(toOrderView(row, zone)));
        if (i % sampleEvery === 0) sampleOrderIds.push(row.id);
      }
    });
    const BATCH = 10_000;
    for (let from = 0; from < orders; from += BATCH) batch(from, Math.min(orders, from + BATCH));
    engine.db.prepare('UPDATE restaurants SET next_order_number = ? WHERE id = ?').run(number, restaurantId);
    engine.db.pragma('wal_checkpoint(TRUNCATE)');
    const prepared: PreparedDatabase = {
      path,
      restaurantId,
      keys: { live_write: restaurant.keys.live_write, live_read: restaurant.keys.live_read },
      sampleOrderIds,
      orders: orders + templates.length + restaurant.managed_order_ids.length,
    };
    writeFileSync(join(dir, 'bench.json'), JSON.stringify(prepared, null, 2));
    return prepared;
  } finally {
    engine.close();
  }
}
