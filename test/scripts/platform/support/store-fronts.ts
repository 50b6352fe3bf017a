// The load of the failover test, as store fronts and kitchen screens make it over the Engine's HTTP API:
// - order clients, each with an API key of its own and a home node, sending orders one after
//   another, each with its own Idempotency-Key, then moving each order through the kitchen
//   (PATCH en_preparacion, then listo, each with a key of its own). A 503 with Retry-After or a node
//   that does not answer (killed) is retried with the same key after a short pause, on the other
//   node (a store front's load balancer); a 429 is retried on the same node after its Retry-After.
//   201 and 409 out_of_stock answer an order, 200 a transition; any other answer is a wrong answer;
// - one feed reader per node (GET /events?after=ev_N&wait=1), following its cursor: every event's
//   seq must be its cursor + 1, or an event was missed. A reader whose node is gone goes on at the
//   same cursor on the other node, as a kitchen screen reconnecting elsewhere.
// Every client finishes its key before it stops, so each key sent is answered once. Each answer's
// kind is counted ("201", "503", "429", "unreachable", …). A test that is cancelled (timed out)
// aborts its signal: every client then gives up at once, its key unanswered.
//
// Each request has a connection of its own. With kept-alive sockets, a client starved of CPU (load
// 30–40 beside the platform) reused a socket the node had just closed as idle (its keep-alive
// timeout, 5 s): "other side closed" (UND_ERR_SOCKET) from a node that was running fine, which the
// test's "a running node answers every request" could not tell from a node dropping requests.
import { Agent, fetch, type Response } from 'undici';

export interface Acknowledged {
  key: string;
  status: 201 | 409;
  /** The order's id (201). */
  orderId?: string;
  node: string;
  /** The test's clock when the answer came. */
  at: number;
}

export interface Transitioned {
  orderId: string;
  status: KitchenStep;
  node: string;
  /** The test's clock when the answer came. */
  at: number;
}

export interface FeedReading {
  reader: string;
  /** Seqs read, in order. */
  seqs: number[];
  /** "expected N, got M": events skipped (or read twice). */
  gaps: string[];
  /** The ids of the orders the order.created events carried. */
  created: string[];
}

export interface StoreFrontReport {
  acknowledged: Acknowledged[];
  transitions: Transitioned[];
  /** Every answer (and failure to answer), by kind: "201", "200", "409 out_of_stock", "429", "503", "unreachable". */
  answers: Map<string, number>;
  wrongAnswers: string[];
  feeds: FeedReading[];
}

export interface StoreFronts {
  readonly acknowledged: readonly Acknowledged[];
  /** The feed readers' cursors now. */
  cursors(): number[];
  /** The order clients finish their keys and stop; the feed readers go on. */
  stopOrders(): Promise<void>;
  /** Everything stops. */
  stop(): Promise<StoreFrontReport>;
}

type KitchenStep = 'en_preparacion' | 'listo';
const KITCHEN_STEPS: readonly KitchenStep[] = ['en_preparacion', 'listo'];
const PAUSE_AFTER_OUTAGE_MS = 200;
/** A 429's Retry-After is obeyed, up to this (a bound for the test, not the rule). */
const LONGEST_RATE_LIMIT_WAIT_MS = 5_000;

interface NodeAddress {
  name: string;
  baseUrl: string;
}

export function startStoreFronts(options: {
  nodes: readonly NodeAddress[];
  restaurant: { location: string; product: string; writeKeys: readonly string[]; readKeys: readonly string[] };
  label: string;
  clock: () => number;
  /** The test's own (t.signal): aborted when the test is cancelled or times out. */
  signal?: AbortSignal;
}): StoreFronts {
  const { nodes, restaurant } = options;
  const acknowledged: Acknowledged[] = [];
  const transitions: Transitioned[] = [];
  const answers = new Map<string, number>();
  const wrongAnswers: string[] = [];
  let stopping = false;
  let stoppingOrders = false;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const count = (kind: string) => answers.set(kind, (answers.get(kind) ?? 0) + 1);
  /** pipelining 0: no keep-alive, a connection per request (see the top). */
  const dispatcher = new Agent({ pipelining: 0 });

  /**
   * One request, retried as a store front does until it is answered: the same Idempotency-Key on
   * the other node after a 503 or no answer, on the same node after a 429. Returns the answer and
   * the node that gave it.
   */
  async function send(home: number, apiKey: string, method: string, path: string, idempotencyKey: string | null, body: unknown): Promise<{ response: Response; text: string; node: string }> {
    let at = home;
    for (;;) {
      options.signal?.throwIfAborted();
      const node = nodes[at]!;
      let response: Response;
      try {
        response = await fetch(`${node.baseUrl}${path}`, {
          dispatcher,
          method,
          headers: { authorization: `Bearer ${apiKey}`, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      } catch (error) {
        // The cause's code says which: refused (a node gone), reset or closed (a socket cut), a timeout.
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        count(`unreachable ${node.name}${cause ? ` (${cause})` : ''}`);
        at = (at + 1) % nodes.length;
        await pause(PAUSE_AFTER_OUTAGE_MS);
        continue;
      }
      const text = await response.text();
      const retryAfter = response.headers.get('retry-after');
      if (response.status === 503 && retryAfter) {
        count('503');
        at = (at + 1) % nodes.length;
        await pause(PAUSE_AFTER_OUTAGE_MS);
        continue;
      }
      if (response.status === 429 && retryAfter) {
        count('429');
        await pause(Math.min(Number(retryAfter) * 1000, LONGEST_RATE_LIMIT_WAIT_MS));
        continue;
      }
      return { response, text, node: node.name };
    }
  }

  async function orderClient(client: number): Promise<void> {
    const apiKey = restaurant.writeKeys[client]!;
    const home = client % nodes.length;
    for (let sequence = 0; !stoppingOrders && !stopping; sequence += 1) {
      // The key is also the customer's name: an order written twice for one key shows as two orders of one name.
      const key = `${options.label}-${client}-${sequence}`;
      const order = { location_id: restaurant.location, type: 'retiro', customer: { name: key }, items: [{ product_id: restaurant.product, quantity: 1 }] };
      const placed = await send(home, apiKey, 'POST', '/orders', key, order);
      const code = placed.response.status === 409 ? (JSON.parse(placed.text) as { error?: { code?: string } }).error?.code : undefined;
      if (placed.response.status !== 201 && code !== 'out_of_stock') {
        count(String(placed.response.status));
        wrongAnswers.push(`order ${key} on ${placed.node}: ${placed.response.status} ${placed.text.slice(0, 200)}`);
        continue;
      }
      count(code ? `409 ${code}` : '201');
      const orderId = placed.response.status === 201 ? (JSON.parse(placed.text) as { id: string }).id : undefined;
      acknowledged.push({ key, status: placed.response.status as 201 | 409, ...(orderId ? { orderId } : {}), node: placed.node, at: options.clock() });
      if (!orderId) continue;
      for (const step of KITCHEN_STEPS) {
        const moved = await send(home, apiKey, 'PATCH', `/orders/${orderId}`, `${key}-${step}`, { status: step });
        count(String(moved.response.status));
        if (moved.response.status !== 200) {
          wrongAnswers.push(`${step} of ${key} on ${moved.node}: ${moved.response.status} ${moved.text.slice(0, 200)}`);
          break;
        }
        transitions.push({ orderId, status: step, node: moved.node, at: options.clock() });
      }
    }
  }

  const feeds: FeedReading[] = options.nodes.map((node) => ({ reader: node.name, seqs: [], gaps: [], created: [] }));
  const cursors = options.nodes.map(() => 0);
  async function feedReader(reader: number): Promise<void> {
    const reading = feeds[reader]!;
    while (!stopping) {
      const cursor = cursors[reader]!;
      const { response, text, node } = await send(reader, restaurant.readKeys[reader]!, 'GET', `/events?after=ev_${cursor}&wait=1&limit=500`, null, null);
      if (response.status !== 200) {
        wrongAnswers.push(`feed of reader ${reading.reader} on ${node}: ${response.status} ${text.slice(0, 200)}`);
        await pause(PAUSE_AFTER_OUTAGE_MS);
        continue;
      }
      const { data } = JSON.parse(text) as { data: { id: string; type: string; data: { id?: string } }[] };
      let next = cursor;
      for (const event of data) {
        const seq = Number(event.id.slice('ev_'.length));
        if (seq !== next + 1) reading.gaps.push(`expected ${next + 1}, got ${seq}`);
        reading.seqs.push(seq);
        if (event.type === 'order.created' && event.data.id) reading.created.push(event.data.id);
        next = seq;
      }
      cursors[reader] = next;
    }
  }

  /** A client of a cancelled test ends quietly; any other failure is the test's. */
  const untilAborted = async (client: Promise<void>) => {
    try {
      await client;
    } catch (error) {
      if (!options.signal?.aborted) throw error;
    }
  };
  const clients = restaurant.writeKeys.map((_, client) => untilAborted(orderClient(client)));
  const readers = options.nodes.map((_, reader) => untilAborted(feedReader(reader)));
  return {
    acknowledged,
    cursors: () => [...cursors],
    async stopOrders() {
      stoppingOrders = true;
      await Promise.all(clients);
    },
    async stop() {
      stopping = true;
      await Promise.all([...clients, ...readers]);
      await dispatcher.close();
      return { acknowledged: [...acknowledged], transitions: [...transitions], answers, wrongAnswers, feeds };
    },
  };
}
