import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScreenHandlers } from '../../src/main/channel-handlers.ts';
import { memorySettings, memoryPlatformKey } from './support/memory-ports.ts';
import { startEngineHost, type EngineHost } from '../../src/main/engine-host.ts';
import { DEFAULT_SETTINGS } from '../../src/shared/screen-contract/settings.ts';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { GENEROUS_LIMITS, startEngineUnderTest, type EngineUnderTest } from '../support/engine-under-test.ts';

let up: EngineUnderTest;
const hosts: EngineHost[] = [];
const dataDirs: string[] = [];
/** A data folder for one host, removed after the file's tests. */
function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-host-'));
  dataDirs.push(dir);
  return dir;
}

before(async () => {
  up = await startEngineUnderTest();
});
after(async () => {
  for (const host of hosts) await host.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  await up.stop();
});

const settings = { ...DEFAULT_SETTINGS, http: { port: 0, lan: false }, connection: { mode: 'connected' as const, platform_url: null } };

test('connected mode: the app runs a replica of the platform and reports its sync status over IPC', async () => {
  const host = await startEngineHost({
    dataDir: newDataDir(),
    settings,
    connection: { platformUrl: up.baseUrl, apiKey: up.demo[0]!.keys.live_write },
    rateLimits: GENEROUS_LIMITS,
  });
  hosts.push(host);
  assert.match(host.databasePath, /comanda-replica\.db$/);
  assert.equal(host.server.engine.role, 'replica');
  const status = await host.connectionStatus();
  assert.equal(status.mode, 'connected');
  assert.equal(status.online, true);
  assert.equal(status.error, null);
  assert.equal(typeof status.last_sync_at, 'number');

  const handlers = createScreenHandlers({
    engine: host.server.engine,
    commands: host.server.commands,
    printers: host.server.providers.printers,
    restaurantId: host.restaurantId,
    settings: memorySettings(settings),
    platformKey: memoryPlatformKey(),
    bootSettings: settings,
    log: () => undefined,
    host: { appInfo: () => { throw new Error('unused'); }, connectionStatus: async () => await host.connectionStatus(), syncStatus: async () => await host.syncStatus(), backupFolder: () => null },
  });

  // A kitchen tap goes through the replica's commands: applied here, queued, pushed upstream.
  const created = await up.call('POST', '/orders', {
    body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'App' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
  });
  await eventually(async () => await host.server.engine.stores.orders.getById(created.body.id), 'the order in the replica’s database', { until: (row) => row !== undefined });
  const moved = await handlers['orders:transition']({ order_id: created.body.id, target: 'en_preparacion' });
  assert.equal(moved.order.status, 'en_preparacion');
  await eventually(() => up.call('GET', `/orders/${created.body.id}`), 'en_preparacion upstream', { until: (r) => r.body.status === 'en_preparacion' });
  assert.equal((await up.call('GET', `/orders/${created.body.id}`)).body.status, 'en_preparacion');

  const sync = await handlers['sync:status']({});
  assert.ok(sync !== null);
  assert.equal(sync.outbox_pending, 0);
  assert.deepEqual(sync.conflicts, []);
  assert.equal(sync.upstream, up.baseUrl);
  assert.equal(JSON.stringify(sync).includes(up.demo[0]!.keys.live_write), false, 'the key never reaches the screen');
});

test('a refused key: the kitchen opens on the local restaurant and the status says why', async () => {
  const host = await startEngineHost({
    dataDir: newDataDir(),
    settings,
    connection: { platformUrl: up.baseUrl, apiKey: 'cm_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    rateLimits: GENEROUS_LIMITS,
  });
  hosts.push(host);
  assert.equal(host.server.engine.role, 'standalone');
  assert.match(host.databasePath, /comanda\.db$/);
  const status = await host.connectionStatus();
  assert.equal(status.mode, 'connected');
  assert.equal(status.online, false);
  assert.match(status.error ?? '', /refused the API key.*showing the local restaurant instead/);
  assert.equal(await host.syncStatus(), null);
});
