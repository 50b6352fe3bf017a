// Two engine nodes on one PostgreSQL database (each its own pool and LISTEN connection), as the
// platform runs them: nothing oversold, nothing twice, nothing skipped, and a wake-up on node B for a
// commit on node A.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/engine/clock.ts';
import type { PostgresStorage } from '../../../src/engine/postgres/postgres-storage.ts';
import { ChangeCount } from '../../../src/engine/storage/change-count.ts';
import { JOB_QUEUES, type JobQueue } from '../../../src/engine/storage/job-queues.ts';
import { VerifiedKeys } from '../../../src/engine/verified-keys.ts';
import { eventually } from '../../support/eventually.ts';
import { placeOrder } from '../storage/support/place-order.ts';
import { jobStates, seedDueJobs } from '../storage/support/seed-jobs.ts';
import { LOCATION, PRODUCT, RESTAURANT, postgresUnderTest, type PostgresUnderTest } from '../storage/support/storage-under-test.ts';

const AT = Date.parse('2026-11-21T23:00:00Z');
const ROOT = join(import.meta.dirname, '..', '..', '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const CLAIMING_NODE = join(import.meta.dirname, 'support', 'claiming-node.ts');

/** A node's verified-key cache (the engine's own) on the port's change count, as authentication will use it. */
function keyCache(node: PostgresStorage) {
  const cache = new VerifiedKeys();
  const count = new ChangeCount(node);
  const misses: string[] = [];
  return {
    count,
    misses,
    async authenticate(presented: string): Promise<'accepted' | 'refused'> {
      const version = count.value; // taken before the read: a commit meanwhile drops what it remembers
      if (cache.get(presented, version)) return 'accepted';
      misses.push(presented);
      const row = await node.findApiKey(presented);
      if (!row || row.revoked_at !== null) return 'refused';
      cache.remember(presented, version, { restaurantId: row.restaurant_id, world: row.world, canWrite: row.can_write === 1, keyId: row.id }, row.last_used_at);
      return 'accepted';
    },
  };
}

const insertKey = (id: string) => `INSERT INTO api_keys (id, restaurant_id, lookup, salt, hash, world, can_write, last4, created_at)
  VALUES ('${id}', '${RESTAURANT}', 'lookup-${id}', '\\x00'::bytea, '\\x00'::bytea, 'live', 1, 'abcd', 0)`;

describe('two nodes on one PostgreSQL', () => {
  let db: PostgresUnderTest;
  let nodeA: PostgresStorage;
  let nodeB: PostgresStorage;
  before(async () => {
    // No re-poll within a test's time: a waiter on B woken early was woken by A's notification.
    db = await postgresUnderTest(50, { rePollMs: 600_000 });
    nodeA = db.storage as PostgresStorage;
    nodeB = await db.node();
  });
  after(() => db.stop());

  test('200 orders at once for 50 units, half through each node: exactly 50', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        placeOrder(i % 2 === 0 ? nodeA : nodeB, { id: `o-${i}`, idempotencyKey: `k-${i}`, at: AT }),
      ),
    );
    assert.equal(answers.filter((a) => a.status === 201).length, 50);
    const [stock] = await db.rows(`SELECT quantity FROM stock WHERE location_id = '${LOCATION}' AND product_id = '${PRODUCT}'`);
    assert.equal(stock!.quantity, 0);
    const numbers = (await db.rows('SELECT number FROM orders')).map((r) => Number(r.number)).sort((a, b) => a - b);
    assert.deepEqual(numbers, Array.from({ length: 50 }, (_, i) => i + 1));
    const seqs = (await nodeB.readFeed(RESTAURANT, 'live', 0, 100)).map((e) => e.seq);
    assert.deepEqual(seqs, Array.from({ length: 50 }, (_, i) => i + 1));
  });

  test('the same Idempotency-Key sent to both nodes at once: one order, one answer', async () => {
    await db.exec(`UPDATE stock SET quantity = 10 WHERE location_id = '${LOCATION}'`);
    for (let round = 0; round < 10; round += 1) {
      const key = `same-${round}`;
      const [a, b] = await Promise.all([
        placeOrder(nodeA, { id: `a-${round}`, idempotencyKey: key, at: AT }),
        placeOrder(nodeB, { id: `b-${round}`, idempotencyKey: key, at: AT }),
      ]);
      assert.equal(a.status, 201);
      assert.deepEqual(b, a);
    }
    const orders = await db.rows("SELECT id FROM orders WHERE id LIKE 'a-%' OR id LIKE 'b-%'");
    assert.equal(orders.length, 10);
  });

  test('a slow writer on A and a fast one on B: the feed read from either misses nothing and is in commit order', async () => {
    const cursor = await nodeA.lastFeedSeq(RESTAURANT);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let slowAppended = false;
    const slow = nodeA.write(RESTAURANT, async (tx) => {
      await tx.appendEvent('live', 'order.updated', AT, { who: 'slow' });
      slowAppended = true;
      await gate;
    });
    let fast: Promise<number> | undefined;
    try {
      await eventually(() => slowAppended, 'the slow writer holding its transaction');
      fast = nodeB.write(RESTAURANT, (tx) => tx.appendEvent('live', 'order.updated', AT, { who: 'fast' }));
      await eventually(
        async () => Number((await db.rows("SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'"))[0]!.n),
        'the fast writer on B waiting for the clock row A holds',
      );
      assert.deepEqual(await nodeA.readFeed(RESTAURANT, 'live', cursor, 10), []);
      assert.deepEqual(await nodeB.readFeed(RESTAURANT, 'live', cursor, 10), []);
    } finally {
      release();
    }
    await Promise.all([slow, fast]);
    for (const node of [nodeA, nodeB]) {
      const feed = await node.readFeed(RESTAURANT, 'live', cursor, 10);
      assert.deepEqual(feed.map((e) => JSON.parse(e.data).who), ['slow', 'fast']);
      assert.equal(feed[1]!.seq, feed[0]!.seq + 1);
    }
  });

  test('many writers on both nodes, a reader on each following its cursor: both see every event once, in the same order', async () => {
    const start = await nodeA.lastFeedSeq(RESTAURANT);
    let writing = true;
    const follow = async (node: PostgresStorage) => {
      let cursor = start;
      const seen: number[] = [];
      for (;;) {
        const done = !writing;
        const page = await node.readFeed(RESTAURANT, 'live', cursor, 50);
        for (const event of page) {
          assert.equal(event.seq, cursor + 1, 'the feed is gapless: the next event is the next number');
          cursor = event.seq;
          seen.push(JSON.parse(event.data).n as number);
        }
        if (done && page.length === 0) return seen;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const readers = [follow(nodeA), follow(nodeB)];
    await Promise.all(
      Array.from({ length: 160 }, (_, n) =>
        (n % 2 === 0 ? nodeA : nodeB).write(RESTAURANT, async (tx) => {
          await tx.appendEvent('live', 'order.updated', AT, { n });
          if (n % 4 === 0) for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setTimeout(resolve, 1));
        }),
      ),
    );
    writing = false;
    const [seenA, seenB] = await Promise.all(readers);
    assert.equal(seenA!.length, 160);
    assert.equal(new Set(seenA).size, 160);
    assert.deepEqual(seenB, seenA);
  });

  test("a waiter on node B wakes on node A's commit (NOTIFY after commit, B's LISTEN connection)", async () => {
    const waiting = nodeB.waitForChange(RESTAURANT, 50_000).then(() => 'woken');
    const changed: (string | null)[] = [];
    const unsubscribe = nodeB.onChange((restaurantId) => changed.push(restaurantId));
    await nodeA.write(RESTAURANT, (tx) => tx.appendEvent('live', 'order.updated', AT, { who: 'a' }));
    assert.equal(await waiting, 'woken');
    await eventually(() => changed.length, "B's change listeners told of A's commit");
    assert.deepEqual(changed, [RESTAURANT]);
    unsubscribe();
  });

  test('due mails claimed from both nodes at once: each exactly once', async () => {
    await db.exec(`INSERT INTO orders (id, restaurant_id, test, number, status, type, items, subtotal, shipping_fee, discount, total,
      payment_kind, created_at, updated_at) VALUES ('mail-order', '${RESTAURANT}', 0, '900', 'listo', 'retiro', '[]', 0, 0, 0, 0, 'external', 0, 0)`);
    const values = Array.from({ length: 60 }, (_, i) =>
      `('${RESTAURANT}', 'mail-order', 'kind-${i}', 0, 'a@b.cl', 'Uno', 'Listo', 'Tu pedido', 'pending', ${AT - 1000}, 0, 0)`);
    await db.exec(`INSERT INTO mail_outbox (restaurant_id, order_id, kind, test, to_address, from_name, subject, body_text, status,
      next_attempt_at, created_at, updated_at) VALUES ${values.join(', ')}`);
    const claimed: number[] = [];
    const claimer = async (node: PostgresStorage) => {
      for (;;) {
        const batch = await node.claimDueMail(AT, AT + 60_000, 3);
        if (batch.length === 0) return;
        claimed.push(...batch.map((m) => m.id));
      }
    };
    await Promise.all([claimer(nodeA), claimer(nodeB), claimer(nodeA), claimer(nodeB)]);
    assert.equal(claimed.length, 60);
    assert.equal(new Set(claimed).size, 60);
  });

  test('jobs of every queue worked from both nodes at once, two workers each: each done exactly once', async () => {
    const clock = new ManualClock(AT);
    const LEASE_MS = 60_000;
    const performed = new Map<string, number>();
    for (const queue of JOB_QUEUES) await seedDueJobs(db, queue, `busy-${queue}`, 40, AT);
    const worker = async (node: PostgresStorage, queue: JobQueue) => {
      for (;;) {
        const now = clock.now();
        const claims = await node.claimJobs(queue, now, now + LEASE_MS, 3);
        if (claims.length === 0) return;
        for (const claim of claims) {
          const key = `${queue}:${claim.id}`;
          performed.set(key, (performed.get(key) ?? 0) + 1);
          await new Promise((resolve) => setImmediate(resolve)); // the outside call
          assert.equal(await node.finishJob(claim, { kind: 'done' }, clock.now()), true);
        }
      }
    };
    await Promise.all(JOB_QUEUES.flatMap((queue) => [worker(nodeA, queue), worker(nodeB, queue), worker(nodeA, queue), worker(nodeB, queue)]));
    assert.equal(performed.size, 120);
    assert.deepEqual([...new Set(performed.values())], [1]);
    for (const queue of JOB_QUEUES) {
      const states = await jobStates(db, queue, `busy-${queue}`);
      assert.equal(states.length, 40);
      assert.ok(states.every((row) => row.next_at === null), `${queue}: every job finished`);
      if (queue !== 'courier') assert.ok(states.every((row) => row.attempts === 1), `${queue}: one attempt each`);
    }
  });

  test('a node killed holding jobs: another node finishes them once their lease ends (engine clock), the dead claims count for nothing', async () => {
    const clock = new ManualClock(AT);
    const LEASE_MS = 60_000;
    const ids = await seedDueJobs(db, 'payment', 'dies', 5, AT);
    // Node C, a process of its own, claims them and is killed (SIGKILL) mid-call.
    const nodeC = spawn(NODE, ['--import', 'tsx', CLAIMING_NODE, db.connectionString, 'payment', String(clock.now()), String(clock.now() + LEASE_MS)], {
      cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => nodeC.once('exit', resolve));
    let printed = '';
    nodeC.stdout.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
    try {
      await eventually(() => printed.includes('\n') || nodeC.exitCode !== null, "node C's claims");
    } finally {
      nodeC.kill('SIGKILL');
    }
    await exited;
    const held = JSON.parse(printed) as string[];
    assert.deepEqual([...held].sort(), [...ids].sort());

    clock.advance(LEASE_MS - 1);
    assert.deepEqual(await nodeA.claimJobs('payment', clock.now(), clock.now() + LEASE_MS, 10), [], 'still leased to C');
    clock.advance(1);
    const taken = [
      ...(await nodeA.claimJobs('payment', clock.now(), clock.now() + LEASE_MS, 2)),
      ...(await nodeB.claimJobs('payment', clock.now(), clock.now() + LEASE_MS, 10)),
    ];
    assert.deepEqual(taken.map((c) => c.id).sort(), [...ids].sort());
    for (const [i, claim] of taken.entries()) assert.equal(await (i < 2 ? nodeA : nodeB).finishJob(claim, { kind: 'done' }, clock.now()), true);
    // Had C only stalled and come back, its claims would record nothing (here sent through A).
    for (const id of held) {
      assert.equal(await nodeA.finishJob({ queue: 'payment', id, leaseUntil: AT + LEASE_MS }, { kind: 'failed', error: 'late' }, clock.now()), false);
    }
    const states = await jobStates(db, 'payment', 'dies');
    assert.ok(states.every((row) => row.status === 'done' && row.next_at === null && row.last_error === null && row.attempts === 2), JSON.stringify(states));
  });

  test("a key revoked on node A is refused on node B: B's cache dropped by A's NOTIFY", async () => {
    await db.exec(insertKey('k-revoked'));
    const onB = keyCache(nodeB);
    assert.equal(await onB.authenticate('lookup-k-revoked'), 'accepted');
    assert.equal(await onB.authenticate('lookup-k-revoked'), 'accepted');
    assert.deepEqual(onB.misses, ['lookup-k-revoked'], 'the second from the cache');
    assert.equal(await nodeA.write(RESTAURANT, (tx) => tx.revokeApiKey('k-revoked', AT)), true);
    // B's re-poll is off (10 min): only A's notification can reach it.
    await eventually(() => onB.authenticate('lookup-k-revoked'), 'the key refused on B', { until: (answer) => answer === 'refused' });
    onB.count.stop();
  });

  test('a commit whose NOTIFY is lost reaches a node with a re-poll within it (and never a node without one)', async () => {
    await db.exec(insertKey('k-lost'));
    const nodeWithRePoll = await db.node({ rePollMs: 100 });
    const polled = keyCache(nodeWithRePoll);
    const notified = keyCache(nodeB); // re-poll off: it hears of commits by NOTIFY only
    const told: (string | null)[] = [];
    nodeWithRePoll.onChange((restaurantId) => told.push(restaurantId));
    assert.equal(await polled.authenticate('lookup-k-lost'), 'accepted');
    assert.equal(await notified.authenticate('lookup-k-lost'), 'accepted');
    // A node dies between its commit and its NOTIFY: the write as the port does it (the clock row
    // first), committed, and no notification.
    await db.exec(`BEGIN;
      INSERT INTO restaurant_clocks (restaurant_id) VALUES ('${RESTAURANT}') ON CONFLICT (restaurant_id) DO UPDATE SET restaurant_id = excluded.restaurant_id;
      UPDATE api_keys SET revoked_at = ${AT} WHERE id = 'k-lost';
      COMMIT`);
    await eventually(() => polled.authenticate('lookup-k-lost'), 'the key refused after the re-poll', { until: (answer) => answer === 'refused' });
    assert.ok(told.includes(RESTAURANT), 'told by the re-poll of the restaurant that changed');
    assert.equal(await notified.authenticate('lookup-k-lost'), 'accepted', 'without a re-poll the lost notification is never made up');
    polled.count.stop();
    notified.count.stop();
    await nodeWithRePoll.close();
  });

  test('a write without events on A tells B\'s caches, and leaves B\'s feed waiters waiting', async () => {
    await db.exec(insertKey('k-quiet'));
    const told: (string | null)[] = [];
    const unsubscribe = nodeB.onChange((restaurantId) => told.push(restaurantId));
    let woken = false;
    const controller = new AbortController();
    const waiting = nodeB.waitForChange(RESTAURANT, 600_000, controller.signal).then(() => (woken = true));
    await nodeA.write(RESTAURANT, (tx) => tx.revokeApiKey('k-quiet', AT));
    await eventually(() => told.length, "B's change listeners told of A's commit");
    assert.deepEqual(told, [RESTAURANT]);
    assert.equal(woken, false, 'the notification that told the caches woke no feed waiter');
    // The waiter is woken by the next commit with events.
    await nodeA.write(RESTAURANT, (tx) => tx.appendEvent('live', 'order.updated', AT, { who: 'after' }));
    await eventually(() => told.length === 2, "B told of A's second commit");
    await eventually(() => woken, 'the waiter woken by the commit with events');
    controller.abort();
    await waiting;
    unsubscribe();
  });

  test('the nodes are counted from any node (their LISTEN connections): one more, then one less', async () => {
    const count = (node: PostgresStorage, n: number) =>
      eventually(() => node.nodeCount(), `${n} nodes counted`, { until: (value) => value === n });
    await count(nodeA, 2);
    const nodeC = await db.node();
    await count(nodeA, 3);
    await count(nodeB, 3);
    await count(nodeC, 3);
    await nodeC.close();
    await count(nodeA, 2);
    await count(nodeB, 2);
  });
});
