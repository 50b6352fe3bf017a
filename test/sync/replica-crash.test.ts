import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/engine/clock.ts';
import { seedDemo, type DemoRestaurant } from '../../src/engine/demo/seed-demo.ts';
import { startEngineServer, type EngineServer } from '../../src/host/start-engine-server.ts';
import { R1 } from '../support/demo-ids.ts';
import { DEMO_NOW, GENEROUS_LIMITS } from '../support/engine-under-test.ts';
import { FaultProxy } from '../support/fault-proxy.ts';
import { eventually } from '../support/eventually.ts';
import { apiAt, KEY_MODES, type Api } from './two-engines.ts';
import type { World } from '../../src/shared/world.ts';

function scenario(mode: World): void {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-replica-crash-'));
  let upstream: EngineServer;
  let demo: DemoRestaurant[];
  let proxy: FaultProxy;
  let child: ChildProcess | null = null;
  let replicaBase = '';
  const key = () => (mode === 'live' ? demo[0]!.keys.live_write : demo[0]!.keys.test_write);

  /** `npm run serve -- --upstream …` as its own process, so it can be killed for real. */
  async function startReplicaProcess(): Promise<void> {
    const proc = spawn(
      join(process.cwd(), 'node_modules/.bin/node'),
      ['--import', 'tsx', 'src/cli/serve.ts', '--upstream', proxy.baseUrl, '--port', '0', '--db', join(dir, 'replica.db')],
      { env: { ...process.env, COMANDA_UPSTREAM_KEY: key(), LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    let stderr = '';
    proc.stderr!.on('data', (chunk) => (stderr += chunk));
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: proc.stdout! }).once('line', resolve);
      proc.once('exit', (code) => reject(new Error(`replica exited ${code}: ${stderr}`)));
    });
    const started = JSON.parse(line) as { base_url: string; upstream: string; world: string };
    assert.equal(started.upstream, proxy.baseUrl);
    assert.equal(started.world, mode);
    replicaBase = started.base_url;
  }

  before(async () => {
    upstream = await startEngineServer({ database: join(dir, 'upstream.db'), clock: new ManualClock(DEMO_NOW), rateLimits: GENEROUS_LIMITS });
    demo = await seedDemo(upstream.engine, upstream.providers.payments);
    proxy = new FaultProxy(upstream.port);
    await proxy.start();
    await startReplicaProcess();
  });

  after(async () => {
    child?.kill('SIGKILL');
    await proxy.stop();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Sixty writes over HTTP, a replay through a slowed proxy and a second serve child (Node and tsx):
  // 5 to 8 s quiet on 2 cores, ten times that at load 30, past the fast tier's 60 s.
  test('the replica killed with -9 in the middle of a push resumes without loss or duplicates', { timeout: 240_000 }, async () => {
    const rep: Api = apiAt(() => replicaBase, key());
    const up: Api = apiAt(() => upstream.baseUrl, key());
    const status = async () => (await rep('GET', '/sync/status')).body;
    const cursor = (await up('GET', '/events')).body.next_cursor;

    proxy.set({ kind: 'refuse' });
    await eventually(status, 'the replica to see the upstream gone', { until: (s) => s.online === false });
    const names: string[] = [];
    for (let i = 0; i < 15; i++) {
      const name = `Crash ${i}`;
      names.push(name);
      const order = await rep('POST', '/orders', {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name },
        items: [{ product_id: R1.products.cazuela, quantity: 1 }],
      });
      assert.equal(order.status, 201, JSON.stringify(order.body));
      for (const target of ['en_preparacion', 'listo', 'entregado']) {
        assert.equal((await rep('PATCH', `/orders/${order.body.id}`, { status: target })).status, 200);
      }
    }
    assert.equal((await status()).outbox_pending, 60);

    // Each exchange now crawls, so the kill lands in the middle of the replay.
    proxy.set({ kind: 'delay', ms: 15 });
    const midway = await eventually(status, 'part of the outbox pushed', { until: (s) => s.outbox_pending < 45, timeoutMs: 60_000 });
    assert.ok(midway.outbox_pending < 45 && midway.outbox_pending > 0, JSON.stringify(midway));
    child!.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));

    proxy.set({ kind: 'pass' });
    await startReplicaProcess();
    const done = await eventually(status, 'the outbox drained', { until: (s) => s.outbox_pending === 0, timeoutMs: 60_000 });
    assert.equal(done.outbox_pending, 0, JSON.stringify(done));
    assert.deepEqual(done.conflicts, []);

    const orders = (await up('GET', '/orders?limit=100')).body.data as { customer: { name: string }; status: string }[];
    const events = [] as { type: string; data: { customer: { name: string }; status: string } }[];
    let after = cursor;
    for (;;) {
      const page = await up('GET', `/events?after=${after}&limit=500`);
      events.push(...page.body.data);
      after = page.body.next_cursor;
      if (!page.body.has_more) break;
    }
    for (const name of names) {
      assert.equal(orders.filter((o) => o.customer.name === name).length, 1, `${name} exists once`);
      const history = events.filter((e) => e.type.startsWith('order.') && e.data.customer.name === name).map((e) => e.data.status);
      assert.deepEqual(history, ['recibido', 'en_preparacion', 'listo', 'entregado'], name);
    }
  });
}

for (const mode of KEY_MODES) describe(`replica crash, ${mode} key`, () => scenario(mode));
