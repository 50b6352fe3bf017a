// What the generated types refuse, checked by `npm run typecheck`: each line marked as expecting an
// error must fail to type-check, or tsc reports the mark as unused.
import createClient from 'openapi-fetch';
import type { paths } from './comanda-api.ts';

export async function refusedByTheTypes(api: ReturnType<typeof createClient<paths>>): Promise<void> {
  const order = { location_id: '11000000-0000-4000-8000-000000000001', customer: { name: 'Ana' }, items: [] };
  // @ts-expect-error a delivery order needs an address
  await api.POST('/orders', { body: { ...order, type: 'delivery' } });
  await api.POST('/orders', { body: { ...order, type: 'delivery', address: 'Av. Irarrázaval 2800' } });
  // @ts-expect-error GET /stock needs location_id
  await api.GET('/stock', { params: { query: {} } });
  // @ts-expect-error PATCH takes one of the five targets only
  await api.PATCH('/orders/{order_id}', { params: { path: { order_id: 'x' } }, body: { status: 'recibido' } });
}
