// Issue 34: two engine nodes serving the whole HTTP API from one PostgreSQL database behave as one
// engine: stock is never oversold across them, an Idempotency-Key sent to both at once makes one
// order with one answer, and a kitchen tablet's live stream on node B sees a bump made on node A.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { kitchenActor } from '../../../src/engine/screen/kitchen-handlers.ts';
import { createPairingCode, pairWithCode } from '../../../src/engine/services/kitchen/kitchen-devices.ts';
import { setItemDone } from '../../../src/engine/services/kitchen/kitchen-items.ts';
import { R1 } from '../../support/demo-ids.ts';
import type { EngineUnderTest } from '../../support/engine-under-test.ts';
import { eventually } from '../../support/eventually.ts';
import { startPostgresEnginesUnderTest } from '../../support/postgres-engine-under-test.ts';

let a: EngineUnderTest;
let b: EngineUnderTest;
before(async () => {
  // Re-poll off in effect (an hour): what node B learns of node A's commits comes by NOTIFY.
  const nodes = await startPostgresEnginesUnderTest({ nodes: 2, rePollMs: 3_600_000 });
  a = nodes[0]!;
  b = nodes[1]!;
});
after(async () => {
  await a?.stop();
  await b?.stop();
});

const order = (name: string, productId: string = R1.products.pastelDeChoclo) => ({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name },
  items: [{ product_id: productId, quantity: 1 }],
});

test('200 orders at once for 50 units, half to each node: exactly 50 accepted, the rest 409, stock 0', async () => {
  const product = R1.products.empanadaPino;
  const put = await a.call('PUT', '/stock', { body: { location_id: R1.openLocation, items: [{ product_id: product, quantity: 50 }] } });
  assert.equal(put.status, 200);
  const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).call('POST', '/orders', { body: order(`Cliente ${i}`, product) })));
  const accepted = answers.filter((r) => r.status === 201);
  const refused = answers.filter((r) => r.status === 409);
  assert.equal(accepted.length, 50, `statuses: ${JSON.stringify(answers.map((r) => r.status))}`);
  assert.equal(refused.length, 150);
  // Order numbers gapless across the two nodes: one counter row.
  const numbers = accepted.map((r) => Number(r.body.number)).sort((x, y) => x - y);
  assert.equal(new Set(numbers).size, 50);
  const stock = await b.call('GET', `/stock?location_id=${R1.openLocation}`);
  assert.equal(stock.body.data.find((e: { product_id: string }) => e.product_id === product).quantity, 0);
});

test('one Idempotency-Key sent to both nodes at once: one order, the same answer from both', async () => {
  const before = (await a.call('GET', '/orders?limit=100')).body.data.length as number;
  const headers = { 'idempotency-key': 'both-nodes-once' };
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).call('POST', '/orders', { body: order('Una vez'), headers })),
  );
  for (const answer of answers) assert.equal(answer.status, 201, answer.text);
  const ids = new Set(answers.map((r) => r.body.id as string));
  assert.equal(ids.size, 1);
  assert.equal(new Set(answers.map((r) => r.text)).size, 1, 'every answer is the first one, byte for byte');
  assert.ok(answers.some((r) => r.headers.get('idempotent-replayed') === 'true'));
  const after = (await b.call('GET', '/orders?limit=100')).body.data.length as number;
  assert.equal(after, before + 1);
});

test("a tablet's live stream on node B sees a bump made on node A (by NOTIFY: B's re-poll is off)", async () => {
  const created = await a.call('POST', '/orders', { body: order('Bump') });
  assert.equal(created.status, 201);
  const engineB = b.server.engine;
  const offer = await createPairingCode(engineB, { restaurantId: R1.id, origin: b.server.origin });
  const cookie = `comanda_device=${(await pairWithCode(engineB, offer.code)).token}`;
  let body = '';
  let request!: ClientRequest;
  const status = await new Promise<number>((resolve, reject) => {
    request = httpRequest({ host: '127.0.0.1', port: b.server.port, path: '/kitchen/live', headers: { host: `127.0.0.1:${b.server.port}`, cookie } });
    request.on('response', (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end();
  });
  try {
    assert.equal(status, 200);
    // The stream's first message is the board as it is; then what changes.
    await eventually(() => /^data:/m.test(body), 'the board as it is, first on the stream');
    const before = body.length;
    await setItemDone(a.server.engine, kitchenActor(R1.id, 'live'), created.body.id as string, 0, true);
    await eventually(() => body.slice(before).includes(created.body.id as string), "node A's bump on the stream of node B");
  } finally {
    request.destroy();
  }
});
