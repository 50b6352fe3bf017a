import { mkdtempSync, rmSync } from 'node:fs';
import { after, before } from 'node:test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/engine/clock.ts';
import { seedDemo, type DemoRestaurant } from '../../src/engine/demo/seed-demo.ts';
import { startEngineServer, type EngineServer } from '../../src/host/start-engine-server.ts';
import { startReplicaServer, type ReplicaServer, type ReplicaServerOptions } from '../../src/host/start-replica-server.ts';
import type { ReconnectSchedule } from '../../src/sync/upstream-link.ts';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { FaultProxy } from '../support/fault-proxy.ts';
import { DEMO_NOW, GENEROUS_LIMITS } from '../support/engine-under-test.ts';
import { WORLDS, type World } from '../../src/shared/world.ts';

export interface Api {
  (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export function apiAt(baseUrl: () => string, key: string): Api {
  return async (method, path, body) => {
    const res = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** Probes every 20 ms while the upstream is away: tests wait no real reconnect time. */
const PROMPT_RECONNECT: ReconnectSchedule = { probeDelayMs: () => 20, probeTimeoutMs: 1_000 };

/** Every sync scenario runs with a live key and with a sandbox key: both worlds sync alike. */
export const KEY_MODES: readonly World[] = WORLDS;

/**
 * An upstream engine (restartable on its file) and a replica that reaches it through a fault
 * proxy, both on real ports and real SQLite files, sharing one manual clock. The replica holds the
 * first demo restaurant's write key of `mode`'s world.
 */
export class TwoEngines {
  readonly dir = mkdtempSync(join(tmpdir(), 'comanda-sync-'));
  readonly clock = new ManualClock(DEMO_NOW);
  upstream!: EngineServer;
  replica!: ReplicaServer;
  proxy!: FaultProxy;
  demo!: DemoRestaurant[];

  constructor(
    readonly mode: World = 'live',
    private readonly sync: ReplicaServerOptions['sync'] = {},
  ) {}

  get key(): string {
    return this.mode === 'live' ? this.demo[0]!.keys.live_write : this.demo[0]!.keys.test_write;
  }

  async start(): Promise<void> {
    await this.startUpstream();
    this.demo = await seedDemo(this.upstream.engine, this.upstream.providers.payments);
    this.proxy = new FaultProxy(this.upstream.port);
    await this.proxy.start();
    this.replica = await startReplicaServer({
      database: this.replicaDatabase,
      upstreamUrl: this.proxy.baseUrl,
      apiKey: this.key,
      clock: this.clock,
      rateLimits: GENEROUS_LIMITS,
      // The divergence check runs all along: every scenario also shows it finds no false difference.
      sync: { pollWaitSeconds: 2, maxBackoffMs: 400, reconnect: PROMPT_RECONNECT, divergenceCheckMs: 500, ...this.sync },
    });
  }

  async startUpstream(port = 0): Promise<void> {
    this.upstream = await startEngineServer({ database: this.upstreamDatabase, clock: this.clock, port, rateLimits: GENEROUS_LIMITS });
  }

  /** The upstream process goes away (its port closes) and comes back on the same file. */
  async restartUpstream(whileDown: () => Promise<void>): Promise<void> {
    await this.upstream.close();
    this.proxy.retarget(1); // nothing listens there: connections are refused
    await whileDown();
    await this.startUpstream();
    this.proxy.retarget(this.upstream.port);
  }

  get replicaDatabase(): string {
    return join(this.dir, 'replica.db');
  }

  get upstreamDatabase(): string {
    return join(this.dir, 'upstream.db');
  }

  upstreamApi(): Api {
    return apiAt(() => this.upstream.baseUrl, this.key);
  }

  replicaApi(): Api {
    return apiAt(() => this.replica.server.baseUrl, this.key);
  }

  async stop(): Promise<void> {
    await this.replica.close();
    await this.proxy.stop();
    await this.upstream.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The suite's two engines, started before its tests and stopped after them. `up` and `rep` call the
 * upstream and the replica with the replica's key (usable once started); `syncStatus` is the
 * replica's `/sync/status` body.
 */
export function twoEnginesForSuite(mode: World, sync?: ReplicaServerOptions['sync']) {
  const sys = new TwoEngines(mode, sync);
  before(async () => await sys.start());
  after(() => sys.stop());
  const up: Api = (method, path, body) => sys.upstreamApi()(method, path, body);
  const rep: Api = (method, path, body) => sys.replicaApi()(method, path, body);
  const syncStatus = async () => (await rep('GET', '/sync/status')).body;
  /** Waits until the replica is online with nothing left to push. */
  const drained = () => eventually(syncStatus, 'the outbox drained, online', { until: (s) => s.outbox_pending === 0 && s.online });
  /** Every upstream feed event after `cursor`, page by page. */
  async function feedSince(cursor: string) {
    const events: { type: string; data: any }[] = [];
    let after = cursor;
    for (;;) {
      const page = await up('GET', `/events?after=${after}&limit=500`);
      events.push(...page.body.data);
      after = page.body.next_cursor;
      if (!page.body.has_more) return events;
    }
  }
  return { sys, up, rep, syncStatus, drained, feedSince };
}

/** A one-drink pickup order for the first demo restaurant's open location. */
export const pickupOrder = (name: string) => ({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name },
  items: [{ product_id: R1.products.bebidaLata, quantity: 1 }],
});
