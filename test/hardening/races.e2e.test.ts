import { mapInOrder } from '../../src/shared/in-order.ts';
// Many clients at once on the same products and orders: parallel creates, cancels, transitions,
// stock writes, open/close and idempotent retries, in one engine and in two engine processes on
// one SQLite file. The invariants hold after every round and every refusal is documented.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { Engine } from '../../src/engine/engine.ts';
import { createApiKey } from '../../src/engine/services/keys/api-keys.ts';
import { nextTransitions } from '../../src/shared/order-states.ts';
import { R1 } from '../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../support/engine-under-test.ts';
import { callApi, type ApiResponse } from './http-client.ts';
import { assertDocumentedError, InvariantChecker } from './invariants.ts';
import { startHeadlessEngine, type HeadlessEngine } from './headless-engine.ts';

const SEED = Number(process.env.HARDENING_SEED ?? Date.now() % 2_147_483_647);
const SCALE = Number(process.env.HARDENING_SCALE ?? 1);

const TRACKED = [R1.products.empanadaQueso, R1.products.pastelDeChoclo] as const;
const UNTRACKED = [R1.products.cazuela, R1.products.bebidaLata, R1.products.barrosLuco] as const;

type Op =
  | { kind: 'create'; client: number; items: { product: string; quantity: number }[]; closed: boolean; retries: number; idem: string }
  | { kind: 'cancel'; client: number; pick: number }
  | { kind: 'advance'; client: number; pick: number }
  | { kind: 'stock'; client: number; product: string; quantity: number }
  | { kind: 'toggle'; client: number; open: boolean }
  | { kind: 'read'; client: number; what: 'orders' | 'stock' | 'events' };

const CLIENTS = 12;

function opArbitrary(): fc.Arbitrary<Op> {
  const client = fc.nat({ max: CLIENTS - 1 });
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('create' as const),
        client,
        items: fc.array(
          fc.record({
            product: fc.oneof({ weight: 3, arbitrary: fc.constantFrom<string>(...TRACKED) }, { weight: 1, arbitrary: fc.constantFrom<string>(...UNTRACKED) }),
            quantity: fc.integer({ min: 1, max: 3 }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        closed: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
        retries: fc.oneof({ weight: 4, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 4 }) }),
        idem: fc.uuid(),
      }),
    },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel' as const), client, pick: fc.nat() }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('advance' as const), client, pick: fc.nat() }) },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('stock' as const), client, product: fc.constantFrom<string>(...TRACKED), quantity: fc.integer({ min: 0, max: 12 }) }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('toggle' as const), client, open: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('read' as const), client, what: fc.constantFrom('orders' as const, 'stock' as const, 'events' as const) }) },
  );
}

/** Which refusals each kind of write may meet in a race (api-v1-decisions.md). */
const ALLOWED: Record<Op['kind'], readonly string[]> = {
  create: ['insufficient_stock', 'location_closed', 'state_conflict'],
  cancel: ['illegal_transition', 'state_conflict'],
  advance: ['illegal_transition', 'state_conflict'],
  stock: ['state_conflict'],
  toggle: ['state_conflict'],
  read: [],
};

type Tally = Map<string, number>;
const show = (tally: Tally) => [...tally.entries()].sort().map(([k, n]) => `${k} ×${n}`).join(', ');

interface Target {
  baseUrl: string;
  keys: string[];
}

/** Runs one round of ops in parallel against the targets (client i uses target i % n); checks every answer. */
async function runRound(
  ops: Op[],
  targets: Target[],
  pool: string[],
  statusOf: (id: string) => { status: string; type: string } | null,
  tally: Tally,
  round = 0,
): Promise<number> {
  let requests = 0;
  const note = (label: string) => tally.set(label, (tally.get(label) ?? 0) + 1);
  const created: string[] = [];
  const answer = (op: Op, res: ApiResponse): void => {
    requests++;
    const context = `${op.kind} -> ${res.status} ${res.text.slice(0, 300)}`;
    assert.ok(res.status < 500, `a ${res.status} in a race: ${context}`);
    if (res.status >= 400) {
      const code = assertDocumentedError(res.status, res.body, context);
      assert.equal(res.status, 409, `a race refusal is not 409: ${context}`);
      assert.ok(ALLOWED[op.kind].includes(code), `${code} is not a refusal ${op.kind} can meet: ${context}`);
      note(`${op.kind} 409 ${code}`);
    } else note(`${op.kind} ${res.status}`);
  };
  await Promise.all(
    ops.map(async (op) => {
      const target = targets[op.client % targets.length]!;
      // Each round its own keys when there are enough (the per-key rate limit is no subject here).
      const key = target.keys[(op.client + round * CLIENTS) % target.keys.length]!;
      const call = (method: string, path: string, options: Parameters<typeof callApi>[3] = {}) => callApi(target.baseUrl, method, path, { key, ...options });
      switch (op.kind) {
        case 'create': {
          const body = {
            location_id: op.closed ? R1.closedLocation : R1.openLocation,
            type: 'retiro',
            customer: { name: `Cliente ${op.client}` },
            items: op.items.map((i) => ({ product_id: i.product, quantity: i.quantity })),
          };
          // A client that retries the same request (same key, same Idempotency-Key) at once; with
          // two engines on one file, the retries go to both.
          const answers = await Promise.all(
            Array.from({ length: op.retries }, (_, r) =>
              callApi(targets[(op.client + r) % targets.length]!.baseUrl, 'POST', '/orders', { key, body, headers: { 'idempotency-key': op.idem } }),
            ),
          );
          for (const res of answers) answer(op, res);
          const first = answers[0]!;
          for (const res of answers) {
            assert.equal(res.status, first.status, 'parallel retries of one request were answered differently');
            if (res.status === 201) assert.equal(res.body.id, first.body.id, 'parallel retries created two orders');
          }
          if (first.status === 201) created.push(first.body.id);
          return;
        }
        case 'cancel':
        case 'advance': {
          const id = pool[op.pick % pool.length];
          if (id === undefined) return;
          const current = statusOf(id);
          let target = 'cancelado';
          if (op.kind === 'advance' && current) {
            target = nextTransitions(current.status as never, current.type as never).find((s) => s !== 'cancelado') ?? 'entregado';
          }
          answer(op, await call('PATCH', `/orders/${id}`, { body: { status: target } }));
          return;
        }
        case 'stock':
          answer(op, await call('PUT', '/stock', { body: { location_id: R1.openLocation, items: [{ product_id: op.product, quantity: op.quantity }] } }));
          return;
        case 'toggle':
          answer(op, await call('POST', `/locations/${R1.closedLocation}/${op.open ? 'open' : 'close'}`));
          return;
        case 'read': {
          const path = op.what === 'orders' ? '/orders?limit=10' : op.what === 'stock' ? `/stock?location_id=${R1.openLocation}` : '/events?after=ev_0&limit=50';
          const res = await call('GET', path);
          answer(op, res);
          assert.equal(res.status, 200);
          return;
        }
      }
    }),
  );
  pool.push(...created);
  return requests;
}

describe('races', () => {
  let t: EngineUnderTest;
  let checker: InvariantChecker;
  const pool: string[] = [];
  const tally: Tally = new Map();
  let rounds = 0;
  let duels = 0;
  let requests = 0;

  before(async () => {
    t = await startEngineUnderTest();
    checker = new InvariantChecker(t.server.engine.db);
  });
  after(async () => {
    checker.check({ full: true });
    console.log(
      `[hardening] races (one engine): seed ${SEED}, ${rounds} rounds of 80-160 parallel requests, ${requests} requests from ${CLIENTS} clients, then ${duels} duels of 20 PATCHes on one order; ${checker.ordersSeen} orders, ${checker.figures.transitions} transitions, stock ${checker.figures.stockTakes} takes / ${checker.figures.stockReturns} returns / ${checker.figures.stockSets} sets`,
    );
    console.log(`[hardening]   outcomes: ${show(tally)}`);
    await t.stop();
  });

  test('many clients at once: creates, cancels, transitions, stock writes, open/close and retries', { timeout: 300_000 * SCALE }, async () => {
    const engine = t.server.engine;
    const keys = await mapInOrder(Array.from({ length: CLIENTS }, (_, i) => i), async (i) => (await createApiKey(engine, { restaurantId: R1.id, world: 'live', write: true, label: `client ${i}` })).key);
    const statusOf = (id: string) => {
      const row = engine.sqliteStores.orders.getById(id);
      return row ? { status: row.status, type: row.type } : null;
    };
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary(), { minLength: 80, maxLength: 160 }), async (ops) => {
        requests += await runRound(ops, [{ baseUrl: t.baseUrl, keys }], pool, statusOf, tally);
        rounds++;
        checker.check();
        assert.equal(engine.db.prepare('SELECT COUNT(*) AS n FROM stock WHERE quantity < 0').pluck().get(), 0);
        for (const id of pool) assert.ok(await engine.stores.orders.getById(id), `order ${id} answered 201 is missing`);
      }),
      { numRuns: Math.max(1, Math.round(12 * SCALE)), seed: SEED, endOnFailure: true },
    );
  });

  test('one order, many clients: every pair of targets at once ends in one legal history', { timeout: 300_000 * SCALE }, async () => {
    const engine = t.server.engine;
    const key = t.demo[0]!.keys.live_write;
    let orders = 0;
    for (const [a, b] of [
      ['en_preparacion', 'cancelado'],
      ['cancelado', 'cancelado'],
      ['en_preparacion', 'en_preparacion'],
      ['listo', 'en_preparacion'],
    ] as const) {
      await t.call('PUT', '/stock', { body: { location_id: R1.openLocation, items: [{ product_id: R1.products.pastelDeChoclo, quantity: 5 }] } });
      const order = await t.call('POST', '/orders', {
        body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Duelo' }, items: [{ product_id: R1.products.pastelDeChoclo, quantity: 2 }] },
      });
      assert.equal(order.status, 201, order.text);
      orders++;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => callApi(t.baseUrl, 'PATCH', `/orders/${order.body.id}`, { key, body: { status: i % 2 === 0 ? a : b } })),
      );
      for (const res of answers) {
        if (res.status !== 200) {
          assertDocumentedError(res.status, res.body, res.text);
          assert.equal(res.body.error.code, 'illegal_transition', res.text);
        }
      }
      checker.check();
      const final = (await engine.stores.orders.getById(order.body.id))!;
      // Stock came back exactly once if it was cancelled, and was not touched otherwise.
      assert.equal(await engine.stores.stock.quantity(R1.openLocation, R1.products.pastelDeChoclo), final.status === 'cancelado' ? 5 : 3);
    }
    duels += orders;
  });
});

describe('two engine processes on one SQLite file', () => {
  let dir: string;
  let engines: HeadlessEngine[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-races-'));
  });
  after(async () => {
    await Promise.all(engines.map((e) => e.kill()));
    rmSync(dir, { recursive: true, force: true });
  });

  test('clients hammer both at once: no 500, documented refusals, one consistent database', { timeout: 300_000 * SCALE }, async () => {
    const dbPath = join(dir, 'shared.db');
    // The first seeds the demo; the second opens the same file and issues its own keys. One engine
    // serves a file (test/engine/serving-lock.test.ts): the second opts out with --share-file,
    // which exists for this test: what SQLite guarantees to two writing processes (the CLIs
    // beside the engine rely on it) is checked here under the heaviest load.
    const first = await startHeadlessEngine(dbPath);
    const second = await startHeadlessEngine(dbPath, { args: ['--share-file'] });
    engines = [first, second];
    // Each client its own key (the per-key rate limit is per process, and this is no rate test).
    const rounds = Math.max(1, Math.round(6 * SCALE));
    const issuer = new Engine({ database: dbPath });
    const keys = await mapInOrder(Array.from({ length: CLIENTS * rounds }, (_, i) => i), async (i) => (await createApiKey(issuer, { restaurantId: R1.id, world: 'live', write: true, label: `client ${i}` })).key);
    await issuer.close();
    const targets = engines.map((e) => ({ baseUrl: e.baseUrl, keys }));
    const reader = new Database(dbPath, { readonly: true });
    const checker = new InvariantChecker(reader);
    const pool: string[] = [];
    const statusOf = (id: string) => (reader.prepare('SELECT status, type FROM orders WHERE id = ?').get(id) as { status: string; type: string } | undefined) ?? null;
    let requests = 0;
    let runs = 0;
    const tally: Tally = new Map();
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary(), { minLength: 80, maxLength: 140 }), async (ops) => {
        requests += await runRound(ops, targets, pool, statusOf, tally, runs);
        runs++;
        checker.check();
      }),
      { numRuns: rounds, seed: SEED, endOnFailure: true },
    );
    checker.check({ full: true });
    assert.equal(reader.pragma('integrity_check', { simple: true }), 'ok');
    reader.close();
    for (const e of engines) assert.equal(e.stderrText().match(/"level":50/g)?.length ?? 0, 0, `an engine logged errors:\n${e.stderrText().slice(0, 2000)}`);
    console.log(`[hardening] races (two processes, one file): ${runs} rounds, ${requests} requests; ${checker.ordersSeen} orders, stock ${checker.figures.stockTakes} takes / ${checker.figures.stockReturns} returns / ${checker.figures.stockSets} sets`);
    console.log(`[hardening]   outcomes: ${show(tally)}`);
  });
});
