// The storage-level failover scenario of failover.e2e.test.ts, once per fault: a restaurant of its
// own (so each scenario's feed starts at 1 and its counts are its own), two engine nodes
// (engine-node.ts) on the platform's write port, six store-front clients and a feed reader per node
// (store-fronts.ts); orders before the fault, the fault, orders after it; then what the leader holds
// against what was answered. The test asserts on what this returns.
import { loadavg } from 'node:os';
import type pg from 'pg';
import type { PlatformLayout } from '../../../../scripts/platform/layout.ts';
import { eventually } from '../../../support/eventually.ts';
import { longestGap } from '../../../support/order-writers.ts';
import { explainingFailure } from '../../../support/platform-diagnosis.ts';
import { startEngineNode, type EngineNode, type EngineNodeSeed } from './engine-node.ts';
import { startStoreFronts, type StoreFrontReport } from './store-fronts.ts';

export const STOCK = 100_000;

function seedOf(label: string): EngineNodeSeed {
  return { restaurant: `r-${label}`, location: `l-${label}`, product: `p-${label}`, apiKey: `k-${label}`, at: Date.parse('2026-11-28T23:00:00Z') };
}

function seedSql(seed: EngineNodeSeed): string {
  return `
  INSERT INTO restaurants (id, name, register_mode, created_at) VALUES ('${seed.restaurant}', 'Uno', 'manual', 0);
  INSERT INTO locations (id, restaurant_id, name, address) VALUES ('${seed.location}', '${seed.restaurant}', 'Local', 'Calle 1');
  INSERT INTO categories (id, restaurant_id, name) VALUES ('c-${seed.restaurant}', '${seed.restaurant}', 'Platos');
  INSERT INTO products (id, restaurant_id, category_id, slug, name, price, track_stock) VALUES ('${seed.product}', '${seed.restaurant}', 'c-${seed.restaurant}', 'completo', 'Completo', 2500, 1);
  INSERT INTO stock (location_id, product_id, quantity) VALUES ('${seed.location}', '${seed.product}', ${STOCK});
  INSERT INTO api_keys (id, restaurant_id, lookup, salt, hash, world, can_write, last4, created_at)
    VALUES ('${seed.apiKey}', '${seed.restaurant}', 'lookup-${seed.apiKey}', '\\x00'::bytea, '\\x00'::bytea, 'live', 1, 'abcd', 0);`;
}

export interface EngineNodesOutcome {
  report: StoreFrontReport;
  /** Keys answered 201 whose order (with the id answered) is not on the leader. */
  lost: string[];
  /** Keys with more than one order. */
  doubled: string[];
  /** Orders on the leader whose key no client saw answered. */
  unanswered: string[];
  orders: number;
  created: number;
  stock: number;
  events: number;
  /** What each node's database counts of the nodes' LISTEN connections once they are back. */
  listening: number[];
  unavailableMs: number;
  figure: string;
}

export async function engineNodesUnderLoad(options: {
  layout: PlatformLayout;
  admin: pg.Pool;
  connectionString: string;
  label: string;
  clock: () => number;
  ordersAroundTheFault: number;
  recoveryTimeoutMs: number;
  inject: () => Promise<void>;
}): Promise<EngineNodesOutcome> {
  const { admin, clock, label } = options;
  const seed = seedOf(label);
  await admin.query(seedSql(seed));
  const nodes: EngineNode[] = [];
  try {
    nodes.push(await startEngineNode(options.connectionString, 'node-a', seed), await startEngineNode(options.connectionString, 'node-b', seed));
    const fronts = startStoreFronts({ nodes, clientsPerNode: 3, label, clock });
    let report: StoreFrontReport;
    let faultAt = 0;
    try {
      await eventually(() => fronts.acknowledged.length, 'orders before the fault', { until: (count) => count >= options.ordersAroundTheFault, timeoutMs: 60_000 });
      faultAt = clock();
      await options.inject();
      await explainingFailure(options.layout, undefined, clock, () =>
        eventually(() => fronts.acknowledged.filter((ack) => ack.at > faultAt).length, 'orders to resume after the fault', {
          until: (count) => count >= options.ordersAroundTheFault,
          timeoutMs: options.recoveryTimeoutMs,
        }),
      );
      await fronts.stopOrders();
      const lastSeq = Number((await admin.query('SELECT last_event_seq FROM restaurant_clocks WHERE restaurant_id = $1', [seed.restaurant])).rows[0]?.last_event_seq ?? 0);
      await eventually(() => fronts.cursors(), "each node's feed reader caught up", { until: (cursors) => [...cursors.values()].every((cursor) => cursor >= lastSeq), timeoutMs: 60_000 });
    } finally {
      report = await fronts.stop();
    }
    // Each node's LISTEN connection back on the leader: the database counts both nodes.
    const listening = await Promise.all(
      nodes.map((node) =>
        eventually(async () => ((await (await fetch(`${node.baseUrl}/nodes`)).json()) as { nodes: number }).nodes, `${node.nodeId} counting both LISTEN connections`, {
          until: (count) => count === 2,
          timeoutMs: 60_000,
        }),
      ),
    );

    const rows = (await admin.query<{ id: string; notes: string }>('SELECT id, notes FROM orders WHERE restaurant_id = $1', [seed.restaurant])).rows;
    const ordersByKey = new Map<string, string[]>();
    for (const order of rows) ordersByKey.set(order.notes, [...(ordersByKey.get(order.notes) ?? []), order.id]);
    const created = report.acknowledged.filter((ack) => ack.status === 201);
    const answeredKeys = new Set(report.acknowledged.map((ack) => ack.key));
    const stock = Number((await admin.query('SELECT quantity FROM stock WHERE location_id = $1 AND product_id = $2', [seed.location, seed.product])).rows[0]!.quantity);
    const events = Number((await admin.query("SELECT count(*) AS n FROM events WHERE restaurant_id = $1 AND type = 'order.created'", [seed.restaurant])).rows[0]!.n);
    const unavailableMs = longestGap(report.acknowledged.map((ack) => ({ key: ack.key, at: ack.at, serverPort: 0 })), faultAt);
    const outcome = {
      report,
      lost: created.filter((ack) => !ordersByKey.get(ack.key)?.includes(ack.orderId!)).map((ack) => ack.key),
      doubled: [...ordersByKey].filter(([, ids]) => ids.length > 1).map(([key]) => key),
      unanswered: [...ordersByKey.keys()].filter((key) => !answeredKeys.has(key)),
      orders: rows.length,
      created: created.length,
      stock,
      events,
      listening,
      unavailableMs,
    };
    const figure = `${label} (2 engine nodes, 6 order clients, 2 feed readers): writes unavailable ${(unavailableMs / 1000).toFixed(1)} s (longest time without an acknowledged order from the fault on); acknowledged ${report.acknowledged.length} (${outcome.created} created, ${report.acknowledged.length - outcome.created} out of stock), lost ${outcome.lost.length}, keys doubled ${outcome.doubled.length}; 503 with Retry-After ${JSON.stringify(Object.fromEntries(report.unavailable))}; stock ${STOCK} → ${stock}; feeds read ${report.feeds.map((feed) => `${feed.node} ${feed.seqs.length} events, ${feed.gaps.length} gaps`).join(', ')}; LISTEN connections counted ${listening.join(', ')}; wrong answers ${report.wrongAnswers.length}; machine load ${loadavg()[0]!.toFixed(1)}`;
    return { ...outcome, figure };
  } finally {
    for (const node of nodes) await node.stop();
  }
}
