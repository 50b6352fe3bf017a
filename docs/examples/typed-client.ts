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
