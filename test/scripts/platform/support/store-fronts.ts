// The load of the storage-level failover test, as store fronts and kitchen screens make it over HTTP:
// - order clients, each on one engine node, sending orders one after another, each with its own
//   Idempotency-Key; an answer 201 or 409 is acknowledged; a 503 with Retry-After is the outage
//   (retried with the same key after a short pause, as a store front does); a failed request to the
//   node or any other answer is a wrong answer (must be none);
// - one feed reader per node, following its cursor (GET /feed?after=cursor): every event's seq must
//   be its cursor + 1, or an event was missed.
// Every client finishes its key before it stops, so each key sent is answered once.

export interface Acknowledged {
  key: string;
  status: 201 | 409;
  /** The order's id (201). */
  orderId?: string;
  node: string;
  /** The test's clock when the answer came. */
  at: number;
}

export interface FeedReading {
  node: string;
  /** Seqs read, in order. */
  seqs: number[];
  /** "expected N, got M": events skipped (or read twice). */
  gaps: string[];
}

export interface StoreFrontReport {
  acknowledged: Acknowledged[];
  /** 503s with Retry-After, by node. */
  unavailable: Map<string, number>;
  wrongAnswers: string[];
  feeds: FeedReading[];
}

export interface StoreFronts {
  readonly acknowledged: readonly Acknowledged[];
  /** The feed readers' cursors now, by node. */
  cursors(): Map<string, number>;
  /** The order clients finish their keys and stop; the feed readers go on. */
  stopOrders(): Promise<void>;
  /** Everything stops. */
  stop(): Promise<StoreFrontReport>;
}

const PAUSE_AFTER_OUTAGE_MS = 200;

export function startStoreFronts(options: {
  nodes: readonly { nodeId: string; baseUrl: string }[];
  clientsPerNode: number;
  label: string;
  clock: () => number;
}): StoreFronts {
  const acknowledged: Acknowledged[] = [];
  const unavailable = new Map<string, number>();
  const wrongAnswers: string[] = [];
  let stopping = false;
  let stoppingOrders = false;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  async function orderClient(node: { nodeId: string; baseUrl: string }, client: number): Promise<void> {
    for (let sequence = 0; !stoppingOrders && !stopping; sequence += 1) {
      const key = `${options.label}-${node.nodeId}-${client}-${sequence}`;
      for (;;) {
        let response: Response;
        try {
          response = await fetch(`${node.baseUrl}/orders`, { method: 'POST', headers: { 'idempotency-key': key, 'content-type': 'application/json' }, body: '{}' });
        } catch (error) {
          wrongAnswers.push(`${key}: the node did not answer (${(error as Error).message})`);
          break;
        }
        const body = await response.text();
        if (response.status === 201 || response.status === 409) {
          const orderId = response.status === 201 ? (JSON.parse(body) as { id: string }).id : undefined;
          acknowledged.push({ key, status: response.status, orderId, node: node.nodeId, at: options.clock() });
          break;
        }
        if (response.status === 503 && response.headers.get('retry-after')) {
          unavailable.set(node.nodeId, (unavailable.get(node.nodeId) ?? 0) + 1);
          await pause(PAUSE_AFTER_OUTAGE_MS);
          continue;
        }
        wrongAnswers.push(`${key}: ${response.status} ${body.slice(0, 200)}`);
        break;
      }
    }
  }

  const feeds: FeedReading[] = options.nodes.map((node) => ({ node: node.nodeId, seqs: [], gaps: [] }));
  const cursors = new Map(options.nodes.map((node) => [node.nodeId, 0]));
  async function feedReader(node: { nodeId: string; baseUrl: string }, reading: FeedReading): Promise<void> {
    while (!stopping) {
      const cursor = cursors.get(node.nodeId)!;
      let response: Response;
      try {
        response = await fetch(`${node.baseUrl}/feed?after=${cursor}`);
      } catch (error) {
        wrongAnswers.push(`feed on ${node.nodeId}: the node did not answer (${(error as Error).message})`);
        return;
      }
      if (response.status === 503 && response.headers.get('retry-after')) {
        await response.text();
        await pause(PAUSE_AFTER_OUTAGE_MS);
        continue;
      }
      if (response.status !== 200) {
        wrongAnswers.push(`feed on ${node.nodeId}: ${response.status} ${(await response.text()).slice(0, 200)}`);
        await pause(PAUSE_AFTER_OUTAGE_MS);
        continue;
      }
      const { events } = (await response.json()) as { events: { seq: number }[] };
      let next = cursor;
      for (const event of events) {
        if (event.seq !== next + 1) reading.gaps.push(`expected ${next + 1}, got ${event.seq}`);
        reading.seqs.push(event.seq);
        next = event.seq;
      }
      cursors.set(node.nodeId, next);
    }
  }

  const clients = options.nodes.flatMap((node) => Array.from({ length: options.clientsPerNode }, (_, index) => orderClient(node, index + 1)));
  const readers = options.nodes.map((node, index) => feedReader(node, feeds[index]!));
  return {
    acknowledged,
    cursors: () => new Map(cursors),
    async stopOrders() {
      stoppingOrders = true;
      await Promise.all(clients);
    },
    async stop() {
      stopping = true;
      await Promise.all([...clients, ...readers]);
      return { acknowledged: [...acknowledged], unavailable, wrongAnswers, feeds };
    },
  };
}
