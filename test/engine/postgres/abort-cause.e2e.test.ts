// Issue 34, on a real PostgreSQL (the test cluster), a pipelining pool as the engine's: statements
// sent without awaiting each one. When one of them fails, the ones behind it are answered 25P02 (the
// transaction is aborted); the runner must see the first error, the real cause, so a lock timeout or a
// serialization failure is retried instead of becoming a 500. Round 10 withdrew the clock row's take
// pipelined with the key's claim for exactly this (a 25P02 reached the runner before the 55P03).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { runTransaction } from '../../../src/engine/postgres/run-transaction.ts';
import { createPostgresPool } from '../../../src/engine/postgres/postgres-pool.ts';
import { TransactionClient } from '../../../src/engine/postgres/transaction-client.ts';
import { usePostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.ts';

const codeOf = (error: unknown) => (error as { code?: string } | null)?.code;

/** A statement that fails with `code`. */
const failingWith = (code: string) => `DO $$ BEGIN RAISE EXCEPTION 'refused on purpose' USING ERRCODE = '${code}'; END $$`;

describe('the first error of a pipelined batch', () => {
  let cluster: PostgresCluster;
  let pool: pg.Pool;
  let holder: pg.Client;

  before(async () => {
    cluster = await usePostgresCluster();
    const connectionString = await cluster.createDatabase('abort_cause');
    pool = createPostgresPool({ connectionString, max: 4, onError: () => {} });
    holder = new pg.Client({ connectionString });
    await holder.connect();
    await holder.query('CREATE TABLE clocks (id text PRIMARY KEY, n integer NOT NULL)');
    await holder.query("INSERT INTO clocks VALUES ('r1', 0)");
    await holder.query('CREATE TABLE answers (id text PRIMARY KEY, attempt integer NOT NULL)');
  });
  after(async () => {
    await holder.end();
    await pool.end();
    await cluster.release();
  });

  const answers = async (id: string) => (await holder.query<{ attempt: number }>('SELECT attempt FROM answers WHERE id = $1', [id])).rows;

  test('a row held past lock_timeout: the statement awaited behind it is answered 25P02, the runner sees 55P03 and reruns', async () => {
    // Another transaction holds the row (a restaurant's clock row taken on another node) for a moment.
    await holder.query('BEGIN');
    await holder.query("SELECT * FROM clocks WHERE id = 'r1' FOR UPDATE");
    const released = new Promise((resolve) => setTimeout(resolve, 400)).then(() => holder.query('COMMIT'));
    const retried: (string | undefined)[] = [];
    let attempt = 0;
    const answered = await runTransaction(pool, async (pooled) => {
      attempt += 1;
      const tx = new TransactionClient(pooled);
      tx.send("SET LOCAL lock_timeout = '50ms'");
      // The row's take, not awaited: the claim goes out behind it, as the order's statements do.
      tx.send("UPDATE clocks SET n = n + 1 WHERE id = 'r1'");
      await tx.query('INSERT INTO answers VALUES ($1, $2)', ['held', attempt]);
      return attempt;
    }, { onRetry: (error) => retried.push(codeOf(error)), commitWatch: null }).finally(() => released);
    assert.ok(answered >= 2, `answered on attempt ${answered}`);
    assert.ok(retried.length >= 1 && retried.every((code) => code === '55P03'), `retried after ${retried.join()}`);
    assert.deepEqual(await answers('held'), [{ attempt: answered }]);
  });

  test('a write sent without awaiting fails and nothing is awaited after it: COMMIT answers ROLLBACK, the runner sees its error and reruns', async () => {
    const retried: (string | undefined)[] = [];
    let attempt = 0;
    const answered = await runTransaction(pool, async (pooled) => {
      attempt += 1;
      const tx = new TransactionClient(pooled);
      tx.send('INSERT INTO answers VALUES ($1, $2)', ['at-commit', attempt]);
      if (attempt === 1) tx.send(failingWith('40001'));
      return attempt;
    }, { onRetry: (error) => retried.push(codeOf(error)), commitWatch: null });
    assert.equal(answered, 2);
    assert.deepEqual(retried, ['40001']);
    assert.deepEqual(await answers('at-commit'), [{ attempt: 2 }], 'the first attempt saved nothing');
  });

  test('an error that is not retryable is thrown as itself, not as 25P02', async () => {
    const error = await runTransaction(pool, async (pooled) => {
      const tx = new TransactionClient(pooled);
      tx.send(failingWith('22012'));
      await tx.query('SELECT 1');
    }, { commitWatch: null }).then(() => assert.fail('committed'), (e: unknown) => e);
    assert.equal(codeOf(error), '22012');
  });

  test('after ROLLBACK TO a savepoint, the next abort is told by its own cause', async () => {
    const codes: (string | undefined)[] = [];
    await runTransaction(pool, async (pooled) => {
      const tx = new TransactionClient(pooled);
      tx.send('SAVEPOINT sp');
      tx.send(failingWith('22012'));
      await tx.query('SELECT 1').catch((e: unknown) => codes.push(codeOf(e)));
      await tx.query('ROLLBACK TO sp');
      tx.send(failingWith('23505'));
      await tx.query('SELECT 1').catch((e: unknown) => codes.push(codeOf(e)));
      await tx.query('ROLLBACK TO sp');
    }, { commitWatch: null });
    assert.deepEqual(codes, ['22012', '23505']);
  });
});
