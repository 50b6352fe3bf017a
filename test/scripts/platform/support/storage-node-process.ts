// An engine node of the failover test, in a process of its own: a real PostgresStorage (its pool and
// LISTEN connection, through HAProxy) behind a small HTTP door shaped like the engine's own, until
// `serve --database postgres://` (issue 34) can stand in for it (engine-node.ts starts either):
// - POST /v1/orders with an Idempotency-Key (its body is ignored): the order write the figures are about, as a
//   service does it (the key claimed first, the stock taken only while `quantity >= 1`, the number,
//   the order, its event and the key's answer in one transaction); 201, or 409 out of stock;
// - GET /v1/feed?after=N: the restaurant's events after N (waiting up to 1 s for one);
// - GET /v1/nodes: how many nodes' LISTEN connections the database sees now.
// A storage outage is answered 503 storage_unavailable with Retry-After, as the engine's error
// replies do; anything else is a 500, which the test counts as a wrong answer.
// Arguments: <connection string> <node id> <restaurant> <location> <product> <api key id> <at (epoch ms)>.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { PostgresStorage } from '../../../../src/engine/postgres/postgres-storage.ts';
import { isStorageOutage, STORAGE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../../../src/engine/storage-unavailable.ts';
import type { OrderRow } from '../../../../src/engine/store/orders-store.ts';

const [connectionString, nodeId, restaurant, location, product, apiKey, atText] = process.argv.slice(2);
if (!connectionString || !nodeId || !restaurant || !location || !product || !apiKey || !atText) {
  throw new Error('usage: storage-node-process <connection> <node id> <restaurant> <location> <product> <api key id> <at>');
}
const at = Number(atText);
const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_BODY = 4_096;

const storage = await PostgresStorage.open({ connectionString, poolSize: 8, onError: () => {} });

/** The key is kept in the order's notes: the test then finds an order written twice for one key. */
function orderRow(id: string, number: string, key: string): OrderRow {
  return {
    id, restaurant_id: restaurant!, test: 0, number, status: 'recibido', type: 'retiro', location_id: location!,
    customer_name: 'Ana', customer_phone: null, customer_email: null, address: null, notes: key,
    items: JSON.stringify([{ product_id: product, quantity: 1 }]), subtotal: 2500, shipping_fee: 0, discount: 0, total: 2500,
    payment_kind: 'external', payment_method: null, paid: 0, refunded: 0, delivery_provider: null, delivery_status: null,
    delivery_tracking_url: null, scheduled_for: null, stock_taken: 1, managed_by: null, created_at: at, updated_at: at,
  };
}

function placeOrder(key: string): Promise<{ status: number; body: string }> {
  return storage.write(restaurant!, async (tx) => {
    // A new id for each run, as the engine gives one: a key written twice shows as two orders.
    const id = randomUUID();
    const claim = await tx.claimIdempotencyKey({ apiKeyId: apiKey!, key, requestHash: `hash-${key}`, at, notOlderThan: at - DAY_MS });
    if (claim.kind === 'answered') return { status: claim.stored.status, body: claim.stored.body };
    if (!(await tx.tryTakeStock(location!, product!, 1))) {
      const body = JSON.stringify({ error: { code: 'out_of_stock' } });
      await tx.recordAnswer(claim, 409, body);
      return { status: 409, body };
    }
    const number = await tx.takeOrderNumber(false);
    await tx.insertOrder(orderRow(id, number, key));
    await tx.appendEvent('live', 'order.created', at, { id, number });
    const body = JSON.stringify({ id, number });
    await tx.recordAnswer(claim, 201, body);
    return { status: 201, body };
  });
}

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > MAX_BODY) throw new Error('body too long');
  }
  return body;
}

function reply(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://node');
  if (request.method === 'POST' && url.pathname === '/v1/orders') {
    const key = request.headers['idempotency-key'];
    await readBody(request);
    if (typeof key !== 'string' || key.length === 0 || key.length > 200) return reply(response, 400, { error: { code: 'bad_request' } });
    const answer = await placeOrder(key);
    response.writeHead(answer.status, { 'content-type': 'application/json', 'x-node': nodeId! });
    response.end(answer.body);
    return;
  }
  if (request.method === 'GET' && url.pathname === '/v1/feed') {
    const after = Number(url.searchParams.get('after') ?? '0');
    let events = await storage.readFeed(restaurant!, 'live', after, 200);
    if (events.length === 0) {
      await storage.waitForChange(restaurant!, 1_000);
      events = await storage.readFeed(restaurant!, 'live', after, 200);
    }
    return reply(response, 200, { events: events.map((event) => ({ seq: event.seq, data: event.data })) });
  }
  if (request.method === 'GET' && url.pathname === '/v1/nodes') return reply(response, 200, { nodes: await storage.nodeCount() });
  reply(response, 404, { error: { code: 'not_found' } });
}

const server = createServer((request, response) => {
  handle(request, response).catch((error: unknown) => {
    if (isStorageOutage(error)) {
      reply(response, 503, { error: { code: 'storage_unavailable' } }, { 'retry-after': String(STORAGE_UNAVAILABLE_RETRY_AFTER_SECONDS) });
    } else {
      reply(response, 500, { error: { code: 'internal_error', message: error instanceof Error ? error.message.slice(0, 200) : String(error) } });
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ listening: (server.address() as { port: number }).port })}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void storage.close().then(() => process.exit(0));
});
