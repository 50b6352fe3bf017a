// The engine nodes' failover scenario of failover.e2e.test.ts, once per fault: a restaurant of its own
// (platform-restaurant.ts), two engine nodes (engine-node.ts: `serve --database` through HAProxy),
// eight store-front clients and a feed reader per node (store-fronts.ts), and each node's
// /v1/health watched; orders before the fault, the fault, orders after it; then what the leader
// holds against what was answered. The test asserts on what this returns.
import { loadavg } from 'node:os';
import type pg from 'pg';
import type { PlatformLayout } from '../../../../scripts/platform/layout.ts';
import { eventually } from '../../../support/eventually.ts';
import { longestGap, startOrderWriters, type OrderWriters } from '../../../support/order-writers.ts';
import { explainingFailure } from '../../../support/platform-diagnosis.ts';
import { startEngineNode, type EngineNode } from './engine-node.ts';
import { watchHealth, type HealthReport } from './health-watch.ts';
import { startHubUnderLoad, type HubOutcome, type HubUnderLoad } from './hub-under-load.ts';
import { seedPlatformRestaurant, type PlatformRestaurant } from './platform-restaurant.ts';
import { startStoreFronts, type StoreFrontReport } from './store-fronts.ts';

export const STOCK = 100_000;
const ORDER_CLIENTS = 8;
/** The LISTEN connections' application name (postgres-storage.ts). */
const LISTEN_APPLICATION = 'comanda listen';

export interface EngineNodesOutcome {
  report: StoreFrontReport;
  health: HealthReport;
  /** Keys answered 201 whose order (with the id answered) is not on the leader. */
  lost: string[];
  /** Keys with more than one order. */
  doubled: string[];
  /** Orders on the leader whose key no client (or hub) saw answered. */
  unanswered: string[];
  /**
   * The hub's, when the scenario has one (its restaurant's own): `lost`, its orders not once on the
   * leader or not delivered; `unexpected`, orders there it did not take; its product's stock.
   */
  hub?: HubOutcome & { lost: string[]; unexpected: string[]; stock: number };
  /** Transitions answered 200 whose order is not at least at that step on the leader. */
  stepsLost: string[];
  orders: number;
  created: number;
  stock: number;
  /** The live feed's seqs on the leader, in order. */
  feedSeqs: number[];
  /** Orders answered 201 that no reader saw an order.created of. */
  unseen: string[];
  /** The LISTEN connections the leader counts once the nodes are back. */
  listening: number;
  /** The nodes still running at the end. */
  running: string[];
  unavailableMs: number;
  /**
   * The database alone through the same fault: the longest time without a row written by the probe
   * (a raw writer through HAProxy, one row every PROBE_PACE_MS), from the fault on. What the serve
   * nodes' figure has beyond it is the nodes' own (their retry pauses, their pools, the store fronts'
   * pause before they try the other node). Undefined without a probe.
   */
  databaseUnavailableMs?: number;
  /** How long the fault's own step took (patronictl's switchover returns once the switch is made). */
  injectMs: number;
  figure: string;
}

export interface EngineNodesFault {
  /**
   * Injects the fault; may kill one of `nodes` (then its clients go to the other). `ordersAnswered`
   * counts the orders answered so far (the negative control waits for some after it stalls the
   * replication link, before it kills the leader).
   */
  inject(nodes: readonly EngineNode[], scenario: { ordersAnswered(): number }): Promise<void>;
}

/** The probe's pause between its rows: fine enough to time a switch, too slow to be a load. */
const PROBE_PACE_MS = 50;

export async function engineNodesUnderLoad(options: {
  layout: PlatformLayout;
  admin: pg.Pool;
  /** HAProxy's write port, without the password. */
  database: { url: string; password: string };
  label: string;
  clock: () => number;
  ordersAroundTheFault: number;
  recoveryTimeoutMs: number;
  fault: EngineNodesFault;
  /** A hub (of a restaurant of its own) pushing its outbox to node b through the fault. */
  hub?: boolean;
  /** The test's own (t.signal): a test cancelled or timed out kills its nodes and stops its clients at once. */
  signal?: AbortSignal;
  /** HAProxy's write port for a raw probe writer (its failover_orders table made): times the database alone. */
  probe?: pg.ClientConfig;
}): Promise<EngineNodesOutcome> {
  const { admin, clock, label } = options;
  const withPassword = new URL(options.database.url);
  withPassword.password = options.database.password;
  const restaurant = await seedPlatformRestaurant(withPassword.toString(), { writeKeys: ORDER_CLIENTS, readKeys: 2 });
  const nodes: EngineNode[] = [];
  let hub: HubUnderLoad | undefined;
  let probe: OrderWriters | undefined;
  const cancelled = () => {
    for (const node of nodes) void node.kill9();
  };
  options.signal?.addEventListener('abort', cancelled, { once: true });
  try {
    // One after the other: the first may build the kitchen page once (serve does on a fresh checkout).
    nodes.push(await startEngineNode('a', options.database, options.layout.dir));
    nodes.push(await startEngineNode('b', options.database, options.layout.dir));
    options.signal?.throwIfAborted();
    await putStock(nodes[0]!, restaurant);
    const hubRestaurant = options.hub ? await seedPlatformRestaurant(withPassword.toString(), { writeKeys: 1, readKeys: 0, hubKey: true }) : undefined;
    if (hubRestaurant) await putStock(nodes[0]!, hubRestaurant);
    const watchBegan = clock();
    const health = watchHealth(nodes);
    if (hubRestaurant) hub = await startHubUnderLoad({ upstreamUrl: nodes[1]!.baseUrl, apiKey: hubRestaurant.hubKey!, restaurant: hubRestaurant, label, parentDir: options.layout.dir });
    const fronts = startStoreFronts({ nodes, restaurant, label, clock, ...(options.signal ? { signal: options.signal } : {}) });
    let report: StoreFrontReport;
    if (options.probe) probe = startOrderWriters({ connection: options.probe, clients: 1, clock, label: `${label}-probe-${restaurant.id}`, paceMs: PROBE_PACE_MS });
    let faultAt = 0;
    let injectMs = 0;
    let listening = 0;
    let hubOutcome: HubOutcome | undefined;
    try {
      await eventually(() => fronts.acknowledged.length, 'orders before the fault', { until: (count) => count >= options.ordersAroundTheFault, timeoutMs: options.recoveryTimeoutMs });
      faultAt = clock();
      await options.fault.inject(nodes, { ordersAnswered: () => fronts.acknowledged.length });
      injectMs = clock() - faultAt;
      await explainingFailure(options.layout, undefined, clock, () =>
        eventually(() => fronts.acknowledged.filter((ack) => ack.at > faultAt).length, 'orders to resume after the fault', {
          until: (count) => count >= options.ordersAroundTheFault,
          timeoutMs: options.recoveryTimeoutMs,
        }),
      );
      await fronts.stopOrders();
      if (hub) hubOutcome = await hub.finish(options.recoveryTimeoutMs);
      const last = await lastLiveSeq(admin, restaurant.id);
      await eventually(() => fronts.cursors(), "each feed reader caught up with the leader's feed", { until: (cursors) => cursors.every((cursor) => cursor >= last), timeoutMs: 60_000 });
      // Each running node's LISTEN connection back on the leader.
      const runningNodes = nodes.filter((node) => node.running()).length;
      listening = await eventually(async () => Number((await admin.query('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [LISTEN_APPLICATION])).rows[0]!.n), `${runningNodes} LISTEN connections on the leader`, {
        until: (count) => count === runningNodes,
        timeoutMs: 60_000,
      });
      // Every running node says it can write again.
      await eventually(() => health.lastAnswers(), 'every running node writable on /v1/health', {
        until: (answers) => nodes.every((node, index) => !node.running() || answers[index]?.writable === true),
        timeoutMs: 60_000,
      });
    } finally {
      report = await fronts.stop();
      await health.stop();
    }
    const probed = await probe?.stop();

    const rows = (await admin.query<{ id: string; customer_name: string; status: string }>('SELECT id, customer_name, status FROM orders WHERE restaurant_id = $1', [restaurant.id])).rows;
    const ordersByKey = new Map<string, string[]>();
    for (const order of rows) ordersByKey.set(order.customer_name, [...(ordersByKey.get(order.customer_name) ?? []), order.id]);
    const statusById = new Map(rows.map((order) => [order.id, order.status]));
    const created = report.acknowledged.filter((ack) => ack.status === 201);
    const answeredKeys = new Set(report.acknowledged.map((ack) => ack.key));
    const stock = Number((await admin.query('SELECT quantity FROM stock WHERE location_id = $1 AND product_id = $2', [restaurant.location, restaurant.product])).rows[0]!.quantity);
    const feedSeqs = (await admin.query<{ seq: string }>("SELECT seq FROM events WHERE restaurant_id = $1 AND world IN ('live', 'both') ORDER BY seq", [restaurant.id])).rows.map((row) => Number(row.seq));
    const seenCreated = new Set(report.feeds.flatMap((feed) => feed.created));
    const STEP_ORDER = ['recibido', 'en_preparacion', 'listo'];
    // Every answered write counts (orders and kitchen steps): an order client spends most of its time
    // on its order's steps, so answered orders alone come too seldom to time the gap by.
    const writes = [...report.acknowledged.map((ack) => ({ key: ack.key, at: ack.at })), ...report.transitions.map((step) => ({ key: `${step.orderId} ${step.status}`, at: step.at }))];
    const unavailableMs = longestGap(writes.map((write) => ({ ...write, serverPort: 0 })), faultAt);
    const outcome = {
      report,
      health: health.report(),
      lost: created.filter((ack) => !ordersByKey.get(ack.key)?.includes(ack.orderId!)).map((ack) => ack.key),
      doubled: [...ordersByKey].filter(([, ids]) => ids.length > 1).map(([key]) => key),
      unanswered: [...ordersByKey.keys()].filter((key) => !answeredKeys.has(key)),
      ...(hubOutcome && hubRestaurant ? { hub: await hubOnTheLeader(admin, hubRestaurant, hubOutcome) } : {}),
      stepsLost: report.transitions.filter((step) => STEP_ORDER.indexOf(statusById.get(step.orderId) ?? '') < STEP_ORDER.indexOf(step.status)).map((step) => `${step.orderId} ${step.status}`),
      orders: rows.length,
      created: created.length,
      stock,
      feedSeqs,
      unseen: created.filter((ack) => !seenCreated.has(ack.orderId!)).map((ack) => ack.key),
      listening,
      running: nodes.filter((node) => node.running()).map((node) => node.name),
      unavailableMs,
      ...(probed ? { databaseUnavailableMs: longestGap(probed.acknowledged, faultAt) } : {}),
      injectMs,
    };
    const h = outcome.health;
    const figure =
      `${label} (2 engine nodes \`serve --database\`, ${ORDER_CLIENTS} store-front clients, 2 feed readers): writes unavailable ${(unavailableMs / 1000).toFixed(1)} s ` +
      `(longest time without an answered write, order or kitchen step, from the fault on)` +
      (outcome.databaseUnavailableMs !== undefined ? `, the database alone ${(outcome.databaseUnavailableMs / 1000).toFixed(1)} s (a raw row through HAProxy every ${PROBE_PACE_MS} ms), the fault's step ${(injectMs / 1000).toFixed(1)} s` : '') +
      `; orders answered ${report.acknowledged.length} (${outcome.created} created, ${report.acknowledged.length - outcome.created} out of stock), ` +
      `kitchen steps ${report.transitions.length}; lost ${outcome.lost.length}, keys doubled ${outcome.doubled.length}, steps lost ${outcome.stepsLost.length}; ` +
      `answers ${JSON.stringify(Object.fromEntries([...report.answers].sort()))}; stock ${STOCK} → ${stock}; ` +
      `feeds read ${report.feeds.map((feed) => `${feed.reader} ${feed.seqs.length} of ${feedSeqs.length} events, ${feed.gaps.length} gaps`).join(', ')}; ` +
      `health answers ${JSON.stringify(h.counts)}, not writable for ${h.unwritableMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(' / ')} ` +
      `(when, in s since the watch began, the fault at ${((faultAt - watchBegan) / 1000).toFixed(1)}: ${h.unwritableWindows.map((node, index) => `${'ab'[index]} ${node.map(([from, to]) => `${(from / 1000).toFixed(1)}–${to === undefined ? '…' : (to / 1000).toFixed(1)}`).join(', ') || 'never'}`).join('; ')}); ` +
      (hubOutcome ? `hub (a restaurant of its own, upstream node b): ${hubOutcome.orders.length} orders and ${hubOutcome.steps} kitchen steps pushed, outbox ${hubOutcome.status.outbox_pending}, last divergence check ${JSON.stringify(hubOutcome.status.last_check)}, conflicts ${hubOutcome.status.conflicts.length}; ` : '') +
      `LISTEN connections ${listening}; wrong answers ${report.wrongAnswers.length}; machine load ${loadavg()[0]!.toFixed(1)}`;
    return { ...outcome, figure };
  } finally {
    options.signal?.removeEventListener('abort', cancelled);
    await probe?.stop();
    await hub?.close();
    for (const node of nodes) await node.stop();
  }
}

async function putStock(node: EngineNode, restaurant: PlatformRestaurant): Promise<void> {
  const answer = await fetch(`${node.baseUrl}/stock`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${restaurant.writeKeys[0]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ location_id: restaurant.location, items: [{ product_id: restaurant.product, quantity: STOCK }] }),
  });
  if (answer.status !== 200) throw new Error(`PUT /stock answered ${answer.status}: ${await answer.text()}`);
}

/** The hub's restaurant on the leader against what the hub answered. */
async function hubOnTheLeader(admin: pg.Pool, restaurant: PlatformRestaurant, outcome: HubOutcome): Promise<HubOutcome & { lost: string[]; unexpected: string[]; stock: number }> {
  const rows = (await admin.query<{ customer_name: string; status: string }>('SELECT customer_name, status FROM orders WHERE restaurant_id = $1', [restaurant.id])).rows;
  const taken = new Set(outcome.orders);
  const stock = Number((await admin.query('SELECT quantity FROM stock WHERE location_id = $1 AND product_id = $2', [restaurant.location, restaurant.product])).rows[0]!.quantity);
  return {
    ...outcome,
    lost: outcome.orders.filter((name) => rows.filter((row) => row.customer_name === name && row.status === 'entregado').length !== 1),
    unexpected: rows.filter((row) => !taken.has(row.customer_name)).map((row) => row.customer_name),
    stock,
  };
}

async function lastLiveSeq(admin: pg.Pool, restaurant: string): Promise<number> {
  const { rows } = await admin.query<{ seq: string | null }>("SELECT max(seq) AS seq FROM events WHERE restaurant_id = $1 AND world IN ('live', 'both')", [restaurant]);
  return Number(rows[0]?.seq ?? 0);
}
