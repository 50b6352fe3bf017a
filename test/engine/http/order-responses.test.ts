import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { GENEROUS_LIMITS, startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1 } from '../../support/demo-ids.ts';
import { handlersFor } from '../screen/support.ts';
import { buildHttpApi } from '../../../src/engine/http/build-http-api.ts';
import type { ApiServer } from '../../../src/engine/http/http-context.ts';
import { defaultCouriers } from '../../../src/engine/couriers/courier-registry.ts';
import { Engine } from '../../../src/engine/engine.ts';
import { transitionOrder } from '../../../src/engine/services/orders/transition-order.ts';
import { mirrorOrder } from '../../../src/engine/services/replica/mirror-upstream.ts';
import type { OrderView } from '../../../src/engine/services/orders/order-view.ts';

// The engine answers order reads from response bytes it keeps in memory (http/order-responses.ts).
// Beside it, on the same engine, a server that keeps nothing: after every kind of write, both
// must answer byte for byte the same.
describe('order reads from kept response bytes', () => {
  let t: EngineUnderTest;
  let uncached: ApiServer;
  let uncachedUrl: string;
  const orders: string[] = [];

  before(async () => {
    t = await startEngineUnderTest();
    const { engine, commands, providers } = t.server;
    uncached = await buildHttpApi({ engine, commands, providers, rateLimits: GENEROUS_LIMITS, keepOrderResponses: false });
    await uncached.listen({ host: '127.0.0.1', port: 0 });
    const address = uncached.server.address();
    uncachedUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
  });
  after(async () => {
    await uncached.close();
    await t.stop();
  });

  const keys = () => t.demo[0]!.keys;

  async function read(baseUrl: string, path: string, key: string): Promise<{ status: number; type: string | null; text: string }> {
    const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  }

  /** Every order and a few pages, twice from the caching server (the second from kept bytes), once from the other. */
  async function assertSameAnswers(step: string): Promise<void> {
    for (const key of [keys().live_read, keys().test_read]) {
      const paths = [
        ...orders.map((id) => `/orders/${id}`),
        '/orders?limit=20',
        '/orders?limit=2',
        '/orders?status=cancelado&limit=5',
        `/orders?location_id=${R1.openLocation}&limit=3`,
      ];
      const firstPage = await read(uncachedUrl, '/orders?limit=2', key);
      const cursor = (JSON.parse(firstPage.text) as { next_cursor: string | null }).next_cursor;
      if (cursor) paths.push(`/orders?limit=2&cursor=${cursor}`);
      for (const path of paths) {
        const expected = await read(uncachedUrl, path, key);
        for (const attempt of ['first', 'second']) {
          const actual = await read(t.baseUrl, path, key);
          assert.deepEqual(actual, expected, `${step}: ${path} (${attempt} read)`);
        }
      }
    }
  }

  const statusOf = async (id: string, key = keys().live_read): Promise<string> =>
    (JSON.parse((await read(uncachedUrl, `/orders/${id}`, key)).text) as OrderView).status;

  test('through the lifecycle, by every door that writes, cached and uncached answers are byte-identical', { timeout: 120_000 }, async () => {
    const create = async (body: Record<string, unknown>, key = keys().live_write) => {
      const res = await t.call('POST', '/orders', { key, body });
      assert.equal(res.status, 201, res.text);
      orders.push(res.body.id as string);
      return res.body as OrderView & { payment_link?: { payment_url: string } };
    };
    const pickup = { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Ñandú Pérez', phone: '+56 9 1234 5678' }, notes: 'sin cebolla "por favor" \u2028 ok' };
    const plain = await create({ ...pickup, items: [{ product_id: R1.products.completo, quantity: 2 }] });
    const second = await create({ ...pickup, items: [{ product_id: R1.products.cazuela, quantity: 1 }] });
    const scheduled = await create({ ...pickup, items: [{ product_id: R1.products.cazuela, quantity: 1 }], scheduled_for: '2026-11-21T21:00:00-03:00' });
    const onlineBody = { ...pickup, items: [{ product_id: R1.products.cazuela, quantity: 1 }], payment: 'online', payment_method: 'tarjeta', return_url: 'https://tienda.example/vuelta' };
    const paid = await create(onlineBody, keys().test_write);
    const unpaid = await create(onlineBody, keys().test_write);
    await assertSameAnswers('created');

    // HTTP PATCH
    assert.equal((await t.call('PATCH', `/orders/${plain.id}`, { body: { status: 'en_preparacion' } })).status, 200);
    await assertSameAnswers('PATCH');
    // the kitchen's door
    const kitchen = handlersFor(t);
    await kitchen.ok('orders:transition', { order_id: second.id, target: 'cancelado' });
    await kitchen.ok('orders:transition', { order_id: plain.id, target: 'listo' });
    await assertSameAnswers('kitchen');
    // the sandbox payment page (a public route, then a write)
    const pay = await fetch(paid.payment_link!.payment_url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ result: 'success', method: 'tarjeta' }).toString(),
    });
    assert.equal(pay.status, 303);
    assert.equal(await statusOf(paid.id, keys().test_read), 'recibido');
    await assertSameAnswers('payment');
    // the jobs runner: a scheduled order released, an unpaid one expired
    t.clock.advance(31 * 60_000);
    await t.server.jobs.runDue();
    assert.equal(await statusOf(scheduled.id), 'recibido');
    assert.equal(await statusOf(unpaid.id, keys().test_read), 'cancelado');
    await assertSameAnswers('jobs');
    // a replica's mirror of its upstream: the same updated_at, another delivery state
    const mirrored = JSON.parse((await read(uncachedUrl, `/orders/${plain.id}`, keys().live_read)).text) as OrderView;
    await t.server.engine.transaction(async (tx) =>
      await mirrorOrder(t.server.engine, R1.id, 'live', { ...mirrored, customer: { ...mirrored.customer, name: 'Renombrada' } }, 'order.updated', undefined, tx),
    );
    assert.equal((JSON.parse((await read(t.baseUrl, `/orders/${plain.id}`, keys().live_read)).text) as OrderView).customer.name, 'Renombrada');
    await assertSameAnswers('mirror');
    // another connection to the same file (the keys CLI, another process)
    const other = new Engine({ database: t.dbPath, clock: t.clock });
    try {
      await transitionOrder(other, { restaurantId: R1.id, world: 'live', canWrite: true, keyId: 'other-process' }, plain.id, 'entregado', defaultCouriers());
    } finally {
      await other.close();
    }
    assert.equal((JSON.parse((await read(t.baseUrl, `/orders/${plain.id}`, keys().live_read)).text) as OrderView).status, 'entregado');
    await assertSameAnswers('other connection');
  });

  test('answers do come from kept bytes: a change made behind the store on this connection is not seen until a write', async () => {
    const id = orders[0]!;
    const before = await read(t.baseUrl, `/orders/${id}`, keys().live_read);
    const db = t.server.engine.db;
    const original = (db.prepare('SELECT notes FROM orders WHERE id = ?').get(id) as { notes: string | null }).notes;
    // Not how the engine writes (every write goes through OrdersStore, which drops kept bytes):
    // only to show the caching server answers from memory, so the comparisons above test it.
    db.prepare('UPDATE orders SET notes = ? WHERE id = ?').run('changed behind the store', id);
    try {
      assert.equal((await read(t.baseUrl, `/orders/${id}`, keys().live_read)).text, before.text);
      assert.notEqual((await read(uncachedUrl, `/orders/${id}`, keys().live_read)).text, before.text);
    } finally {
      db.prepare('UPDATE orders SET notes = ? WHERE id = ?').run(original, id);
    }
  });

  test("a restaurant's new time zone applies at once, changed on this connection or another", async () => {
    const id = orders[0]!;
    const zoneOf = async (baseUrl: string) => (JSON.parse((await read(baseUrl, `/orders/${id}`, keys().live_read)).text) as OrderView).created_at.slice(-6);
    assert.equal(await zoneOf(t.baseUrl), '-03:00');
    const setZone = (db: Engine['db'], zone: string) => db.prepare('UPDATE restaurants SET time_zone = ? WHERE id = ?').run(zone, R1.id);
    const other = new Engine({ database: t.dbPath, clock: t.clock });
    try {
      setZone(other.db, 'Asia/Tokyo');
      assert.equal(await zoneOf(t.baseUrl), '+09:00');
      await assertSameAnswers('zone changed by another connection');
      setZone(t.server.engine.db, 'Europe/Madrid');
      assert.equal(await zoneOf(t.baseUrl), '+01:00');
      await assertSameAnswers('zone changed on this connection');
    } finally {
      setZone(other.db, 'America/Santiago');
      await other.close();
    }
    assert.equal(await zoneOf(t.baseUrl), '-03:00');
  });

  /**
   * Both requests written at once on one connection: the server parses them in one go, so the second
   * is handled while the first one's read transaction is open between two of its awaits.
   */
  async function pipelined(paths: readonly string[], key: string): Promise<string> {
    const { hostname, port, pathname } = new URL(t.baseUrl);
    const socket = connect({ host: hostname, port: Number(port) });
    const requests = paths.map((path, index) =>
      `GET ${pathname}${path} HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: Bearer ${key}\r\n${index === paths.length - 1 ? 'connection: close\r\n' : ''}\r\n`,
    );
    socket.write(requests.join(''));
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  test("an order read while another read's transaction is open is kept all the same", async () => {
    const create = async () => {
      const res = await t.call('POST', '/orders', {
        key: keys().live_write,
        body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Rosa' }, items: [{ product_id: R1.products.completo, quantity: 1 }] },
      });
      assert.equal(res.status, 201, res.text);
      return res.body.id as string;
    };
    // Neither is kept yet (and the write dropped the kept time zone): both requests read the database.
    const [first, second] = [await create(), await create()];
    const answers = await pipelined([`/orders/${first}`, `/orders/${second}`], keys().live_read);
    assert.equal(answers.match(/HTTP\/1\.1 200/g)?.length, 2, answers);
    const expected = await read(uncachedUrl, `/orders/${second}`, keys().live_read);
    const db = t.server.engine.db;
    db.prepare('UPDATE orders SET notes = ? WHERE id = ?').run('changed behind the store', second);
    try {
      // Kept bytes hide a change behind the store (see above): the second order's answer was kept.
      assert.deepEqual(await read(t.baseUrl, `/orders/${second}`, keys().live_read), expected);
    } finally {
      db.prepare('UPDATE orders SET notes = NULL WHERE id = ?').run(second);
    }
  });

  test('an unknown or foreign order is the same 404 both ways', async () => {
    const foreign = t.demo[1]!.managed_order_ids[0];
    for (const id of ['00000000-0000-4000-8000-00000000dead', ...(foreign ? [foreign] : [])]) {
      const expected = await read(uncachedUrl, `/orders/${id}`, keys().live_read);
      assert.equal(expected.status, 404);
      assert.deepEqual(await read(t.baseUrl, `/orders/${id}`, keys().live_read), expected);
    }
    const bad = await read(uncachedUrl, '/orders?cursor=nonsense', keys().live_read);
    assert.equal(bad.status, 400);
    assert.deepEqual(await read(t.baseUrl, '/orders?cursor=nonsense', keys().live_read), bad);
  });
});
