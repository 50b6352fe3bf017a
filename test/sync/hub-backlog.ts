// Issue 35: a hub's key spends a rate budget of its own. A hub (a restaurant's replica) that comes back
// from an outage pushes its whole backlog, one request a change besides its pulls; on the store fronts'
// per-key budget (120 at once) a backlog of 160 changes would be refused with 429 half-way. The
// upstream here runs the platform's real limits on a manual clock that never moves, so no bucket
// refills: a hub refused once would stay refused, and a drained outbox means it never was. The
// scenarios, on SQLite (hub-key-budget.test.ts) and PostgreSQL (hub-key-budget-postgres.e2e.test.ts).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/engine/clock.ts';
import { seedDemo } from '../../src/engine/demo/seed-demo.ts';
import { DEFAULT_RATE_LIMITS } from '../../src/engine/http/build-http-api.ts';
import { createApiKey } from '../../src/engine/services/keys/api-keys.ts';
import { startEngineServer, type EngineServer } from '../../src/host/start-engine-server.ts';
import { startReplicaServer, type ReplicaServer } from '../../src/host/start-replica-server.ts';
import { DEMO_NOW, GENEROUS_LIMITS } from '../support/engine-under-test.ts';
import { startPostgresEnginesUnderTest } from '../support/postgres-engine-under-test.ts';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { FaultProxy } from '../support/fault-proxy.ts';
import { apiAt, pickupOrder } from './two-engines.ts';

/** Orders taken on the hub while its upstream is away, each created and moved three times. */
const BACKLOG_ORDERS = 40;
const BACKLOG_CHANGES = BACKLOG_ORDERS * 4;

export interface Upstream {
  server: EngineServer;
  clock: ManualClock;
  /** The demo's first restaurant's write key: a store front's. */
  storeFrontKey: string;
  stop(): Promise<void>;
}

export async function sqliteUpstream(): Promise<Upstream> {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-hub-budget-'));
  const clock = new ManualClock(DEMO_NOW);
  const server = await startEngineServer({ database: join(dir, 'upstream.db'), clock, rateLimits: DEFAULT_RATE_LIMITS });
  const demo = await seedDemo(server.engine, server.providers.payments);
  return {
    server,
    clock,
    storeFrontKey: demo[0]!.keys.live_write,
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function postgresUpstream(): Promise<Upstream> {
  const [node] = await startPostgresEnginesUnderTest({ rateLimits: DEFAULT_RATE_LIMITS });
  return { server: node!.server, clock: node!.clock, storeFrontKey: node!.demo[0]!.keys.live_write, stop: () => node!.stop() };
}

/**
 * A hub on `key` whose upstream goes away, takes the backlog's orders locally, and comes back.
 * Returns the hub's API and its sync status reader; the caller waits for what it expects.
 */
async function hubWithBacklog(upstream: Upstream, key: string, dir: string) {
  const proxy = new FaultProxy(upstream.server.port);
  await proxy.start();
  const replica: ReplicaServer = await startReplicaServer({
    database: join(dir, `hub-${Math.random().toString(36).slice(2)}.db`),
    upstreamUrl: proxy.baseUrl,
    apiKey: key,
    clock: upstream.clock,
    rateLimits: GENEROUS_LIMITS,
    sync: { pollWaitSeconds: 2, maxBackoffMs: 400, reconnect: { probeDelayMs: () => 20, probeTimeoutMs: 1_000 } },
  });
  const hub = apiAt(() => replica.server.baseUrl, key);
  const syncStatus = async () => (await hub('GET', '/sync/status')).body;
  proxy.set({ kind: 'refuse' });
  await eventually(syncStatus, 'the hub to see its upstream gone', { until: (s) => s.online === false });
  for (let i = 0; i < BACKLOG_ORDERS; i++) {
    const created = await hub('POST', '/orders', pickupOrder(`Backlog ${i}`));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    for (const status of ['en_preparacion', 'listo', 'entregado']) {
      assert.equal((await hub('PATCH', `/orders/${created.body.id}`, { status })).status, 200);
    }
  }
  assert.equal((await syncStatus()).outbox_pending, BACKLOG_CHANGES, 'the backlog is waiting');
  proxy.set({ kind: 'pass' });
  return {
    syncStatus,
    async stop() {
      await replica.close();
      await proxy.stop();
    },
  };
}

export function hubBudgetScenarios(database: 'sqlite' | 'postgres', start: () => Promise<Upstream>): void {
  describe(`a hub's own rate budget (${database})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'comanda-hub-budget-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    // A safety net, not a speed bound: a loaded machine pushes the backlog later.
    test(`a hub key pushes a backlog of ${BACKLOG_CHANGES} changes without a 429; a store front's key is still limited`, { timeout: 240_000 }, async () => {
      const upstream = await start();
      try {
        const created = await createApiKey(upstream.server.engine, { restaurantId: R1.id, world: 'live', write: true, label: 'hub', kind: 'hub' });
        assert.equal(created.record.kind, 'hub');
        const hub = await hubWithBacklog(upstream, created.key, dir);
        try {
          const status = await eventually(hub.syncStatus, 'the backlog pushed', { until: (s) => s.outbox_pending === 0 && s.online, timeoutMs: 200_000 });
          assert.equal(status.conflicts.length, 0);
          const platform = apiAt(() => upstream.server.baseUrl, upstream.storeFrontKey);
          const delivered = (await platform('GET', '/orders?status=entregado&limit=100')).body.data.filter((o: any) => o.customer.name.startsWith('Backlog '));
          assert.equal(delivered.length, BACKLOG_ORDERS, 'every order of the backlog is on the platform, delivered');
        } finally {
          await hub.stop();
        }
        // The hub's budget is its own and still far from spent: the platform says so to the hub's key.
        const hubAsks = await fetch(`${upstream.server.baseUrl}/locations`, { headers: { authorization: `Bearer ${created.key}` } });
        assert.equal(hubAsks.status, 200);
        assert.equal(hubAsks.headers.get('ratelimit-limit'), String(DEFAULT_RATE_LIMITS.perHubKey.capacity));
        assert.ok(Number(hubAsks.headers.get('ratelimit-remaining')) > DEFAULT_RATE_LIMITS.perKey.capacity, 'the hub spent less than a store front may');
        // A store front's key is limited as before: its 121st request at once is refused.
        const storeFront = async () => await fetch(`${upstream.server.baseUrl}/locations`, { headers: { authorization: `Bearer ${upstream.storeFrontKey}` } });
        let answered = 0;
        let refused: Response | null = null;
        for (let i = 0; i <= DEFAULT_RATE_LIMITS.perKey.capacity && !refused; i++) {
          const response = await storeFront();
          await response.arrayBuffer();
          if (response.status === 429) refused = response;
          else answered++;
        }
        assert.ok(refused, 'a store front is refused past its budget');
        assert.ok(Number(refused.headers.get('retry-after')) >= 1);
        // Its earlier requests above (reading the orders) spent from the same bucket.
        assert.ok(answered <= DEFAULT_RATE_LIMITS.perKey.capacity);
      } finally {
        await upstream.stop();
      }
    });

    if (database === 'sqlite') {
      test("the control: the same backlog on a store front's key is refused with 429 half-way and stays behind", { timeout: 240_000 }, async () => {
        const upstream = await start();
        try {
          const hub = await hubWithBacklog(upstream, upstream.storeFrontKey, dir);
          try {
            const status = await eventually(hub.syncStatus, 'a push refused for the rate', { until: (s) => /429|rate/i.test(String(s.last_error)), timeoutMs: 200_000 });
            assert.ok(status.outbox_pending > 0, 'changes left behind');
          } finally {
            await hub.stop();
          }
        } finally {
          await upstream.stop();
        }
      });
    }
  });
}

