// Row 4: the engine's start-up to ready on 100,000 orders, and its resident memory after a load,
// against a bare process that opens the same SQLite file and listens with node:http.
import { spawnChild, type Child } from '../lib/child.ts';
import { authorization, underTest, type BenchContext } from '../lib/context.ts';
import { runLoad } from '../lib/load.ts';
import { figure, type Figure } from '../lib/report.ts';

const MB = 1024 * 1024;

export async function benchStartup(context: BenchContext): Promise<Figure[]> {
  const headers = authorization(context.prepared.keys.live_read);
  const paths = ['/v1/orders?limit=20', ...context.prepared.sampleOrderIds.slice(0, 200).map((id) => `/v1/orders/${id}`)];
  const loadSeconds = context.quick ? 1 : 3;
  const history = `${Math.round(context.prepared.orders / 1000)}k orders`;
  const start = { ours: [] as number[], ceiling: [] as number[] };
  const rss = { ours: [] as number[], ceiling: [] as number[] };
  const rssAtReady: number[] = [];
  const sinceProcessStart: number[] = [];
  let body = '';
  const loadThenRss = async (child: Child, url: string): Promise<number> => {
    await runLoad({ url, paths, headers, durationSeconds: loadSeconds });
    return ((await child.ask({ type: 'rss' })).rss as number) / MB;
  };
  for (let run = 0; run < context.runs; run++) {
    const engine = await spawnChild('engine', { database: context.prepared.path }, underTest(context, 'row4'));
    try {
      start.ours.push(engine.ready.startMs as number);
      sinceProcessStart.push(engine.ready.sinceProcessStartMs as number);
      rssAtReady.push((engine.ready.rss as number) / MB);
      if (body === '') body = await (await fetch(`${engine.ready.baseUrl as string}/orders?limit=20`, { headers })).text();
      rss.ours.push(await loadThenRss(engine, `http://127.0.0.1:${engine.ready.port as number}/`));
    } finally {
      await engine.stop();
    }
    const bare = await spawnChild('bare-http', {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body,
      database: context.prepared.path,
    });
    try {
      start.ceiling.push(bare.ready.startMs as number);
      rss.ceiling.push(await loadThenRss(bare, `http://127.0.0.1:${bare.ready.port as number}/`));
    } finally {
      await bare.stop();
    }
    context.log(`  run ${run + 1}: ready in ${start.ours.at(-1)!.toFixed(0)} ms, ${rss.ours.at(-1)!.toFixed(0)} MB after load`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return [
    figure(
      {
        row: 4,
        name: `Engine start-up to ready (${history})`,
        unit: 'ms',
        better: 'lower',
        note: `startEngineServer() to listening, modules loaded; from the process's start (Node boot and the bundled modules included): ${median(sinceProcessStart).toFixed(0)} ms. Ceiling: open the same file with better-sqlite3 and listen with node:http`,
      },
      start,
      (value) => ({ text: '< 500 ms', met: value < 500 }),
    ),
    figure(
      {
        row: 4,
        name: `Engine RSS after load (${history})`,
        unit: 'MB',
        better: 'lower',
        note: `after ${loadSeconds} s of GET /orders and /orders/{id}; ${median(rssAtReady).toFixed(0)} MB at ready. Ceiling: the bare process, same load`,
      },
      rss,
      (value) => ({ text: '< 150 MB', met: value < 150 }),
    ),
  ];
}
