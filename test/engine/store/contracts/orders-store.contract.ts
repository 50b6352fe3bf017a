// OrdersStore's contract, on both databases (runners: ../stores-on-sqlite.test.ts and
// ../stores-on-postgres.e2e.test.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { OrderRow } from '../../../../src/engine/store/orders-store.ts';
import { L1, L2, R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';

const AT = Date.parse('2026-11-21T23:00:00Z');

export function orderRow(id: string, changes: Partial<OrderRow> = {}): OrderRow {
  return {
    id, restaurant_id: R1, test: 0, number: id, status: 'recibido', type: 'retiro', location_id: L1,
    customer_name: 'Ana', customer_phone: null, customer_email: null, address: null, notes: null,
    items: '[{"name":"Completo"}]', subtotal: 2500, shipping_fee: 0, discount: 0, total: 2500, payment_kind: 'external',
    payment_method: null, paid: 0, refunded: 0, delivery_provider: null, delivery_status: null, delivery_tracking_url: null,
    scheduled_for: null, stock_taken: 1, managed_by: null, created_at: AT, updated_at: AT, ...changes,
  };
}

export function ordersStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
  });
  after(() => db.stop());

  test('an inserted order reads back as the same row: numbers as numbers, nulls as nulls, in its world only', async () => {
    const row = orderRow('o-read', { scheduled_for: AT + 3_600_000, customer_phone: '+56 9 1234 5678', paid: 2500 });
    await db.stores.orders.insert(row);
    assert.deepEqual(await db.stores.orders.get(R1, 'live', 'o-read'), { ...row, local_number: null });
    assert.deepEqual(await db.stores.orders.getById('o-read'), { ...row, local_number: null });
    assert.equal(await db.stores.orders.get(R1, 'test', 'o-read'), undefined);
    assert.equal(await db.stores.orders.get(R2, 'live', 'o-read'), undefined);
    assert.equal(await db.stores.orders.getById('none'), undefined);
  });

  test('an order renamed on a replica still answers to its local id (its alias)', async () => {
    await db.stores.orders.insert(orderRow('o-upstream'));
    await db.exec("INSERT INTO order_id_aliases (local_id, upstream_id) VALUES ('o-local', 'o-upstream')");
    assert.equal((await db.stores.orders.get(R1, 'live', 'o-local'))?.id, 'o-upstream');
  });

  test('the list is newest first, ties by id byte by byte (upper case before lower), paged by keyset', async () => {
    const t = AT + 86_400_000;
    for (const [id, createdAt] of [['L-a', t], ['L-B', t], ['L-c', t - 1], ['L-Z', t + 1], ['L-b', t]] as const) {
      await db.stores.orders.insert(orderRow(id, { restaurant_id: R2, location_id: null, created_at: createdAt }));
    }
    const filter = { restaurantId: R2, world: 'live' as const, limit: 10 };
    const all = (await db.stores.orders.list(filter)).map((r) => r.id);
    assert.deepEqual(all, ['L-Z', 'L-b', 'L-a', 'L-B', 'L-c']);
    const keys = await db.stores.orders.listKeys(filter);
    assert.deepEqual(keys, all.map((id) => ({ id, created_at: id === 'L-Z' ? t + 1 : id === 'L-c' ? t - 1 : t })));
    const firstPage = await db.stores.orders.list({ ...filter, limit: 2 });
    const last = firstPage.at(-1)!;
    const secondPage = await db.stores.orders.list({ ...filter, limit: 2, before: { createdAt: last.created_at, id: last.id } });
    assert.deepEqual(secondPage.map((r) => r.id), ['L-a', 'L-B']);
    assert.deepEqual((await db.stores.orders.list({ ...filter, from: t, to: t + 1 })).map((r) => r.id), ['L-b', 'L-a', 'L-B']);
  });

  test('the list filters by status and location', async () => {
    await db.stores.orders.insert(orderRow('f-1', { status: 'listo', location_id: L2, created_at: AT + 5 }));
    await db.stores.orders.insert(orderRow('f-2', { status: 'listo', location_id: L1, created_at: AT + 6 }));
    const ids = async (extra: object) => (await db.stores.orders.list({ restaurantId: R1, world: 'live', limit: 10, ...extra })).map((r) => r.id);
    assert.deepEqual(await ids({ status: 'listo' }), ['f-2', 'f-1']);
    assert.deepEqual(await ids({ status: 'listo', locationId: L2 }), ['f-1']);
    assert.deepEqual(await ids({ world: 'test' }), []);
  });

  test('update changes the named columns and the update time; the write listeners hear each write', async () => {
    const heard: (string | null)[] = [];
    const stop = await db.stores.orders.onWrite((id) => heard.push(id));
    await db.stores.orders.insert(orderRow('o-upd'));
    await db.stores.orders.update('o-upd', { status: 'en_preparacion', paid: 2500, payment_method: 'efectivo' }, AT + 60_000);
    const row = await db.stores.orders.getById('o-upd');
    assert.equal(row?.status, 'en_preparacion');
    assert.equal(row?.paid, 2500);
    assert.equal(row?.payment_method, 'efectivo');
    assert.equal(row?.updated_at, AT + 60_000);
    assert.equal(row?.total, 2500);
    stop();
    await db.stores.orders.update('o-upd', { status: 'listo' }, AT + 120_000);
    assert.deepEqual(heard, ['o-upd', 'o-upd']);
  });

  test('upsert inserts a new order and overwrites a known one as reported, keeping its id, restaurant and world', async () => {
    await db.stores.orders.upsert(orderRow('o-up', { status: 'recibido' }));
    await db.stores.orders.upsert(orderRow('o-up', { status: 'listo', total: 3000, updated_at: AT + 1 }));
    const row = await db.stores.orders.getById('o-up');
    assert.equal(row?.status, 'listo');
    assert.equal(row?.total, 3000);
    assert.equal(row?.updated_at, AT + 1);
  });

  test('managedIds lists the orders a POS manages, oldest first', async () => {
    await db.stores.orders.insert(orderRow('m-2', { managed_by: 'pos', created_at: AT + 2 }));
    await db.stores.orders.insert(orderRow('m-1', { managed_by: 'pos', created_at: AT + 1 }));
    assert.deepEqual(await db.stores.orders.managedIds(R1), ['m-1', 'm-2']);
  });

  test('rename gives an order its upstream id and number, with every row pointing to it; the local number is kept', async () => {
    await db.stores.orders.insert(orderRow('local-1', { number: 'L7' }));
    await db.exec(`INSERT INTO kitchen_order_channels (order_id, channel) VALUES ('local-1', 'mesón');
      INSERT INTO payment_sessions (id, order_id, provider, status, return_url, created_at, updated_at)
        VALUES ('ps-1', 'local-1', 'sandbox', 'open', 'https://x.test', ${AT}, ${AT});`);
    await db.transaction(async (tx) => tx.orders.rename('local-1', 'up-1', '42'));
    assert.equal(await db.stores.orders.getById('local-1'), undefined);
    const renamed = await db.stores.orders.getById('up-1');
    assert.equal(renamed?.number, '42');
    assert.equal(renamed?.local_number, 'L7');
    assert.deepEqual(await db.rows("SELECT order_id FROM kitchen_order_channels WHERE channel = 'mesón'"), [{ order_id: 'up-1' }]);
    assert.deepEqual(await db.rows("SELECT order_id FROM payment_sessions WHERE id = 'ps-1'"), [{ order_id: 'up-1' }]);
  });

  test('delete removes an order and every row pointing to it', async () => {
    await db.stores.orders.insert(orderRow('gone'));
    await db.exec(`INSERT INTO kitchen_order_channels (order_id, channel) VALUES ('gone', 'barra');
      INSERT INTO payment_sessions (id, order_id, provider, status, return_url, created_at, updated_at)
        VALUES ('ps-gone', 'gone', 'sandbox', 'open', 'https://x.test', ${AT}, ${AT});`);
    await db.transaction(async (tx) => tx.orders.delete('gone'));
    assert.equal(await db.stores.orders.getById('gone'), undefined);
    assert.deepEqual(await db.rows("SELECT order_id FROM kitchen_order_channels WHERE order_id = 'gone'"), []);
    assert.deepEqual(await db.rows("SELECT id FROM payment_sessions WHERE id = 'ps-gone'"), []);
  });

  test('two orders of one restaurant and world cannot share a number', async () => {
    await db.stores.orders.insert(orderRow('n-1', { number: '900' }));
    await assert.rejects(Promise.resolve().then(() => db.stores.orders.insert(orderRow('n-2', { number: '900' }))));
  });
}
