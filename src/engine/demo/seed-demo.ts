import { mapInOrder } from '../../shared/in-order.ts';
import demoRestaurant1 from '../../../resources/demo/restaurant-1.json' with { type: 'json' };
import demoRestaurant2 from '../../../resources/demo/restaurant-2.json' with { type: 'json' };
import type { Engine } from '../engine.ts';
import type { PaymentProviders } from '../payments/payment-provider.ts';
import { importRestaurant } from '../services/restaurants/import-restaurant.ts';
import { createApiKey } from '../services/keys/api-keys.ts';
import { createOrder } from '../services/orders/create-order.ts';
import { managedOrderIds } from '../services/orders/read-orders.ts';
import { listRestaurants } from '../services/keys/restaurant-context.ts';
import { simpleOrderTarget } from '../services/orders/simple-order-target.ts';
import type { World } from '../../shared/world.ts';

const DEMO_RESTAURANT_FILES: readonly unknown[] = [demoRestaurant1, demoRestaurant2];

/** The POS integration that owns the demo's managed order. */
const DEMO_POS_NAME = 'pos-demo';

export interface DemoRestaurant {
  id: string;
  name: string;
  keys: { live_write: string; live_read: string; test_write: string; test_read: string };
  managed_order_ids: string[];
}

/**
 * Imports the two demo restaurants when the database has no restaurant yet, with a POS-managed
 * production order in the first (for an integrator trying the API: `serve --demo` prints its id).
 * The hub's first start leaves it out (`managedOrder: false`): a ticket no cook can bump, turning
 * red after 20 minutes, was all a new user's board showed. Returns the restaurants' ids and their
 * managed orders.
 */
export async function importDemoRestaurants(
  engine: Engine,
  payments: PaymentProviders,
  options: { managedOrder?: boolean } = {},
): Promise<{ id: string; managed_order_ids: string[] }[]> {
  const fresh = (await listRestaurants(engine)).length === 0;
  if (fresh) {
    await engine.transaction(async (tx) => {
      for (const file of DEMO_RESTAURANT_FILES) await importRestaurant(engine, file, tx);
    });
  }
  const demoIds = DEMO_RESTAURANT_FILES.map((file) => (file as { id: string }).id);
  return (await mapInOrder((await listRestaurants(engine))
    .filter((r) => demoIds.includes(r.id)), async (restaurant, index) => ({
      id: restaurant.id,
      managed_order_ids: index === 0 ? await managedOrders(engine, restaurant.id, fresh && options.managedOrder !== false, payments) : [],
    })));
}

/**
 * Seeds the demo (see importDemoRestaurants) and issues a fresh set of demo keys: keys are stored
 * hashed, so the only way to hand working keys to whoever started the demo is to make new ones.
 */
export async function seedDemo(engine: Engine, payments: PaymentProviders): Promise<DemoRestaurant[]> {
  const names = new Map((await listRestaurants(engine)).map((restaurant) => [restaurant.id, restaurant.name]));
  return await mapInOrder(await importDemoRestaurants(engine, payments), async ({ id, managed_order_ids }) => {
    const issue = async (world: World, write: boolean) =>
      (await createApiKey(engine, { restaurantId: id, world, write, label: `demo ${world} ${write ? 'write' : 'read'}` })).key;
    return {
      id,
      name: names.get(id)!,
      keys: {
        live_write: await issue('live', true),
        live_read: await issue('live', false),
        test_write: await issue('test', true),
        test_read: await issue('test', false),
      },
      managed_order_ids,
    };
  });
}

async function managedOrders(engine: Engine, restaurantId: string, create: boolean, payments: PaymentProviders): Promise<string[]> {
  if (!create) return await managedOrderIds(engine, restaurantId);
  const target = await simpleOrderTarget(engine, restaurantId);
  if (!target) throw new Error('demo restaurant 1 needs an open location and a simple untracked product');
  const order = await createOrder(
    engine,
    { restaurantId, world: 'live', canWrite: true, keyId: 'demo-seed' },
    {
      location_id: target.locationId,
      type: 'retiro',
      customer: { name: 'Cliente del POS', phone: '+56 9 5555 0000' },
      items: [{ product_id: target.productId, quantity: 2, notes: 'Ingresado en la caja' }],
    },
    { payments, origin: 'http://127.0.0.1', managedBy: DEMO_POS_NAME },
  );
  return [order.id];
}
