// The contracts of the small stores, on both databases: KitchenChangesStore,
// PaymentCredentialsStore, PickupScreenSettingsStore, DueOrdersStore, LocationBusyStore, PrintersStore (each a describe of its own).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { PrinterRow } from '../../../../src/engine/store/printers-store.ts';
import { L1, L2, R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { orderRow } from './orders-store.contract.ts';

function withBackend(open: OpenBackend, seed: string | ((db: StoreBackend) => string)): () => StoreBackend {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(typeof seed === 'string' ? seed : seed(db));
  });
  after(() => db.stop());
  return () => db;
}

export function kitchenChangesStoreContract(open: OpenBackend): void {
  const db = withBackend(open, RESTAURANTS_SEED);

  test('a change key is found for its restaurant; the same key twice is refused; purged by age with a count', async () => {
    const { kitchenChanges } = db().stores;
    await kitchenChanges.save(R1, 'ch-1', 'hash-1', 100);
    await kitchenChanges.save(R2, 'ch-1', 'hash-2', 300);
    assert.deepEqual(await kitchenChanges.get(R1, 'ch-1'), { request_hash: 'hash-1' });
    assert.equal(await kitchenChanges.get(R1, 'ch-2'), undefined);
    await assert.rejects(Promise.resolve().then(() => kitchenChanges.save(R1, 'ch-1', 'hash-3', 200)));
    assert.equal(await kitchenChanges.deleteOlderThan(100), 1);
    assert.equal(await kitchenChanges.get(R1, 'ch-1'), undefined);
    assert.deepEqual(await kitchenChanges.get(R2, 'ch-1'), { request_hash: 'hash-2' });
  });
}

export function paymentCredentialsStoreContract(open: OpenBackend): void {
  const db = withBackend(open, RESTAURANTS_SEED);

  test('credentials are set, replaced (keeping their creation time) and removed once', async () => {
    const { paymentCredentials } = db().stores;
    const row = {
      restaurant_id: R1, provider: 'mercadopago', access_token: 'APP_USR-1', webhook_secret: 'whsec-1',
      api_base: 'https://api.mercadopago.com', created_at: 100, updated_at: 100,
    };
    await paymentCredentials.set(row);
    assert.deepEqual(await paymentCredentials.get(R1, 'mercadopago'), row);
    await paymentCredentials.set({ ...row, access_token: 'APP_USR-2', created_at: 999, updated_at: 200 });
    assert.deepEqual(await paymentCredentials.get(R1, 'mercadopago'), { ...row, access_token: 'APP_USR-2', updated_at: 200 });
    assert.equal(await paymentCredentials.get(R2, 'mercadopago'), undefined);
    assert.equal(await paymentCredentials.remove(R1, 'mercadopago'), true);
    assert.equal(await paymentCredentials.remove(R1, 'mercadopago'), false);
  });
}

export function pickupScreenSettingsStoreContract(open: OpenBackend): void {
  const db = withBackend(open, RESTAURANTS_SEED);

  test('no row before the first put; a put replaces the settings', async () => {
    const { pickupScreenSettings } = db().stores;
    assert.equal(await pickupScreenSettings.get(R1), undefined);
    const row = { restaurant_id: R1, show_first_name: 1 as const, order_types: 'pickup' as const, language: 'es' as const, updated_at: 10 };
    await pickupScreenSettings.put(row);
    assert.deepEqual(await pickupScreenSettings.get(R1), row);
    await pickupScreenSettings.put({ ...row, show_first_name: 0, order_types: 'pickup_and_delivery', language: 'en', updated_at: 20 });
    assert.deepEqual(await pickupScreenSettings.get(R1), {
      restaurant_id: R1, show_first_name: 0, order_types: 'pickup_and_delivery', language: 'en', updated_at: 20,
    });
  });
}

export function dueOrdersStoreContract(open: OpenBackend): void {
  const db = withBackend(open, RESTAURANTS_SEED);

  test('unpaid orders created by a time and scheduled ones due by a time, oldest first, ties by id byte by byte', async () => {
    const { orders, dueOrders } = db().stores;
    await orders.insert(orderRow('u-b', { status: 'pendiente_pago', payment_kind: 'online', created_at: 100 }));
    await orders.insert(orderRow('u-B', { status: 'pendiente_pago', payment_kind: 'online', created_at: 100 }));
    await orders.insert(orderRow('u-a', { status: 'pendiente_pago', payment_kind: 'online', created_at: 50 }));
    await orders.insert(orderRow('u-late', { status: 'pendiente_pago', payment_kind: 'online', created_at: 200 }));
    await orders.insert(orderRow('u-paid', { status: 'recibido', created_at: 10 }));
    assert.deepEqual(await dueOrders.awaitingPaymentCreatedBy(R1, 100, 10), ['u-a', 'u-B', 'u-b']);
    assert.deepEqual(await dueOrders.awaitingPaymentCreatedBy(R1, 100, 2), ['u-a', 'u-B']);
    assert.deepEqual(await dueOrders.awaitingPaymentCreatedBy(R2, 1_000, 10), []);
    await orders.insert(orderRow('s-1', { status: 'programado', scheduled_for: 500 }));
    await orders.insert(orderRow('s-2', { status: 'programado', scheduled_for: 400 }));
    await orders.insert(orderRow('s-3', { status: 'programado', scheduled_for: 900 }));
    await orders.insert(orderRow('s-4', { status: 'programado', scheduled_for: 100, location_id: L2 }));
    assert.deepEqual(await dueOrders.scheduledBy(L1, 500, 10), ['s-2', 's-1']);
  });
}

export function locationBusyStoreContract(open: OpenBackend): void {
  const db = withBackend(open, (backend) => `${RESTAURANTS_SEED}
    INSERT INTO api_keys (id, restaurant_id, lookup, salt, hash, world, can_write, last4, created_at)
      VALUES ('k-front', '${R1}', 'lookup-front', ${backend.bytes('00')}, ${backend.bytes('00')}, 'live', 1, 'abcd', 0);`);

  test('a location\'s busy state: none at first, then as put, then replaced', async () => {
    const { locationBusy } = db().stores;
    assert.equal(await locationBusy.state(L1), undefined);
    const row = { location_id: L1, paused: 1, changed_at: 100, above_since: 90, wait_minutes: 35, recent_pauses: '[100]', override: null };
    await locationBusy.setState(row);
    assert.deepEqual(await locationBusy.state(L1), row);
    await locationBusy.setState({ ...row, paused: 0, above_since: null, override: 'resume' });
    assert.deepEqual(await locationBusy.state(L1), { ...row, paused: 0, above_since: null, override: 'resume' });
  });

  test('a key\'s channel kind: none at first, then as set, then replaced', async () => {
    const { locationBusy } = db().stores;
    assert.equal(await locationBusy.keyKind('k-front'), null);
    await locationBusy.setKeyKind('k-front', 'pos');
    await locationBusy.setKeyKind('k-front', 'store_front');
    assert.equal(await locationBusy.keyKind('k-front'), 'store_front');
  });
}

export function printersStoreContract(open: OpenBackend): void {
  const db = withBackend(open, RESTAURANTS_SEED);
  const printer = (id: string, name: string, createdAt: number): PrinterRow => ({
    id, restaurant_id: R1, name, host: '192.168.1.50', port: 9100, width_mm: 80, code_page: 'cp858', stations: '[]',
    print_when: '["arrival"]', fallback_seconds: 90, state: 'unknown', state_detail: null, state_at: null,
    created_at: createdAt, updated_at: createdAt, removed_at: null,
  });

  test('printers in use by creation, ties by name byte by byte; found by id and name; a removed one is kept but not listed', async () => {
    const { printers } = db().stores;
    await printers.insert(printer('pr-1', 'cocina', 100));
    await printers.insert(printer('pr-2', 'Barra', 100));
    await printers.insert(printer('pr-3', 'Bolsas', 50));
    assert.deepEqual(await printers.get('pr-1'), printer('pr-1', 'cocina', 100));
    assert.deepEqual((await printers.list(R1)).map((p) => p.id), ['pr-3', 'pr-2', 'pr-1']);
    assert.equal((await printers.findByName(R1, 'Barra'))?.id, 'pr-2');
    await printers.setState('pr-2', 'paper_out', 'sin papel', 200);
    const barra = await printers.get('pr-2');
    assert.deepEqual([barra?.state, barra?.state_detail, barra?.state_at], ['paper_out', 'sin papel', 200]);
    await printers.remove('pr-2', 300);
    assert.deepEqual((await printers.list(R1)).map((p) => p.id), ['pr-3', 'pr-1']);
    assert.equal(await printers.findByName(R1, 'Barra'), undefined);
    assert.deepEqual([(await printers.get('pr-2'))?.removed_at, (await printers.get('pr-2'))?.updated_at], [300, 300]);
    assert.equal((await printers.list(R2)).length, 0);
  });
}
