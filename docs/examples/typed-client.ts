import createClient from 'openapi-fetch';
import type { paths } from './comanda-api.ts';

/** Orders two empanadas for pickup at the first demo location and moves the order to `entregado`. */
export async function orderAndDeliver(baseUrl: string, apiKey: string): Promise<string> {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
  const created = await api.POST('/orders', {
    params: { header: { 'idempotency-key': crypto.randomUUID() } },
    body: {
      location_id: '11000000-0000-4000-8000-000000000001',
      type: 'retiro',
      customer: { name: 'Camila Rojas' },
      items: [{ product_id: '13000000-0000-4000-8000-000000000002', quantity: 2 }],
    },
  });
  if (created.error) throw new Error(`${created.error.error.code}: ${created.error.error.message}`);
  for (const status of ['en_preparacion', 'listo', 'entregado'] as const) {
    const moved = await api.PATCH('/orders/{order_id}', { params: { path: { order_id: created.data.id } }, body: { status } });
    if (moved.error) throw new Error(`${moved.error.error.code}: ${moved.error.error.message}`);
  }
  return created.data.id;
}

/** Orders a pickup paid online and answers where to send the customer: `payment_link` needs no `!`. */
export async function orderOnline(baseUrl: string, apiKey: string, returnUrl: string): Promise<string> {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
  const created = await api.POST('/orders', {
    body: {
      location_id: '11000000-0000-4000-8000-000000000001',
      type: 'retiro',
      customer: { name: 'Camila Rojas', email: 'camila@example.com' },
      items: [{ product_id: '13000000-0000-4000-8000-000000000002', quantity: 2 }],
      payment: 'online',
      return_url: returnUrl,
    },
  });
  if (created.error) throw new Error(`${created.error.error.code}: ${created.error.error.message}`);
  if (created.data.status !== 'pendiente_pago') throw new Error(`an online order is created pendiente_pago, not ${created.data.status}`);
  return created.data.payment_link.payment_url;
}
