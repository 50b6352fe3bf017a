// Row 13's ceiling for the order write through the real Engine: a raw `pg` loop writing the rows the
// engine wrote for one of its orders (read back after a warm-up), every statement of the transaction
// sent at once on a pipelining connection (no await between them): the clock row, the
// Idempotency-Key's claim, the stock take, the order number, the order, its events (numbered by the
// clock row), its kitchen rows (channel, fire timing, open item, promise) and the key's answer.
import type pg from 'pg';
import type { SeededRestaurant } from './seed-restaurants.ts';

const CLAIMED = -1;
/** Rows of the order's kitchen, copied as they are with the order's and the restaurant's ids swapped. */
const KITCHEN_TABLES = ['kitchen_order_channels', 'kitchen_item_timings', 'kitchen_open_items', 'order_promises'] as const;
/** Columns the database fills (identity). */
const GENERATED = new Set(['kitchen_item_timings.seq']);

type Row = Record<string, unknown>;

interface Insert {
  sql: string;
  values: unknown[];
}

export interface EngineRowsTemplate {
  orderId: string;
  restaurantTag: string;
  order: Row;
  events: { world: string; type: string; data: string }[];
  kitchen: { table: string; row: Row }[];
  answerBody: string;
}

/** Every seeded restaurant's ids differ from the others' only in the `-4000-8rrr-` part. */
const tagOf = (id: string) => /-4000-8[0-9a-f]{3}-/.exec(id)?.[0] ?? '';

/** The rows the engine wrote for the order `orderId`, as the raw loop's template. */
export async function readEngineRows(pool: pg.Pool, orderId: string): Promise<EngineRowsTemplate> {
  const order = (await pool.query('SELECT * FROM orders WHERE id = $1', [orderId])).rows[0] as Row | undefined;
  if (!order) throw new Error(`order ${orderId} is not in the database`);
  const events = (
    await pool.query(
      `SELECT world, type, data FROM events WHERE restaurant_id = $1 AND created_at = $2 AND seq >= (
         SELECT max(seq) - 1 FROM events WHERE restaurant_id = $1 AND type = 'order.created' AND data LIKE $3) ORDER BY seq LIMIT 2`,
      [order.restaurant_id, order.created_at, `%${orderId}%`],
    )
  ).rows as EngineRowsTemplate['events'];
  if (!events.some((e) => e.type === 'order.created')) throw new Error(`no order.created event for ${orderId}`);
  const kitchen: EngineRowsTemplate['kitchen'] = [];
  for (const table of KITCHEN_TABLES) {
    for (const row of (await pool.query(`SELECT * FROM ${table} WHERE order_id = $1`, [orderId])).rows as Row[]) kitchen.push({ table, row });
  }
  const answer = (await pool.query("SELECT body FROM idempotency_keys WHERE status = 201 AND body LIKE $1 LIMIT 1", [`%${orderId}%`])).rows[0] as
    | { body: string }
    | undefined;
  if (!answer) throw new Error(`no kept answer for ${orderId} (send the engine's orders with an Idempotency-Key)`);
  return { orderId, restaurantTag: tagOf(order.restaurant_id as string), order, events, kitchen, answerBody: answer.body };
}

function swapped(value: unknown, template: EngineRowsTemplate, id: string, tag: string): unknown {
  return typeof value === 'string' ? value.replaceAll(template.orderId, id).replaceAll(template.restaurantTag, tag) : value;
}

function insertOf(table: string, row: Row, template: EngineRowsTemplate, id: string, tag: string): Insert {
  const columns = Object.keys(row).filter((c) => !GENERATED.has(`${table}.${c}`));
  return {
    sql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
    values: columns.map((c) => swapped(row[c], template, id, tag)),
  };
}

const SQL = {
  clock: `INSERT INTO restaurant_clocks (restaurant_id) VALUES ($1)
    ON CONFLICT (restaurant_id) DO UPDATE SET restaurant_id = excluded.restaurant_id RETURNING last_event_seq`,
  claim: `INSERT INTO idempotency_keys (api_key_id, key, request_hash, status, body, created_at) VALUES ($1, $2, 'h', ${CLAIMED}, '', $3)
    ON CONFLICT (api_key_id, key) DO NOTHING RETURNING 1`,
  stock: 'UPDATE stock SET quantity = quantity - $3 WHERE location_id = $1 AND product_id = $2 AND quantity >= $3',
  number: 'UPDATE restaurant_clocks SET next_order_number = next_order_number + 1 WHERE restaurant_id = $1 RETURNING next_order_number - 1 AS n',
  event: `WITH clock AS (UPDATE restaurant_clocks SET last_event_seq = last_event_seq + 1 WHERE restaurant_id = $1 RETURNING last_event_seq)
    INSERT INTO events (seq, restaurant_id, world, type, created_at, data) SELECT last_event_seq, $1, $2, $3, $4, $5 FROM clock`,
  answer: 'UPDATE idempotency_keys SET status = 201, body = $3 WHERE api_key_id = $1 AND key = $2',
};

/** One order's rows for `restaurant`, in one transaction, every statement sent at once. */
export async function rawEngineRowsWrite(
  pool: pg.Pool,
  template: EngineRowsTemplate,
  restaurant: SeededRestaurant & { apiKeyId: string },
  id: string,
): Promise<void> {
  const tag = tagOf(restaurant.id);
  const order: Row = { ...template.order, id };
  const statements: Insert[] = [
    { sql: SQL.clock, values: [restaurant.id] },
    { sql: SQL.claim, values: [restaurant.apiKeyId, id, order.created_at] },
    { sql: SQL.stock, values: [restaurant.locationId, restaurant.productId, 1] },
    { sql: SQL.number, values: [restaurant.id] },
    // The number is not read back: the raw loop never waits between statements.
    insertOf('orders', { ...order, number: id }, template, id, tag),
    ...template.events.map((e) => ({ sql: SQL.event, values: [restaurant.id, e.world, e.type, order.created_at, swapped(e.data, template, id, tag)] })),
    ...template.kitchen.map((k) => insertOf(k.table, k.row, template, id, tag)),
    { sql: SQL.answer, values: [restaurant.apiKeyId, id, swapped(template.answerBody, template, id, tag)] },
  ];
  const client = await pool.connect();
  try {
    await Promise.all([client.query('BEGIN'), ...statements.map((s) => client.query(s.sql, s.values)), client.query('COMMIT')]);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
