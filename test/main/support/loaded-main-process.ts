// A stand-in for the app's main process, to measure it: the engine host (SQLite, HTTP API, demo),
// the IPC handlers and the live feed exactly as src/main wires them, plus an event-loop delay
// histogram and a probe that makes kitchen IPC calls on a timer and times them. Run as a child
// process; it answers the parent's messages: {cmd:'reset'} and {cmd:'report'}, {cmd:'stop'}.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createScreenHandlers } from '../../../src/main/channel-handlers.ts';
import { dispatchScreenCall } from '../../../src/engine/screen/dispatch.ts';
import { startLiveFeed } from '../../../src/engine/screen/live-feed.ts';
import { memoryPlatformKey, memorySettings } from './memory-ports.ts';
import { STANDALONE_STATUS } from '../../../src/engine/screen/live-hub.ts';
import { createApiKey } from '../../../src/engine/services/keys/api-keys.ts';
import { DEFAULT_SETTINGS } from '../../../src/shared/screen-contract/settings.ts';
import { startEngineHost } from '../../../src/main/engine-host.ts';

const GENEROUS = { perKey: { capacity: 1e9, refillPerSecond: 1e9 }, unauthenticated: { capacity: 1e9, refillPerSecond: 1e9 } };

const dataDir = mkdtempSync(join(tmpdir(), 'comanda-load-'));
const host = await startEngineHost({ dataDir, settings: { ...DEFAULT_SETTINGS, http: { port: 0 + 47_500 + (process.pid % 1000), lan: false } }, rateLimits: GENEROUS });
const engine = host.server.engine;
const key = (await createApiKey(engine, { restaurantId: host.restaurantId, world: 'live', write: true, label: 'load' })).key;
const settings = memorySettings();
const handlers = createScreenHandlers({
  engine,
  commands: host.server.commands,
  printers: host.server.providers.printers,
  restaurantId: host.restaurantId,
  settings,
  platformKey: memoryPlatformKey(),
  host: { appInfo: () => { throw new Error('unused'); }, connectionStatus: () => STANDALONE_STATUS, syncStatus: async () => null, backupFolder: () => null },
});
let pushes = 0;
let pushedEvents = 0;
const feed = await startLiveFeed({
  engine,
  restaurantId: host.restaurantId,
  send: (push) => {
    pushes++;
    if (push.kind === 'events') pushedEvents += push.events.length;
    // What webContents.send costs in main: serializing the message.
    JSON.stringify(push);
  },
  connectionStatus: () => STANDALONE_STATUS,
});

const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
let ipcLatencies: number[] = [];
let ipcCalls = 0;
// The kitchen screen's calls, every 50 ms: a stock write (the same path as a cook's +/−) in turn
// with a stock read. Timed from when they were due, so time spent waiting behind HTTP work counts.
const LOCATION = '11000000-0000-4000-8000-000000000001';
const PASTEL = '13000000-0000-4000-8000-000000000007';
const probe = setInterval(() => {
  const due = performance.now();
  setImmediate(async () => {
    const write = ipcCalls++ % 2 === 0;
    const result = write
      ? await dispatchScreenCall(handlers, 'stock:set', { location_id: LOCATION, world: 'live', items: [{ product_id: PASTEL, quantity: 50 + (ipcCalls % 7) }] })
      : await dispatchScreenCall(handlers, 'stock:read', { location_id: LOCATION, world: 'live' });
    if (!result.ok) throw new Error(result.error.message);
    ipcLatencies.push(performance.now() - due);
  });
}, 50);

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (ns: number) => Math.round((ns / 1e6) * 100) / 100;

/** One board snapshot (what the screen reads at start and every few minutes), timed, with its size. */
function timeSnapshot() {
  const started = performance.now();
  const board = handlers['board:snapshot']({}) as { tickets: unknown[] };
  const readMs = performance.now() - started;
  const bytes = JSON.stringify(board).length;
  return { tickets: board.tickets.length, read_ms: Math.round(readMs * 10) / 10, total_ms: Math.round((performance.now() - started) * 10) / 10, bytes };
}

process.on('message', (message: { cmd: string }) => {
  if (message.cmd === 'reset') {
    loop.reset();
    ipcLatencies = [];
    pushes = 0;
    pushedEvents = 0;
    process.send!({ ok: true });
  } else if (message.cmd === 'report') {
    process.send!({
      loop_delay_ms: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
      ipc_ms: {
        calls: ipcLatencies.length,
        p50: Math.round(percentile(ipcLatencies, 50) * 100) / 100,
        p99: Math.round(percentile(ipcLatencies, 99) * 100) / 100,
        max: Math.round(Math.max(0, ...ipcLatencies) * 100) / 100,
      },
      snapshot: timeSnapshot(),
      live_pushes: pushes,
      live_events: pushedEvents,
      orders: (engine.db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n,
    });
  } else if (message.cmd === 'stop') {
    clearInterval(probe);
    feed.stop();
    void host.close().then(() => process.exit(0));
  }
});

process.send!({ ready: true, base_url: host.server.baseUrl, key, restaurant_id: host.restaurantId });
