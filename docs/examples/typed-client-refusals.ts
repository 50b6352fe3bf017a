// What the generated types refuse, checked by `npm run typecheck` and by the default-options test
// (test/engine/http/generated-client.test.ts): each line marked as expecting an error must fail to
// type-check, or tsc reports the mark as unused. Each mistake is alone in its call, so each one
// is checked on its own.
import createClient from 'openapi-fetch';
import type { paths } from './comanda-api.ts';

export async function refusedByTheTypes(api: ReturnType<typeof createClient<paths>>): Promise<void> {
  const order = { location_id: '11000000-0000-4000-8000-000000000001', customer: { name: 'Ana' }, items: [] };
  // @ts-expect-error a delivery order needs an address
  await api.POST('/orders', { body: { ...order, type: 'delivery' } });
  await api.POST('/orders', { body: { ...order, type: 'delivery', address: 'Av. Irarrázaval 2800' } });
  // @ts-expect-error a misspelt field (adress) is not a field of the request
  await api.POST('/orders', { body: { ...order, type: 'retiro', adress: 'Av. Irarrázaval 2800' } });
  // @ts-expect-error an online order needs its return_url
  await api.POST('/orders', { body: { ...order, type: 'retiro', payment: 'online' } });
  await api.POST('/orders', { body: { ...order, type: 'retiro', payment: 'online', return_url: 'https://tienda.example/vuelta' } });
  // @ts-expect-error payment_method only with payment: online
  await api.POST('/orders', { body: { ...order, type: 'retiro', payment_method: 'tarjeta' } });
  // @ts-expect-error payment_method only with payment: online, also when external is said
  await api.POST('/orders', { body: { ...order, type: 'retiro', payment: 'external', payment_method: 'tarjeta' } });
  await api.POST('/orders', { body: { ...order, type: 'retiro', payment: 'online', payment_method: 'tarjeta', return_url: 'https://tienda.example/vuelta' } });
  // @ts-expect-error payment is external or online
  await api.POST('/orders', { body: { ...order, type: 'retiro', payment: 'efectivo' } });
  const created = await api.POST('/orders', { body: { ...order, type: 'retiro' } });
  if (created.data) {
    // @ts-expect-error payment_link is there only once status says the order waits for its payment
    console.log(created.data.payment_link.payment_url);
    if (created.data.status === 'pendiente_pago') console.log(created.data.payment_link.payment_url);
  }
  // @ts-expect-error GET /stock needs location_id
  await api.GET('/stock', { params: { query: {} } });
  // @ts-expect-error PATCH takes one of the five targets only
  await api.PATCH('/orders/{order_id}', { params: { path: { order_id: 'x' } }, body: { status: 'recibido' } });
}
