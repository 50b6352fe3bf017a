// Due jobs in each of the three outboxes the port claims (mail, payment actions, courier
// deliveries), plain SQL both databases take, and how to read back how each ended.
import type { JobQueue } from '../../../../src/engine/storage/job-queues.ts';
import { RESTAURANT, type StorageUnderTest } from './storage-under-test.ts';

/** Seeds `count` due jobs of `queue` under a prefix (their orders too); returns their ids as the port names them. */
export async function seedDueJobs(db: StorageUnderTest, queue: JobQueue, prefix: string, count: number, dueAt: number): Promise<string[]> {
  const orders = Array.from({ length: count }, (_, i) => `'${prefix}-o${i}'`);
  await db.exec(`INSERT INTO orders (id, restaurant_id, test, number, status, type, items, subtotal, shipping_fee, discount, total,
    payment_kind, created_at, updated_at) VALUES ${orders.map((id, i) => `(${id}, '${RESTAURANT}', 0, '${prefix}${i}', 'listo', 'delivery', '[]', 0, 0, 0, 0, 'external', 0, 0)`).join(', ')}`);
  switch (queue) {
    case 'mail':
      await db.exec(`INSERT INTO mail_outbox (restaurant_id, order_id, kind, test, to_address, from_name, subject, body_text, status,
        next_attempt_at, created_at, updated_at) VALUES ${orders.map((id, i) => `('${RESTAURANT}', ${id}, 'listo', 0, 'a@b.cl', 'Uno', 'Listo', 'Tu pedido', 'pending', ${dueAt - i}, 0, 0)`).join(', ')}`);
      break;
    case 'payment':
      await db.exec(`INSERT INTO payment_actions (restaurant_id, provider, kind, payment_id, status, next_at, created_at, updated_at)
        VALUES ${orders.map((_, i) => `('${RESTAURANT}', 'flow', 'check', '${prefix}-pay${i}', 'pending', ${dueAt - i}, 0, 0)`).join(', ')}`);
      break;
    case 'courier':
      await db.exec(`INSERT INTO courier_deliveries (order_id, provider, status, next_check_at, created_at, updated_at)
        VALUES ${orders.map((id, i) => `(${id}, 'uber', 'pendiente', ${dueAt - i}, 0, 0)`).join(', ')}`);
      break;
  }
  return (await jobStates(db, queue, prefix)).map((row) => String(row.id));
}

/** Each job of the prefix as its row stands: next time, attempts (where counted), status, error. */
export async function jobStates(db: StorageUnderTest, queue: JobQueue, prefix: string): Promise<Record<string, unknown>[]> {
  switch (queue) {
    case 'mail':
      return db.rows(`SELECT id, next_attempt_at AS next_at, attempts, status, sent_at, last_error FROM mail_outbox WHERE order_id LIKE '${prefix}-o%' ORDER BY id`);
    case 'payment':
      return db.rows(`SELECT id, next_at, attempts, status, last_error FROM payment_actions WHERE payment_id LIKE '${prefix}-pay%' ORDER BY id`);
    case 'courier':
      return db.rows(`SELECT order_id AS id, next_check_at AS next_at, attempts, status, last_error FROM courier_deliveries WHERE order_id LIKE '${prefix}-o%' ORDER BY order_id`);
  }
}
