// The ceiling of row 6: the same path with nothing of ours on it. A bare upstream keeps a change
// log in memory and answers long-polls on it; a bare replica long-polls it (undici, through the
// same fault proxy) into a log of its own, which the bench long-polls like the real replica's feed.
// For the replay ceiling the bare replica sends changes one at a time, each awaited, as the outbox does.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { answer, childConfig, tell } from '../lib/child.ts';

interface Config {
  role: 'upstream' | 'replica';
  /** The replica's upstream, with /v1. */
  upstreamUrl?: string;
}

interface Entry {
  seq: number;
  type: string;
  data: { id: string };
}

const config = childConfig<Config>();
const log: Entry[] = [];
let waiters: (() => void)[] = [];

function append(type: string, id: string): void {
  log.push({ seq: log.length + 1, type, data: { id } });
  const woken = waiters;
  waiters = [];
  for (const wake of woken) wake();
}

function page(after: number) {
  const data = log.slice(after).map((e) => ({ id: `ev_${e.seq}`, type: e.type, created_at: new Date().toISOString(), data: e.data }));
  return { data, next_cursor: `ev_${after + data.length}`, has_more: false };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => resolve(body));
  });
}

const server = createServer((req, res) => {
  void (async () => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const body = await readBody(req);
    if (req.method === 'GET' && url.pathname === '/v1/events') {
      const after = url.searchParams.has('after') ? Number(url.searchParams.get('after')!.slice(3)) : log.length;
      const wait = Number(url.searchParams.get('wait') ?? 0) * 1000;
      if (log.length <= after && wait > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return send(res, 200, page(after));
    }
    if (req.method === 'POST' && url.pathname === '/v1/orders') {
      JSON.parse(body);
      const id = randomUUID();
      append('order.created', id);
      return send(res, 201, { id });
    }
    if (req.method === 'PATCH' && url.pathname.startsWith('/v1/orders/')) {
      JSON.parse(body);
      const id = url.pathname.slice('/v1/orders/'.length);
      append('order.updated', id);
      return send(res, 200, { id });
    }
    send(res, 404, { error: { code: 'not_found', message: 'bare' } });
  })();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : 0;

const agent = new Agent({ connections: 8, connectTimeout: 5_000, keepAliveTimeout: 10_000, pipelining: 1 });
let running = true;

async function pullLoop(upstreamUrl: string): Promise<void> {
  let after = 0;
  while (running) {
    try {
      const response = await request(`${upstreamUrl}/events?after=ev_${after}&limit=500&wait=25`, { dispatcher: agent, headersTimeout: 35_000, bodyTimeout: 35_000 });
      const feed = (await response.body.json()) as ReturnType<typeof page>;
      for (const event of feed.data) append(event.type, event.data.id);
      after = Number(feed.next_cursor.slice(3));
    } catch {
      if (running) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

if (config.role === 'replica') void pullLoop(config.upstreamUrl!);

answer(
  {
    cpu: () => ({ ...process.cpuUsage() }),
    /** Sends `count` changes to the upstream one after the other, as the outbox pushes them. */
    replay: async (message) => {
      const ids = message.orderIds as string[];
      const count = message.count as number;
      const started = performance.now();
      for (let i = 0; i < count; i++) {
        const response = await request(`${config.upstreamUrl!}/orders/${ids[i % ids.length]!}`, {
          method: 'PATCH',
          dispatcher: agent,
          headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          body: JSON.stringify({ status: 'en_preparacion' }),
        });
        await response.body.text();
        if (response.statusCode !== 200) throw new Error(`bare replay answered ${response.statusCode}`);
      }
      return { ms: performance.now() - started };
    },
  },
  async () => {
    running = false;
    await agent.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  },
);
tell({ type: 'ready', baseUrl: `http://127.0.0.1:${port}/v1`, port });
