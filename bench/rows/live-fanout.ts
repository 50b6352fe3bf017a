// Row 10: live fan-out (issue 19). 500 live streams (125 paired screens × 4, the most one screen
// keeps) while one tablet toggles 10 items a second over /kitchen/api: GET /v1/menu p99 from a
// keyed client beside the same with no stream open (the ceiling), and the longest gap between two
// heartbeats on any stream (screens call themselves stale after three missed, 6 s).
import { request, type ClientRequest } from 'node:http';
import { R1 } from '../../test/support/demo-ids.ts';
import { Engine } from '../../src/engine/engine.ts';
import { createPairingCode, pairWithCode } from '../../src/engine/services/kitchen/kitchen-devices.ts';
import { spawnChild } from '../lib/child.ts';
import { authorization, copyOfDatabase, removeDatabase, underTest, type BenchContext } from '../lib/context.ts';
import { runLoad } from '../lib/load.ts';
import { figure, type Figure } from '../lib/report.ts';
import { sleep } from '../lib/stats.ts';

const SCREENS = 125;
const STREAMS_PER_SCREEN = 4;

interface Watched {
  request: ClientRequest;
  heartbeats: number[];
  events: number;
}

function watch(port: number, cookie: string): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/kitchen/live', headers: { host: `127.0.0.1:${port}`, cookie } });
    const watched: Watched = { request: req, heartbeats: [], events: 0 };
    req.on('response', (response) => {
      if (response.statusCode !== 200) reject(new Error(`live stream: ${response.statusCode}`));
      response.setEncoding('utf8');
      let pending = '';
      response.on('data', (chunk: string) => {
        pending += chunk;
        const messages = pending.split('\n\n');
        pending = messages.pop()!;
        for (const message of messages) {
          if (message.includes('"kind":"heartbeat"')) watched.heartbeats.push(performance.now());
          else if (message.includes('"kind":"events"')) watched.events++;
        }
      });
      response.on('error', () => {});
      resolve(watched);
    });
    req.on('error', (error) => (watched.heartbeats.length === 0 ? reject(error) : undefined));
    req.end();
  });
}

/** One tablet's taps: POST /kitchen/api/items:set-done, as its page sends them. */
function tap(port: number, cookie: string, body: unknown): Promise<number> {
  return new Promise((resolve) => {
    const text = JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/kitchen/api/items:set-done',
        headers: { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin', cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(text);
  });
}

export async function benchLiveFanout(context: BenchContext): Promise<Figure[]> {
  const database = copyOfDatabase(context);
  const cookies: string[] = [];
  {
    const engine = new Engine({ database });
    try {
      for (let i = 0; i <= SCREENS; i++) {
        const offer = await createPairingCode(engine, { restaurantId: context.prepared.restaurantId, origin: 'http://127.0.0.1' });
        cookies.push(`comanda_device=${(await pairWithCode(engine, offer.code)).token}`);
      }
    } finally {
      engine.close();
    }
  }
  const tablet = cookies.pop()!;
  const child = await spawnChild('engine', { database, kitchen: true }, underTest(context, 'row10'));
  const idle: number[] = [];
  const loaded: number[] = [];
  const gaps: number[] = [];
  let taps = 0;
  let refusedTaps = 0;
  let eventsSeen = 0;
  const streams: Watched[] = [];
  try {
    const baseUrl = child.ready.baseUrl as string;
    const port = child.ready.port as number;
    const menu = `${baseUrl}/menu?location_id=${R1.openLocation}`;
    const headers = authorization(context.prepared.keys.live_read);
    const load = () => runLoad({ url: menu, headers, connections: 4, durationSeconds: context.seconds });
    if (context.warmupSeconds > 0) await runLoad({ url: menu, headers, connections: 4, durationSeconds: context.warmupSeconds });
    for (let run = 0; run < context.runs; run++) idle.push((await load()).p99);

    const created = await fetch(`${baseUrl}/orders`, {
      method: 'POST',
      headers: { ...authorization(context.prepared.keys.live_write), 'content-type': 'application/json' },
      body: JSON.stringify({
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Bench fan-out' },
        items: Array.from({ length: 10 }, () => ({ product_id: R1.products.cazuela, quantity: 1 })),
      }),
    });
    if (created.status !== 201) throw new Error(`POST /orders: ${created.status} ${await created.text()}`);
    const orderId = ((await created.json()) as { id: string }).id;

    for (const cookie of cookies) for (let s = 0; s < STREAMS_PER_SCREEN; s++) streams.push(await watch(port, cookie));
    context.log(`  ${streams.length} live streams open`);
    // The tablet: 10 items a second, each toggled in turn.
    let tapping = true;
    const done = new Array<boolean>(10).fill(false);
    const tapper = (async () => {
      const started = performance.now();
      for (let i = 0; tapping; i++) {
        const item = i % 10;
        done[item] = !done[item];
        const status = await tap(port, tablet, { order_id: orderId, item_index: item, done: done[item] });
        taps++;
        if (status !== 200) refusedTaps++;
        const next = started + (i + 1) * 100;
        await sleep(Math.max(0, next - performance.now()));
      }
    })();
    const windowStart = performance.now();
    for (let run = 0; run < context.runs; run++) loaded.push((await load()).p99);
    // Heartbeats are watched for at least 30 s in a full run, several periods whatever the load's length (the smoke run: 6 s, three periods).
    await sleep(Math.max(0, windowStart + (context.quick ? 6_000 : 30_000) - performance.now()));
    tapping = false;
    await tapper;
    const windowEnd = performance.now();
    for (const stream of streams) {
      const beats = stream.heartbeats.filter((t) => t >= windowStart && t <= windowEnd);
      let worst = 0;
      for (let i = 1; i < beats.length; i++) worst = Math.max(worst, beats[i]! - beats[i - 1]!);
      if (beats.length > 0) worst = Math.max(worst, beats[0]! - windowStart, windowEnd - beats.at(-1)!);
      gaps.push(worst);
      eventsSeen += stream.events;
    }
  } finally {
    for (const stream of streams) stream.request.destroy();
    await child.stop();
    removeDatabase(database);
  }
  const worstGap = Math.max(...gaps);
  context.log(
    `  GET /v1/menu p99 idle ${idle.map((v) => v.toFixed(1)).join(', ')} ms; with ${streams.length} streams and the tablet ${loaded.map((v) => v.toFixed(1)).join(', ')} ms; ${taps} taps (${refusedTaps} refused); longest heartbeat gap ${worstGap.toFixed(0)} ms; ${eventsSeen} event messages received`,
  );
  return [
    figure(
      {
        row: 10,
        name: `GET /v1/menu p99, ${streams.length} live streams + a tablet toggling 10 items/s (ceiling: no streams)`,
        unit: 'ms',
        better: 'lower',
        note: `${SCREENS} paired screens × ${STREAMS_PER_SCREEN} streams; ${taps} taps over /kitchen/api, ${refusedTaps} refused; 4 connections on /v1/menu`,
      },
      { ours: loaded, ceiling: idle },
      (ours) => ({ text: '≤ 100 ms', met: ours <= 100 }),
    ),
    figure(
      { row: 10, name: `Longest heartbeat gap on any of ${streams.length} live streams meanwhile`, unit: 'ms', better: 'lower', note: 'heartbeat every 2,000 ms; screens say "stale" after 6,000 ms' },
      { ours: [worstGap], ceiling: [] },
      (ours) => ({ text: '≤ 3,000 ms', met: ours <= 3000 }),
    ),
  ];
}
