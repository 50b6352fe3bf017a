// The commit watch's rule (commit-watch.ts) and the connection bounds it works with: a COMMIT is cut
// only when the database's answer proves nothing can be committing it; a statement's client-side
// bound finds a half-open connection early enough to rerun within the retry budget. The watch
// against a real PostgreSQL behind a dead network is in half-open.e2e.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_COMMIT_WATCH_TIMING, verdictOf, whileCommitting, type CommitVerdict, type Session } from '../../../src/engine/postgres/commit-watch.ts';
import { KEEPALIVE, POSTGRES_TIMEOUTS } from '../../../src/engine/postgres/postgres-pool.ts';
import { DEFAULT_OUTAGE_RETRY } from '../../../src/engine/postgres/run-transaction.ts';
import { DEFAULT_HEARTBEAT } from '../../../src/engine/postgres/feed-listener.ts';
import { eventually } from '../../support/eventually.ts';

const SESSION: Session = { pid: 41, server: '10.0.0.11:5432@2026-11-28 20:00:00+00', started: '2026-11-28 21:00:00+00' };

test('only a session of the same server still running a statement is committing', () => {
  assert.equal(verdictOf(SESSION, { server: SESSION.server, state: 'active' }), 'committing');
  assert.equal(verdictOf(SESSION, { server: SESSION.server, state: 'idle in transaction' }), 'gone', 'the COMMIT never arrived');
  assert.equal(verdictOf(SESSION, { server: SESSION.server, state: 'idle' }), 'gone', 'it committed and its answer was lost');
  assert.equal(verdictOf(SESSION, { server: SESSION.server, state: null }), 'gone', 'the session ended');
  assert.equal(verdictOf(SESSION, { server: '10.0.0.12:5432@2026-11-28 20:00:00+00', state: 'active' }), 'gone', 'the write address reaches another server');
  assert.equal(verdictOf(SESSION, { server: '10.0.0.11:5432@2026-11-28 22:00:00+00', state: 'active' }), 'gone', 'the server restarted (a pid there is another session)');
});

/** A COMMIT that answers only when told, and a watch whose verdicts the test gives. */
function commitAndWatch(verdicts: CommitVerdict[]) {
  let answer!: (value: string) => void;
  let fail!: (error: Error) => void;
  const commit = new Promise<string>((resolve, reject) => ((answer = resolve), (fail = reject)));
  const asked: CommitVerdict[] = [];
  const watch = {
    afterMs: 1,
    everyMs: 1,
    probe: async () => {
      const verdict = verdicts[Math.min(asked.length, verdicts.length - 1)]!;
      asked.push(verdict);
      return verdict;
    },
  };
  return { commit, answer, fail, asked, watch };
}

test('a COMMIT the database is still running is never cut, however many times it is asked about', async () => {
  const { commit, answer, asked, watch } = commitAndWatch(['unknown', 'committing']);
  let cuts = 0;
  const waiting = whileCommitting(commit, SESSION, watch, () => (cuts += 1));
  await eventually(() => asked.length, 'several questions', { until: (count) => count >= 5 });
  answer('COMMIT');
  assert.equal(await waiting, 'COMMIT');
  assert.equal(cuts, 0);
});

test('a COMMIT nothing is running any more: the connection is cut once, and the COMMIT ends as its connection did', async () => {
  const { commit, fail, watch } = commitAndWatch(['unknown', 'gone']);
  let cuts = 0;
  const waiting = whileCommitting(commit, SESSION, watch, () => {
    cuts += 1;
    fail(new Error('Connection terminated unexpectedly'));
  });
  await assert.rejects(waiting, /Connection terminated unexpectedly/);
  assert.equal(cuts, 1);
});

test('the bounds: a statement into a half-open connection is found and rerun within the budget; slow ones end by PostgreSQL first', () => {
  assert.ok(POSTGRES_TIMEOUTS.query_timeout > POSTGRES_TIMEOUTS.statement_timeout, 'PostgreSQL ends a merely slow statement with its own error');
  assert.ok(POSTGRES_TIMEOUTS.query_timeout > POSTGRES_TIMEOUTS.lock_timeout, 'and a lock wait');
  assert.ok(POSTGRES_TIMEOUTS.query_timeout + POSTGRES_TIMEOUTS.connectionTimeoutMillis < DEFAULT_OUTAGE_RETRY.budgetMs, 'a rerun after a dead statement fits the budget');
  assert.ok(POSTGRES_TIMEOUTS.idle_in_transaction_session_timeout < POSTGRES_TIMEOUTS.lock_timeout, 'an orphaned transaction\'s locks are freed before a waiter\'s lock_timeout');
  assert.ok(DEFAULT_COMMIT_WATCH_TIMING.afterMs + DEFAULT_COMMIT_WATCH_TIMING.probeTimeoutMs < DEFAULT_OUTAGE_RETRY.budgetMs, 'a dead COMMIT is found within the budget');
  assert.ok(DEFAULT_HEARTBEAT.timeoutMs < DEFAULT_HEARTBEAT.everyMs);
  assert.deepEqual(KEEPALIVE, { keepAlive: true, keepAliveInitialDelayMillis: 5_000 });
});
