// Issue 35: a `serve --database` node stopped while a jobs pass is under way shuts down cleanly: the
// HTTP server first, then the jobs runner (waiting for its pass), the LISTEN connection and the
// re-poll, and only then the pool. It used to close the pool under the pass, which then logged
// "Cannot use a pool after calling end". The pass is held in flight by a lock on the table it reads
// (released once the node has stopped listening), and the node's whole log is checked.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { eventually } from '../support/eventually.ts';
import { usePostgresCluster, type PostgresCluster } from '../support/postgres-cluster.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** Whether something accepts connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('serve --database shutting down under a jobs pass', () => {
  let cluster: PostgresCluster;
  let url: string;
  let locker: pg.Client;
  let watcher: pg.Client;

  before(async () => {
    cluster = await usePostgresCluster();
    url = await cluster.createDatabase('serve_shutdown');
    locker = new pg.Client({ connectionString: url });
    watcher = new pg.Client({ connectionString: url });
    await locker.connect();
    await watcher.connect();
  });
  after(async () => {
    await locker?.end().catch(() => {});
    await watcher?.end().catch(() => {});
    await cluster?.release();
  });

  // A child Node start (tsx), and on a fresh checkout the kitchen screen's first build.
  test('SIGTERM while a pass waits on the database: no error logged, exit code 0', { timeout: 240_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/serve.ts', '--database', url, '--port', '0', '--demo'], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await eventually(() => stdout.includes('\n'), 'the base_url line', { timeoutMs: 200_000 });
      const port = Number(new URL((JSON.parse(stdout.split('\n')[0]!) as { base_url: string }).base_url).port);

      // Every pass reads the restaurants (busy mode's follow-up), then reads each one's kitchen (the
      // demo's two): held here, the next pass waits, and goes on with more statements once let go.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE restaurants IN ACCESS EXCLUSIVE MODE');
      await eventually(
        async () => (await watcher.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'comanda' AND wait_event_type = 'Lock'",
        )).rows[0]!.n,
        'a jobs pass waiting for the restaurants table',
        { until: (n) => n >= 1 },
      );
      child.kill('SIGTERM');
      await eventually(async () => !(await listening(port)), 'the node to stop listening');
      await locker.query('ROLLBACK');
      assert.equal(await exited, 0, stderr.slice(-3000));
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    assert.match(stderr, /"msg":"shutting down"/);
    const errors = stderr.split('\n').filter((line) => /"level":(50|60)/.test(line) || /Cannot use a pool/.test(line));
    assert.deepEqual(errors, [], 'nothing logged at error level while shutting down');
  });
});
