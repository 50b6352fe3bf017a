// Issue 34: two engine nodes started as a platform starts them, `npm run serve -- --database
// postgres://… --nodes 2` in processes of their own on one PostgreSQL database (the tests' throwaway
// cluster), behave as one engine over HTTP: 40 orders at once for one restaurant through both nodes
// are each answered and saved once, numbered and fed without a gap; 200 orders at once for 50 units
// sell exactly 50; an order made on A is read and changed on B; a long-poll held on B is answered by
// a commit on A; one Idempotency-Key sent to both at once makes one order with one answer.
// (two-nodes-http.e2e runs the same engine in this process, with no rate limits; this one runs
// serve's own start: migration by two nodes at once, the demo seeded by one, each node's share of
// the rate limits.)
//
// Rate limits are serve's defaults shared by `--nodes 2`: a key may send 60 requests at once to each
// node (120 on the platform), then 1 a second. The live key is spent by the two bursts only, in
// that order (40, then 200, of which each node admits what its bucket holds); the other tests use
// the restaurant's sandbox key, whose bucket is its own.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { R1 } from '../support/demo-ids.ts';
import { callApi, type CallOptions, type CallResult } from '../support/engine-under-test.ts';
import { eventually } from '../support/eventually.ts';
import { usePostgresCluster, type PostgresCluster } from '../support/postgres-cluster.ts';
import { startEngineNode, type EngineNode } from '../scripts/platform/support/engine-node.ts';

interface DemoKeys {
  live_write: string;
  test_write: string;
}

let cluster: PostgresCluster;
let db: pg.Client;
let a: EngineNode;
let b: EngineNode;
let live: string;
let sandbox: string;

before(async () => {
  cluster = await usePostgresCluster();
  const url = await cluster.createDatabase('serve_nodes');
  // Started together on the empty database: both migrate it at once (one takes the advisory lock,
  // the other then finds it done); A seeds the demo restaurants and prints their keys.
  [a, b] = await Promise.all([
    startEngineNode('a', { url, password: '' }, undefined, ['--nodes', '2', '--demo']),
    startEngineNode('b', { url, password: '' }, undefined, ['--nodes', '2']),
  ]);
  const restaurants = a.printed.restaurants as { id: string; keys: DemoKeys }[];
  const r1 = restaurants.find((r) => r.id === R1.id)!;
  live = r1.keys.live_write;
  sandbox = r1.keys.test_write;
  db = new pg.Client({ connectionString: url });
  db.on('error', () => {}); // a dropped connection fails the next query, which says so
  await db.connect();
});
after(async () => {
  await db?.end().catch(() => {});
  await Promise.all([a?.stop(), b?.stop()]);
  await cluster?.release();
});

const call = (node: EngineNode, key: string, method: string, path: string, options?: CallOptions): Promise<CallResult> =>
  callApi(node.baseUrl, key, method, path, options);

const order = (name: string, productId: string) => ({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name },
  items: [{ product_id: productId, quantity: 1 }],
});

/** What `GET /events` gives after `cursor` on a node, every page. */
async function feedAfter(node: EngineNode, key: string, cursor: string): Promise<{ id: string; type: string; data: { id?: string } }[]> {
  const events = [];
  for (let after = cursor; ;) {
    const page = await call(node, key, 'GET', `/events?after=${after}&limit=500`);
    assert.equal(page.status, 200, page.text);
    events.push(...page.body.data);
    if (!page.body.has_more) return events;
    after = page.body.next_cursor;
  }
}

const seqOf = (cursor: string) => Number(cursor.slice('ev_'.length));

/** The median and the largest of some milliseconds, for the test's report. */
function spread(ms: number[]): string {
  const sorted = [...ms].sort((x, y) => x - y);
  return `median ${Math.round(sorted[Math.floor(sorted.length / 2)]!)} ms, max ${Math.round(sorted.at(-1)!)} ms`;
}

test('40 orders at once for one restaurant, 20 to each node: each answered (201, or 503/429 with Retry-After), saved once, numbered and fed without a gap', async (t) => {
  const product = R1.products.cazuela; // untracked: the burst contends for the restaurant alone
  const start = await call(a, live, 'GET', '/events');
  const cursor = start.body.next_cursor as string;
  const numbersBefore = (await db.query<{ n: number }>(
    'SELECT MAX(CAST(number AS integer)) AS n FROM orders WHERE restaurant_id = $1 AND test = 0',
    [R1.id],
  )).rows[0]!.n ?? 0;

  const sent = performance.now();
  const answers = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const node = i % 2 === 0 ? a : b;
      const began = performance.now();
      const answer = await call(node, live, 'POST', '/orders', { body: order(`Ráfaga ${i}`, product) });
      return { i, node: node.name, answer, ms: performance.now() - began };
    }),
  );
  const wholeMs = performance.now() - sent;
  const statuses = answers.map((x) => x.answer.status);
  t.diagnostic(`statuses: ${JSON.stringify(Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length])))}; `
    + `per request ${spread(answers.map((x) => x.ms))}; the burst ${Math.round(wholeMs)} ms`);
  for (const { i, node, answer } of answers) {
    assert.ok([201, 429, 503].includes(answer.status), `order ${i} on node ${node}: ${answer.status} ${answer.text}`);
    if (answer.status !== 201) assert.ok(answer.headers.get('retry-after'), `order ${i}'s ${answer.status} says when to retry`);
  }
  const created = answers.filter((x) => x.answer.status === 201).map((x) => x.answer.body as { id: string; number: string; customer: { name: string } });
  const unavailable = statuses.filter((s) => s === 503).length;

  // Saved once each: what the database holds, and what either node lists.
  const saved = (await db.query<{ id: string; number: string; customer_name: string }>(
    "SELECT id, number, customer_name FROM orders WHERE restaurant_id = $1 AND test = 0 AND customer_name LIKE 'Ráfaga %' ORDER BY CAST(number AS integer)",
    [R1.id],
  )).rows;
  assert.equal(new Set(saved.map((r) => r.customer_name)).size, saved.length, 'no customer\'s order saved twice');
  for (const order of created) assert.ok(saved.some((r) => r.id === order.id), `order ${order.number} answered 201 is saved`);
  // A 503 may have been saved (its commit's outcome unknown), never more than one order per request.
  assert.ok(saved.length >= created.length && saved.length <= created.length + unavailable, `${saved.length} saved for ${created.length} × 201 and ${unavailable} × 503`);
  for (const node of [a, b]) {
    const listed = (await call(node, live, 'GET', '/orders?limit=100')).body.data as { id: string }[];
    for (const row of saved) assert.equal(listed.filter((o) => o.id === row.id).length, 1, `order ${row.number} listed once on node ${node.name}`);
  }

  // Numbered without a gap: the restaurant's counter row hands out the next number to each commit.
  assert.deepEqual(saved.map((r) => Number(r.number)), saved.map((_, k) => numbersBefore + 1 + k));

  // Fed without a gap: the restaurant's events after the cursor are numbered one after another in
  // the table, and both nodes' feeds show every one this key may see, in that order (the table read
  // last: an event a job commits meanwhile can only follow what the feeds show).
  const [feedA, feedB] = await Promise.all([feedAfter(a, live, cursor), feedAfter(b, live, cursor)]);
  const stored = (await db.query<{ seq: number; type: string; world: string }>(
    'SELECT seq, type, world FROM events WHERE restaurant_id = $1 AND seq > $2 ORDER BY seq',
    [R1.id, seqOf(cursor)],
  )).rows;
  assert.deepEqual(stored.map((e) => Number(e.seq)), stored.map((_, k) => seqOf(cursor) + 1 + k), 'the table\'s sequence has no gap');
  const visible = stored.filter((e) => e.world !== 'test' && !e.type.startsWith('kitchen.')).map((e) => `ev_${e.seq}`);
  assert.deepEqual(feedA.map((e) => e.id), visible.slice(0, feedA.length), 'node A\'s feed is the table\'s');
  assert.deepEqual(feedB.map((e) => e.id), visible.slice(0, feedB.length), 'node B\'s feed is the table\'s');
  for (const [node, feed] of [['A', feedA], ['B', feedB]] as const) {
    const createdEvents = feed.filter((e) => e.type === 'order.created').map((e) => e.data.id);
    assert.deepEqual([...createdEvents].sort(), saved.map((r) => r.id).sort(), `one order.created per saved order in node ${node}'s feed`);
  }
});

test('200 orders at once for 50 units, half to each node: exactly 50 sold, stock 0, the rest 409 or 429 by the rules', async (t) => {
  const product = R1.products.empanadaPino;
  const put = await call(a, live, 'PUT', '/stock', { body: { location_id: R1.openLocation, items: [{ product_id: product, quantity: 50 }] } });
  assert.equal(put.status, 200, put.text);
  const answers = await Promise.all(Array.from({ length: 200 }, async (_, i) => {
    const node = i % 2 === 0 ? a : b;
    return { node: node.name, answer: await call(node, live, 'POST', '/orders', { body: order(`Empanada ${i}`, product) }) };
  }));
  const count = (node: string, status: number) => answers.filter((x) => x.node === node && x.answer.status === status).length;
  t.diagnostic(['a', 'b'].map((n) => `node ${n}: ${count(n, 201)} × 201, ${count(n, 409)} × 409, ${count(n, 429)} × 429`).join('; '));
  for (const { node, answer } of answers) {
    if (answer.status === 409) assert.equal(answer.body.error.code, 'insufficient_stock', answer.text);
    else if (answer.status === 429) assert.ok(answer.headers.get('retry-after'), 'a 429 says when to retry');
    else assert.equal(answer.status, 201, `node ${node}: ${answer.text}`);
  }
  const sold = answers.filter((x) => x.answer.status === 201).map((x) => x.answer.body as { number: string });
  // Each node's bucket held at least 60 − 23 requests after the first burst: ≥ 74 competed for 50.
  assert.equal(sold.length, 50);
  const numbers = sold.map((o) => Number(o.number)).sort((x, y) => x - y);
  assert.deepEqual(numbers, numbers.map((_, k) => numbers[0]! + k), 'the 50 numbers have no gap (a refusal rolls its number back)');
  // The burst spent the key's buckets: the read waits for a request's refill (429 until then).
  const stock = await eventually(() => call(b, live, 'GET', `/stock?location_id=${R1.openLocation}`), 'a stock read on node B', { until: (r) => r.status !== 429 });
  assert.equal(stock.status, 200, stock.text);
  assert.equal(stock.body.data.find((e: { product_id: string }) => e.product_id === product).quantity, 0);
});

test('an order made on node A is read on node B; changed on B, node A answers the change', async (t) => {
  const made = await call(a, sandbox, 'POST', '/orders', { body: order('Entre nodos', R1.products.cazuela) });
  assert.equal(made.status, 201, made.text);
  const id = made.body.id as string;
  const readOnB = await call(b, sandbox, 'GET', `/orders/${id}`);
  assert.equal(readOnB.status, 200, readOnB.text);
  const { promise: _promise, ...asMade } = made.body; // the kitchen's promise is the 201's alone
  assert.deepEqual(readOnB.body, asMade);
  // A reads it too (it may keep that answer), then B changes it.
  assert.equal((await call(a, sandbox, 'GET', `/orders/${id}`)).body.status, 'recibido');
  const changed = await call(b, sandbox, 'PATCH', `/orders/${id}`, { body: { status: 'en_preparacion' } });
  assert.equal(changed.status, 200, changed.text);
  // A hears B's commit by NOTIFY (or its re-poll, within a second): its kept answer goes then.
  const firstOnA = (await call(a, sandbox, 'GET', `/orders/${id}`)).body.status as string;
  t.diagnostic(`node A's first read after B's change: ${firstOnA}`);
  await eventually(async () => (await call(a, sandbox, 'GET', `/orders/${id}`)).body.status, 'node A to answer B\'s change', { until: (s) => s === 'en_preparacion' });
});

test('a long-poll held on node B is answered by a commit on node A, before its wait runs out', async (t) => {
  const WAIT_S = 30;
  const cursor = (await call(b, sandbox, 'GET', '/events')).body.next_cursor as string;
  const sent = performance.now();
  const polled = call(b, sandbox, 'GET', `/events?after=${cursor}&wait=${WAIT_S}`).then((page) => ({ page, at: performance.now() }));
  // B answers a read of the same feed sent after the poll, with nothing: the poll is most likely
  // held by then (were it read after A's commit, it would still pass; the figure below says which).
  const probe = await call(b, sandbox, 'GET', `/events?after=${cursor}`);
  assert.deepEqual(probe.body.data, []);
  const made = await call(a, sandbox, 'POST', '/orders', { body: order('Despierta', R1.products.cazuela) });
  assert.equal(made.status, 201, made.text);
  const committed = performance.now();
  const { page, at } = await polled;
  assert.equal(page.status, 200, page.text);
  assert.deepEqual(page.body.data.map((e: { type: string; data: { id: string } }) => [e.type, e.data.id]), [['order.created', made.body.id]]);
  // Not a speed target: an unanswered wait ends at WAIT_S with the same page, so only the time
  // tells a wake from the wait running out (docs/performance.md row 13 measures the wake).
  t.diagnostic(`answered ${Math.round(at - committed)} ms after A's 201`);
  assert.ok(at - sent < WAIT_S * 1000, `answered ${Math.round(at - sent)} ms after it was sent: woken, not timed out`);
});

test('one Idempotency-Key sent to both nodes at once: one order, the same answer from both', async () => {
  const headers = { 'idempotency-key': 'serve-nodes-once' };
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => call(i % 2 === 0 ? a : b, sandbox, 'POST', '/orders', { body: order('Una vez', R1.products.cazuela), headers })),
  );
  for (const answer of answers) assert.equal(answer.status, 201, answer.text);
  assert.equal(new Set(answers.map((r) => r.text)).size, 1, 'every answer is the first one, byte for byte');
  assert.equal(answers.filter((r) => r.headers.get('idempotent-replayed') === 'true').length, 9);
  const saved = await db.query("SELECT id FROM orders WHERE restaurant_id = $1 AND customer_name = 'Una vez'", [R1.id]);
  assert.deepEqual(saved.rows.map((r) => r.id), [answers[0]!.body.id]);
});
