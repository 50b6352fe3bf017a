// The order write the figures are about, on the storage port as a service will do it: the
// Idempotency-Key claimed first, the stock taken conditionally, the number from the clock row, the
// order, its event and the key's answer, all in one transaction of the restaurant.
import type { StoragePort } from '../../../../src/engine/storage/storage-port.ts';
import type { OrderRow } from '../../../../src/engine/store/orders-store.ts';
import { API_KEY, LOCATION, PRODUCT, RESTAURANT } from './storage-under-test.ts';

export interface Answer {
  status: number;
  body: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function placeOrder(
  storage: StoragePort,
  order: { id: string; idempotencyKey: string; at: number; requestHash?: string },
): Promise<Answer> {
  return storage.write(RESTAURANT, async (tx) => {
    const claim = await tx.claimIdempotencyKey({
      apiKeyId: API_KEY,
      key: order.idempotencyKey,
      requestHash: order.requestHash ?? 'hash-of-the-body',
      at: order.at,
      notOlderThan: order.at - DAY_MS,
    });
    if (claim.kind === 'answered') return { status: claim.stored.status, body: claim.stored.body };
    if (!(await tx.tryTakeStock(LOCATION, PRODUCT, 1))) {
      const body = JSON.stringify({ error: { code: 'out_of_stock' } });
      await tx.recordAnswer(claim, 409, body);
      return { status: 409, body };
    }
    const number = await tx.takeOrderNumber(false);
    await tx.insertOrder(orderRow(order.id, number, order.at));
    await tx.appendEvent('live', 'order.created', order.at, { id: order.id, number });
    const body = JSON.stringify({ id: order.id, number });
    await tx.recordAnswer(claim, 201, body);
    return { status: 201, body };
  });
}

function orderRow(id: string, number: string, at: number): OrderRow {
  return {
    id, restaurant_id: RESTAURANT, test: 0, number, status: 'recibido', type: 'retiro', location_id: LOCATION,
    customer_name: 'Ana', customer_phone: null, customer_email: null, address: null, notes: null,
    items: JSON.stringify([{ product_id: PRODUCT, quantity: 1 }]), subtotal: 2500, shipping_fee: 0, discount: 0, total: 2500,
    payment_kind: 'external', payment_method: null, paid: 0, refunded: 0, delivery_provider: null, delivery_status: null,
    delivery_tracking_url: null, scheduled_for: null, stock_taken: 1, managed_by: null, created_at: at, updated_at: at,
  };
}
