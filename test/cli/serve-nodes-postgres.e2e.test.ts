// Issue 34: two engine nodes started as a platform starts them, `npm run serve -- --database
// postgres://… --nodes 2` in processes of their own on one PostgreSQL database (the tests' throwaway
// cluster), behave as one engine over HTTP: 40 orders at once for one restaurant through both nodes
// are each answered and saved once, numbered and fed without a gap; an order made on A is read and
// changed on B; a long-poll held on B is answered by a commit on A. What two-nodes-http.e2e already
// shows over HTTP (the same engine in this process, no rate limits) is not repeated here: 200 orders
// for 50 units selling exactly 50, one Idempotency-Key sent to both nodes making one order. This file
// adds serve's own start (two nodes migrating one database at once, the demo seeded by one) and runs
// under each node's share of serve's rate limits.
//
// Rate limits are serve's defaults shared by `--nodes 2`: a key may send 60 requests at once to each
// node (120 on the platform), then 1 a second. The burst spends the restaurant's live key (20
// orders and a few reads a node); the other tests use its sandbox key, whose bucket is its own.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { R1 } from '../support/demo-ids.ts';
import { callApi, type CallOptions, type CallResult } from '../support/call-api.ts';
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
