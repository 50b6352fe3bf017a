import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReplicaServer, type ReplicaServer } from '../../src/sync/start-replica-server.ts';
import { R1 } from '../support/demo-ids.ts';
import { GENEROUS_LIMITS, startEngineUnderTest, type EngineUnderTest } from '../support/engine-under-test.ts';

let up: EngineUnderTest;
let rep: ReplicaServer;
let key: string;

async function call(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function eventually<T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

before(async () => {
  up = await startEngineUnderTest();
  key = up.demo[0]!.keys.live_write;
  rep = await startReplicaServer({
    database: join(mkdtempSync(join(tmpdir(), 'comanda-replica-')), 'replica.db'),
    upstreamUrl: up.baseUrl,
    apiKey: key,
    clock: up.clock,
    rateLimits: GENEROUS_LIMITS,
    sync: { pollWaitSeconds: 2 },
  });
});
after(async () => {
  await rep.close();
  await up.stop();
});

const replicaBase = () => rep.server.baseUrl;

test('the first pull mirrors menu, locations, stock and orders', async () => {
  const [menuUp, menuRep] = await Promise.all([call(up.baseUrl, 'GET', '/menu'), call(replicaBase(), 'GET', '/menu')]);
  assert.equal(menuRep.status, 200);
  assert.deepEqual(menuRep.body, menuUp.body);
  const [locUp, locRep] = await Promise.all([call(up.baseUrl, 'GET', '/locations'), call(replicaBase(), 'GET', '/locations')]);
  assert.deepEqual(locRep.body.data, locUp.body.data);
  assert.equal(locRep.body.register_mode, 'manual');
  for (const location of [R1.openLocation, R1.closedLocation]) {
    const [a, b] = await Promise.all([
      call(up.baseUrl, 'GET', `/stock?location_id=${location}`),
      call(replicaBase(), 'GET', `/stock?location_id=${location}`),
    ]);
    assert.deepEqual(b.body, a.body);
  }
  const orders = await call(replicaBase(), 'GET', '/orders');
  assert.deepEqual(orders.body.data.map((o: { id: string }) => o.id), up.demo[0]!.managed_order_ids);
});

test('an order created upstream appears on the replica within a second', async () => {
  const created = await call(up.baseUrl, 'POST', '/orders', {
    location_id: R1.openLocation,
    type: 'retiro',
    customer: { name: 'Upstream' },
    items: [{ product_id: R1.products.empanadaQueso, quantity: 2 }],
  });
  assert.equal(created.status, 201);
  const started = Date.now();
  const mirrored = await eventually(
    () => call(replicaBase(), 'GET', `/orders/${created.body.id}`),
    (r) => r.status === 200,
  );
  assert.equal(mirrored.status, 200);
  assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
  assert.deepEqual(mirrored.body, created.body);
  const stock = await eventually(
    () => call(replicaBase(), 'GET', `/stock?location_id=${R1.openLocation}`),
    (r) => r.body.data.find((e: { product_id: string }) => e.product_id === R1.products.empanadaQueso).quantity === 28,
  );
  assert.equal(stock.body.data.find((e: { product_id: string }) => e.product_id === R1.products.empanadaQueso).quantity, 28);
});

test('transitions and orders made on the replica reach the upstream, with the upstream id', async () => {
  const local = await call(replicaBase(), 'POST', '/orders', {
    location_id: R1.openLocation,
    type: 'retiro',
    customer: { name: 'Replica' },
    items: [{ product_id: R1.products.bebidaLata, quantity: 1 }],
  });
  assert.equal(local.status, 201, JSON.stringify(local.body));
  assert.match(local.body.number, /^L\d+$/);
  const moved = await call(replicaBase(), 'PATCH', `/orders/${local.body.id}`, { status: 'en_preparacion' });
  assert.equal(moved.status, 200);
  const status = await eventually(() => call(replicaBase(), 'GET', '/sync/status'), (r) => r.body.outbox_pending === 0);
  assert.equal(status.body.outbox_pending, 0, JSON.stringify(status.body));
  const viaLocalId = await call(replicaBase(), 'GET', `/orders/${local.body.id}`);
  assert.equal(viaLocalId.status, 200);
  assert.notEqual(viaLocalId.body.id, local.body.id, 'the order now carries the upstream id');
  assert.match(viaLocalId.body.number, /^\d+$/);
  const upstream = await call(up.baseUrl, 'GET', `/orders/${viaLocalId.body.id}`);
  assert.equal(upstream.status, 200);
  assert.equal(upstream.body.status, 'en_preparacion');
  assert.equal(upstream.body.customer.name, 'Replica');
  const all = await call(up.baseUrl, 'GET', '/orders?limit=100');
  assert.equal(all.body.data.filter((o: { customer: { name: string } }) => o.customer.name === 'Replica').length, 1);
});
