// The storage port's contract, the same tests on both implementations: SQLite (the hub) and
// PostgreSQL (the platform, one node here; two nodes: test/engine/postgres/two-nodes.e2e.test.ts).
// In the e2e tier: each file starts its own throwaway PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually } from '../../support/eventually.ts';
import { JOB_QUEUES, type JobClaim } from '../../../src/engine/storage/job-queues.ts';
import { placeOrder } from './support/place-order.ts';
import { jobStates, seedDueJobs } from './support/seed-jobs.ts';
import {
  LOCATION, OTHER_RESTAURANT, PRODUCT, RESTAURANT, postgresUnderTest, sqliteUnderTest, type StorageUnderTest,
} from './support/storage-under-test.ts';

const AT = Date.parse('2026-11-21T23:00:00Z');

const implementations: [string, (units: number) => Promise<StorageUnderTest>][] = [
  ['SQLite', (units) => sqliteUnderTest(units)],
  // No re-poll within a test's time: a waiter woken early was woken by the commit itself.
  ['PostgreSQL', (units) => postgresUnderTest(units, { rePollMs: 600_000 })],
];

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

for (const [name, make] of implementations) {
  describe(`storage port on ${name}`, () => {
    let db: StorageUnderTest;
    before(async () => {
      db = await make(50);
    });
    after(() => db.stop());

    test('200 orders at once for 50 units: exactly 50 orders, numbered 1 to 50, one event each, stock 0', async () => {
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => placeOrder(db.storage, { id: `o-${i}`, idempotencyKey: `k-${i}`, at: AT })),
      );
      assert.equal(answers.filter((a) => a.status === 201).length, 50);
      assert.equal(answers.filter((a) => a.status === 409).length, 150);
      const [stock] = await db.rows(`SELECT quantity FROM stock WHERE location_id = '${LOCATION}' AND product_id = '${PRODUCT}'`);
      assert.equal(Number(stock!.quantity), 0);
      const numbers = (await db.rows('SELECT number FROM orders')).map((r) => Number(r.number)).sort((a, b) => a - b);
      assert.deepEqual(numbers, Array.from({ length: 50 }, (_, i) => i + 1));
      const feed = await db.storage.readFeed(RESTAURANT, 'live', 0, 500);
      assert.equal(feed.length, 50);
      // Gapless and increasing: each event's number follows the one before.
      feed.forEach((event, i) => i > 0 && assert.equal(event.seq, feed[i - 1]!.seq + 1));
      // Every 201 answer was kept under its key, in the same transaction as its order.
      const kept = await db.rows("SELECT status FROM idempotency_keys WHERE status = 201");
      assert.equal(kept.length, 50);
    });

    test('the same Idempotency-Key twice at once: one order, the same answer twice', async () => {
      await db.exec(`UPDATE stock SET quantity = 5 WHERE location_id = '${LOCATION}'`);
      const before = (await db.rows('SELECT count(*) AS n FROM orders'))[0]!.n;
      const [first, second] = await Promise.all([
        placeOrder(db.storage, { id: 'twin-a', idempotencyKey: 'same-key', at: AT }),
        placeOrder(db.storage, { id: 'twin-b', idempotencyKey: 'same-key', at: AT }),
      ]);
      assert.equal(first.status, 201);
      assert.deepEqual(second, first);
      const after = (await db.rows('SELECT count(*) AS n FROM orders'))[0]!.n;
      assert.equal(Number(after) - Number(before), 1);
    });

    test('a write that fails leaves nothing: its key, stock, number and event roll back with it', async () => {
      await db.exec(`UPDATE stock SET quantity = 5 WHERE location_id = '${LOCATION}'`);
      const cursor = await db.storage.lastFeedSeq(RESTAURANT);
      await assert.rejects(
        db.storage.write(RESTAURANT, async (tx) => {
          await tx.claimIdempotencyKey({ apiKeyId: 'k-1', key: 'fails', requestHash: 'h', at: AT, notOlderThan: 0 });
          await tx.tryTakeStock(LOCATION, PRODUCT, 1);
          await tx.takeOrderNumber(false);
          await tx.appendEvent('live', 'order.created', AT, {});
          throw new Error('the work failed');
        }),
        /the work failed/,
      );
      assert.deepEqual(await db.rows("SELECT key FROM idempotency_keys WHERE key = 'fails'"), []);
      assert.equal(Number((await db.rows(`SELECT quantity FROM stock WHERE location_id = '${LOCATION}'`))[0]!.quantity), 5);
      assert.deepEqual(await db.storage.readFeed(RESTAURANT, 'live', cursor, 10), []);
      const answer = await placeOrder(db.storage, { id: 'after-failure', idempotencyKey: 'fails', at: AT });
      assert.equal(answer.status, 201);
    });

    test('a slow writer and a fast one: a reader following the feed sees both, in commit order, never the later first', async () => {
      const cursor = await db.storage.lastFeedSeq(RESTAURANT);
      const slowAppended = deferred();
      const gate = deferred();
      const slow = db.storage.write(RESTAURANT, async (tx) => {
        await tx.appendEvent('live', 'order.updated', AT, { who: 'slow' });
        slowAppended.resolve();
        await gate.promise;
      });
      await slowAppended.promise;
      const fast = db.storage.write(RESTAURANT, async (tx) => {
        await tx.appendEvent('live', 'order.updated', AT, { who: 'fast' });
      });
      try {
        if (db.kind === 'postgres') {
          // The fast writer waits on the restaurant's clock row, which the slow one holds.
          await eventually(
            async () => Number((await db.rows("SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'"))[0]!.n),
            'the fast writer waiting on the clock row',
          );
          // Another restaurant's write is not held up by this one's (on SQLite, one writer at a time: it would be).
          await db.storage.write(OTHER_RESTAURANT, (tx) => tx.appendEvent('live', 'order.updated', AT, { who: 'other' }));
          // On SQLite a read waits for the transaction too (one connection): only PostgreSQL can be read meanwhile.
          assert.deepEqual(await db.storage.readFeed(RESTAURANT, 'live', cursor, 10), [], 'nothing visible before the slow writer commits');
        }
      } finally {
        gate.resolve();
      }
      await Promise.all([slow, fast]);
      const feed = await db.storage.readFeed(RESTAURANT, 'live', cursor, 10);
      assert.deepEqual(feed.map((e) => JSON.parse(e.data).who), ['slow', 'fast']);
      assert.ok(feed[0]!.seq < feed[1]!.seq);
    });

    test('many writers, some slow, and a reader following with its cursor: it misses nothing and sees each once, in order', async () => {
      let cursor = await db.storage.lastFeedSeq(RESTAURANT);
      const seen: string[] = [];
      let writing = true;
      const reader = (async () => {
        for (;;) {
          const done = !writing;
          const page = await db.storage.readFeed(RESTAURANT, 'live', cursor, 50);
          for (const event of page) {
            assert.ok(event.seq > cursor);
            cursor = event.seq;
            seen.push(JSON.parse(event.data).n as string);
          }
          if (done && page.length === 0) return;
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      await Promise.all(
        Array.from({ length: 120 }, (_, n) =>
          db.storage.write(RESTAURANT, async (tx) => {
            await tx.appendEvent('live', 'order.updated', AT, { n: String(n) });
            // Every third writer is slow: it holds its transaction across a few turns of the event loop.
            if (n % 3 === 0) for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setTimeout(resolve, 1));
          }),
        ),
      );
      writing = false;
      await reader;
      assert.equal(seen.length, 120);
      assert.equal(new Set(seen).size, 120);
    });

    test('a waiter on the feed is woken by the commit, not before it', async () => {
      const gate = deferred();
      let woken = false;
      const waiting = db.storage.waitForChange(RESTAURANT, 50_000).then(() => (woken = true));
      let appended = false;
      const write = db.storage.write(RESTAURANT, async (tx) => {
        await tx.appendEvent('live', 'order.updated', AT, {});
        appended = true;
        await gate.promise;
      });
      await eventually(() => appended, 'the event appended, not committed');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const wokenBeforeCommit = woken;
      gate.resolve();
      assert.equal(wokenBeforeCommit, false);
      await write;
      await waiting;
      assert.equal(woken, true);
    });

    test('due mails claimed by claimers at once: each exactly once, and again after its lease', async () => {
      await db.exec(`INSERT INTO orders (id, restaurant_id, test, number, status, type, items, subtotal, shipping_fee, discount, total,
        payment_kind, created_at, updated_at) VALUES ('mail-order', '${RESTAURANT}', 0, '900', 'listo', 'retiro', '[]', 0, 0, 0, 0, 'external', 0, 0)`);
      const values = Array.from({ length: 30 }, (_, i) =>
        `('${RESTAURANT}', 'mail-order', 'kind-${i}', 0, 'a@b.cl', 'Uno', 'Listo', 'Tu pedido', 'pending', ${AT - 1000 + i}, 0, 0)`);
      await db.exec(`INSERT INTO mail_outbox (restaurant_id, order_id, kind, test, to_address, from_name, subject, body_text, status,
        next_attempt_at, created_at, updated_at) VALUES ${values.join(', ')}`);
      const claimed: number[] = [];
      const claimer = async () => {
        for (;;) {
          const batch = await db.storage.claimDueMail(AT, AT + 60_000, 4);
          if (batch.length === 0) return;
          claimed.push(...batch.map((m) => m.id));
        }
      };
      await Promise.all([claimer(), claimer(), claimer()]);
      assert.equal(claimed.length, 30);
      assert.equal(new Set(claimed).size, 30);
      assert.deepEqual(await db.storage.claimDueMail(AT + 59_999, AT + 120_000, 100), []);
      assert.equal((await db.storage.claimDueMail(AT + 60_000, AT + 120_000, 100)).length, 30);
    });

    test('a key revoked in a write: read back revoked, and the change listeners told at its commit', async () => {
      const told: (string | null)[] = [];
      const unsubscribe = db.storage.onChange((restaurantId) => told.push(restaurantId));
      const key = await db.storage.findApiKey('lookup-1');
      assert.equal(key?.id, 'k-1');
      assert.equal(key?.revoked_at, null);
      assert.ok(Buffer.isBuffer(key?.salt) && Buffer.isBuffer(key?.hash));
      let toldInside = -1;
      assert.equal(await db.storage.write(RESTAURANT, async (tx) => {
        const revoked = await tx.revokeApiKey('k-1', AT);
        toldInside = told.length;
        return revoked;
      }), true);
      assert.equal(toldInside, 0, 'not before the commit');
      assert.deepEqual(told, [RESTAURANT]);
      assert.equal((await db.storage.findApiKey('lookup-1'))?.revoked_at, AT);
      assert.equal(await db.storage.write(RESTAURANT, (tx) => tx.revokeApiKey('k-1', AT + 1)), false, 'already revoked');
      assert.equal(await db.storage.findApiKey('no-such-lookup'), undefined);
      unsubscribe();
    });

    test('one node counted (itself)', async () => {
      assert.equal(await db.storage.nodeCount(), 1);
    });

    for (const queue of JOB_QUEUES) {
      test(`${queue} jobs claimed by claimers at once: each once; a finish counts only while its lease holds`, async () => {
        const prefix = `c-${queue}`;
        const ids = await seedDueJobs(db, queue, prefix, 12, AT);
        const lease = AT + 60_000;
        const claims: JobClaim[] = [];
        const claimer = async () => {
          for (;;) {
            const batch = await db.storage.claimJobs(queue, AT, lease, 2);
            if (batch.length === 0) return;
            claims.push(...batch);
          }
        };
        await Promise.all([claimer(), claimer(), claimer()]);
        assert.deepEqual(claims.map((c) => c.id).sort(), [...ids].sort());
        assert.ok(claims.every((c) => c.queue === queue && c.leaseUntil === lease));
        assert.deepEqual(await db.storage.claimJobs(queue, lease - 1, lease + 60_000, 100), [], 'held until the lease ends');

        // A retry makes the job due again at its time; a failure ends it.
        const [first, second, third] = claims.sort((a, b) => a.id.localeCompare(b.id));
        assert.equal(await db.storage.finishJob(second!, { kind: 'retry', at: AT + 30_000, error: 'timeout' }, AT + 10), true);
        assert.equal(await db.storage.finishJob(third!, { kind: 'failed', error: 'refused' }, AT + 10), true);
        assert.deepEqual((await db.storage.claimJobs(queue, AT + 30_000, AT + 90_000, 100)).map((c) => c.id), [second!.id]);

        // The first claim's lease ends with its job unfinished (its node died): another claim takes it,
        // and the first claim, should its node come back, can no longer record anything.
        const retaken = await db.storage.claimJobs(queue, lease, lease + 60_000, 100);
        assert.equal(retaken.length, 10, 'every job still held by an ended lease, and not the retried or the failed one');
        const again = retaken.find((c) => c.id === first!.id)!;
        assert.equal(await db.storage.finishJob(first!, { kind: 'done' }, lease), false, 'a lease that ended finishes nothing');
        assert.equal(await db.storage.finishJob(again, { kind: 'done' }, lease + 5), true);
        assert.equal(await db.storage.finishJob(again, { kind: 'done' }, lease + 6), false, 'finished once');

        const states = new Map((await jobStates(db, queue, prefix)).map((row) => [String(row.id), row]));
        assert.equal(states.get(first!.id)!.next_at, null);
        assert.equal(states.get(first!.id)!.status, { mail: 'sent', payment: 'done', courier: 'pendiente' }[queue]);
        if (queue === 'mail') assert.equal(states.get(first!.id)!.sent_at, lease + 5);
        if (queue !== 'courier') assert.equal(states.get(first!.id)!.attempts, 2, 'each claim counts an attempt');
        assert.equal(states.get(second!.id)!.next_at, AT + 90_000, 'retried: claimed again, held by its new lease');
        assert.equal(states.get(second!.id)!.last_error, 'timeout');
        assert.equal(states.get(third!.id)!.next_at, null);
        assert.equal(states.get(third!.id)!.last_error, 'refused');
        assert.equal(states.get(third!.id)!.status, { mail: 'failed', payment: 'failed', courier: 'fallido' }[queue]);
      });
    }
  });
}
