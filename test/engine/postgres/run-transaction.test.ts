// runTransaction through an outage with nothing listening (a database that is down): it retries with
// growing pauses from an injected timer and, its budget spent, throws StorageUnavailable; a bug is not
// retried. The retries against a real PostgreSQL (a cut connection, a read-only leader, COMMIT) are in
// riding-outages.e2e.test.ts.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import pg from 'pg';
import { runTransaction, type RetryTimer } from '../../../src/engine/postgres/run-transaction.ts';
import { StorageUnavailable } from '../../../src/engine/storage-unavailable.ts';

/** A loopback port nothing listens on: bound once, then closed (connections to it are refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Time that moves only when the retries sleep. */
function fakeTimer(): RetryTimer & { pauses: number[] } {
  let now = 0;
  const pauses: number[] = [];
  return {
    pauses,
    now: () => now,
    sleep: async (ms) => {
      pauses.push(ms);
      now += ms;
    },
  };
}

test('a database that refuses connections: retried with growing pauses until the budget, then StorageUnavailable', async () => {
  const pool = new pg.Pool({ host: '127.0.0.1', port: await closedPort(), user: 'nobody', database: 'none', connectionTimeoutMillis: 2_000 });
  const timer = fakeTimer();
  const retried: string[] = [];
  let ran = 0;
  const outage = { budgetMs: 5_000, firstPauseMs: 50, maxPauseMs: 1_000 };
  const error = await runTransaction(pool, async () => ran++, { outage, timer, onRetry: (e) => retried.push((e as { code?: string }).code ?? '') }).then(
    () => assert.fail('resolved without a database'),
    (e: unknown) => e,
  );
  await pool.end();
  assert.ok(error instanceof StorageUnavailable, String(error));
  assert.equal((error.cause as { code?: string }).code, 'ECONNREFUSED');
  assert.equal(ran, 0, 'the work never ran without a connection');
  assert.ok(retried.length >= 6 && retried.every((code) => code === 'ECONNREFUSED'), retried.join());
  // Each pause is the doubled one (50, 100, 200 …, at most 1 000) plus up to half of it at random.
  timer.pauses.forEach((pause, i) => {
    const base = Math.min(1_000, 50 * 2 ** i);
    assert.ok(pause >= base && pause <= base * 1.5, `pause ${i}: ${pause}`);
  });
  const slept = timer.pauses.reduce((a, b) => a + b, 0);
  assert.ok(slept <= outage.budgetMs && slept > outage.budgetMs - 1_500 * 2, `slept ${slept} ms of a ${outage.budgetMs} ms budget`);
});

test('an error that is not an outage is thrown at once, not retried', async () => {
  // A pool whose client answers every statement, so the work runs and throws a bug.
  const released: unknown[] = [];
  const client = {
    on() {},
    off() {},
    query: async (text: string | { text: string }) => ({ command: typeof text === 'string' ? text : text.text }),
    release: (error?: unknown) => released.push(error),
  };
  const fake = { connect: async () => client } as unknown as pg.Pool;
  const timer = fakeTimer();
  await assert.rejects(
    runTransaction(fake, async () => {
      throw new TypeError('a bug');
    }, { timer }),
    TypeError,
  );
  assert.deepEqual(timer.pauses, []);
  assert.deepEqual(released, [undefined], 'a healthy connection goes back to the pool');
});

/** A pool whose connections answer every statement; `work` decides what the use case throws. */
function answeringPool(): pg.Pool {
  const client = {
    on() {},
    off() {},
    query: async (text: string | { text: string }) => ({ command: typeof text === 'string' ? text : text.text, rows: [] }),
    release: () => {},
  };
  return { connect: async () => client } as unknown as pg.Pool;
}

const waitedTooLong = (code: '57014' | '55P03') => Object.assign(new Error(code === '57014' ? 'canceling statement due to statement timeout' : 'canceling statement due to lock timeout'), { code });

test('a statement that waited past lock_timeout or statement_timeout before COMMIT (a row held by a commit waiting for a new synchronous standby) reruns the use case whole', async () => {
  for (const code of ['57014', '55P03'] as const) {
    const timer = fakeTimer();
    let ran = 0;
    const saved = await runTransaction(answeringPool(), async () => {
      ran += 1;
      if (ran < 3) throw waitedTooLong(code);
      return 'saved';
    }, { timer });
    assert.equal(saved, 'saved', code);
    assert.equal(ran, 3, code);
    assert.equal(timer.pauses.length, 2, `two pauses before the third attempt (${code})`);
  }
});

test('rows held past the budget end in StorageUnavailable (a 503 with Retry-After), never the timeout itself (a 500)', async () => {
  const timer = fakeTimer();
  const error = await runTransaction(answeringPool(), async () => {
    throw waitedTooLong('57014');
  }, { timer, outage: { budgetMs: 2_000, firstPauseMs: 50, maxPauseMs: 250 } }).then(
    () => assert.fail('resolved'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof StorageUnavailable, String(error));
  assert.equal((error.cause as { code?: string }).code, '57014');
});
