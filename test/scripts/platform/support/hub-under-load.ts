// A restaurant's hub through the failover: a real replica (src/sync, on its own SQLite file, as the sync
// tests start it) of the scenario's restaurant, whose upstream is an engine node of the platform. A
// kitchen client takes orders on the hub and moves each through the kitchen (en_preparacion, listo, entregado),
// one after another at a kitchen's pace (every 8 s); the hub pushes its outbox to the node, through the fault. The
// hub answers locally, so every answer must be 201 or 200. Afterwards: its outbox drained, and its
// divergence check, run twice more after that, finds nothing and no conflict was recorded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReplicaServer, type ReplicaServer } from '../../../../src/host/start-replica-server.ts';
import type { SyncStatus } from '../../../../src/shared/sync-status.ts';
import { eventually } from '../../../support/eventually.ts';

/** Generous: the hub's own limits are not what this test is about (the node's are, on its pushes). */
const HUB_LIMITS = { perKey: { capacity: 10_000, refillPerSecond: 10_000 }, unauthenticated: { capacity: 10_000, refillPerSecond: 10_000 } };
/**
 * A kitchen's pace: an order and its two steps, then this pause. The hub pushes each change, pulls and
 * runs its divergence checks with its restaurant's hub key (`keys create --hub`: the hubs' own bucket,
 * 20 a second; until round 12 a store-front key, whose bucket refills 2 a second and which then
 * answered 429 at a faster pace). The hub has a restaurant of its own: on the store fronts'
 * restaurant its pulls ran with every one of their events.
 */
const PAUSE_BETWEEN_ORDERS_MS = 4_000;
/**
 * Its divergence check: often enough to run several times through the scenario. A check asks the
 * node about every active order (GET per order); on a store-front key, at 5 s with its orders left at
 * listo, those were answered 429 and no check completed (10 s until round 12); the orders end
 * delivered. The scenario ends with two checks after the outbox drained, so this pace is its tail.
 */
const DIVERGENCE_CHECK_MS = 5_000;

export interface HubOutcome {
  /** The customer names of the orders the hub answered 201 (each order's key). */
  orders: string[];
  steps: number;
  wrongAnswers: string[];
  status: SyncStatus;
}

export interface HubUnderLoad {
  readonly ordersTaken: number;
  /** The kitchen client stops; the hub drains its outbox and its divergence check runs twice more. */
  finish(timeoutMs: number): Promise<HubOutcome>;
  close(): Promise<void>;
}

export async function startHubUnderLoad(options: {
  upstreamUrl: string;
  apiKey: string;
  restaurant: { location: string; product: string };
  label: string;
  /** Where the hub's folder goes: the platform's state folder, so that its reaper removes it too. */
  parentDir?: string;
}): Promise<HubUnderLoad> {
  const dir = mkdtempSync(join(options.parentDir ?? tmpdir(), 'comanda-platform-hub-'));
  let hub: ReplicaServer;
  try {
    hub = await startReplicaServer({
      database: join(dir, 'hub.db'),
      upstreamUrl: options.upstreamUrl,
      apiKey: options.apiKey,
      rateLimits: HUB_LIMITS,
      logger: false,
      // The divergence check runs all along, through the fault too.
      // Reconnect probes on the kitchen's own schedule (up to 1 s apart), within the key's rate.
      sync: { pollWaitSeconds: 5, maxBackoffMs: 1_000, divergenceCheckMs: DIVERGENCE_CHECK_MS },
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const orders: string[] = [];
  const wrongAnswers: string[] = [];
  let steps = 0;
  let stopping = false;
  const call = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${hub.server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };

  async function kitchen(): Promise<void> {
    for (let sequence = 0; !stopping; sequence += 1) {
      const name = `${options.label}-hub-${sequence}`;
      const placed = await call('POST', '/orders', { location_id: options.restaurant.location, type: 'retiro', customer: { name }, items: [{ product_id: options.restaurant.product, quantity: 1 }] });
      if (placed.status !== 201) {
        wrongAnswers.push(`hub order ${name}: ${placed.status} ${placed.text.slice(0, 200)}`);
        continue;
      }
      orders.push(name);
      const id = (JSON.parse(placed.text) as { id: string }).id;
      for (const status of ['en_preparacion', 'listo', 'entregado']) {
        const moved = await call('PATCH', `/orders/${id}`, { status });
        if (moved.status !== 200) {
          wrongAnswers.push(`hub ${status} of ${name}: ${moved.status} ${moved.text.slice(0, 200)}`);
          break;
        }
        steps += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_ORDERS_MS));
    }
  }
  const running = kitchen();

  const status = async () => JSON.parse((await call('GET', '/sync/status', undefined)).text) as SyncStatus;
  return {
    get ordersTaken() {
      return orders.length;
    },
    async finish(timeoutMs) {
      stopping = true;
      await running;
      await eventually(status, "the hub's outbox drained, online", { until: (s) => s.outbox_pending === 0 && s.online, timeoutMs });
      const checks = hub.replica.checks;
      await eventually(() => hub.replica.checks, 'two more divergence checks after the drain', { until: (n) => n >= checks + 2, timeoutMs });
      return { orders: [...orders], steps, wrongAnswers, status: await status() };
    },
    async close() {
      stopping = true;
      await running;
      await hub.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
