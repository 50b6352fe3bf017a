// The ceiling of Node's HTTP stack here: a bare node:http server answering fixed bytes from memory.
import { createServer } from 'node:http';
import BetterSqlite3 from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { answer, childConfig, tell } from '../lib/child.ts';

interface Config {
  /** The response: status, headers and body exactly as the engine sent them. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Also open this SQLite file as the engine does (the start-up and memory floor of row 4). */
  database?: string;
}

const config = childConfig<Config>();
const startAt = performance.now();
const db = config.database ? new BetterSqlite3(config.database) : null;
if (db) {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
}
const body = Buffer.from(config.body);
const headers = { ...config.headers, 'content-length': String(body.length) };
const server = createServer((request, response) => {
  // Read the request to its end, as any server must, then answer the same bytes.
  request.resume();
  request.on('end', () => {
    response.writeHead(config.status, headers);
    response.end(body);
  });
});
server.keepAliveTimeout = 5_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const readyAt = performance.now();
const address = server.address();
answer({ rss: () => ({ rss: process.memoryUsage().rss }), memory: () => ({ ...process.memoryUsage() }), cpu: () => ({ ...process.cpuUsage() }) }, async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  db?.close();
});
tell({
  type: 'ready',
  port: typeof address === 'object' && address ? address.port : 0,
  startMs: readyAt - startAt,
  rss: process.memoryUsage().rss,
});
