// The negative control of the failover tests (issue 35): the same layout and loads with asynchronous
// replication, the primary's replication link stalling, then the primary killed with -9. Commits
// acknowledged that never reached a standby are gone after the failover, and the comparison must say
// so: this proves it can fail, so its 0 lost in failover.e2e.test.ts means something. Twice, one
// `up`: the raw writers (order-writers.ts's checker) on three members, then the engine nodes' run
// (engine-nodes-under-load.ts's comparison of orders answered 201 with the leader) on the two left.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type pg from 'pg';
import { after, before, test } from 'node:test';
import type { PlatformSecrets } from '../../../scripts/platform/configs.ts';
import { down, stillRunning } from '../../../scripts/platform/down.ts';
import type { PlatformLayout } from '../../../scripts/platform/layout.ts';
import { up, writeConnection } from '../../../scripts/platform/up.ts';
import { APP_DATABASE, APP_ROLE } from '../../../scripts/platform/configs.ts';
import { migratePostgres } from '../../../src/engine/postgres/migrate-postgres.ts';
import { createPostgresPool } from '../../../src/engine/postgres/postgres-pool.ts';
import { engineNodesUnderLoad } from './support/engine-nodes-under-load.ts';
import { eventually } from '../../support/eventually.ts';
import { explainingFailure } from '../../support/platform-diagnosis.ts';
import { checkAcknowledged, prepareOrdersTable, startOrderWriters } from '../../support/order-writers.ts';
import { currentLeader, killDatabaseNode, stallWalSenders, walSenders } from '../../support/platform-faults.ts';

const clock = () => performance.now();
let layout: PlatformLayout;
let secrets: PlatformSecrets;
let admin: pg.Pool | undefined;
/** Orders answered before the fault, after the link stalls, and after the failover: few, to keep CI short. */
const ORDERS_AROUND_THE_FAULT = 4;
const ORDERS_WHILE_STALLED = 3;

before(async () => {
  const started = await up({ reapWhenGone: true, replication: 'asynchronous' });
  layout = started.layout;
  secrets = started.secrets;
  await prepareOrdersTable(writeConnection(layout, secrets));
});

after(async () => {
  await admin?.end();
  if (!layout) return;
  await down(layout.dir);
  assert.deepEqual(stillRunning(layout.dir), [], 'down leaves nothing running');
  rmSync(layout.dir, { recursive: true, force: true });
});

test('with asynchronous replication, kill -9 of the primary loses acknowledged rows, and the checker finds them', { timeout: 400_000 }, async (t) => {
  const label = 'async-negative-control';
  const writers = startOrderWriters({ connection: writeConnection(layout, secrets), clients: 4, clock, label });
  try {
    await eventually(() => writers.acknowledged.length, 'writes before the fault', { until: (count) => count >= 40, timeoutMs: 60_000 });
    const leader = (await currentLeader(layout))!;
    // Both standbys streaming first: on a busy machine one may still be connecting when writes begin.
    await eventually(() => walSenders(layout, leader).length, 'both standbys streaming from the leader', { until: (count) => count >= 2, timeoutMs: 120_000 });
    stallWalSenders(layout, leader);
    const stalledAt = writers.acknowledged.length;
    // Asynchronous commits go on without the standbys: wait until some are acknowledged that no standby has.
    await eventually(() => writers.acknowledged.length - stalledAt, 'writes acknowledged while the link stalls', { until: (count) => count >= 40, timeoutMs: 60_000 });
    killDatabaseNode(layout, leader);
    await explainingFailure(layout, writers, clock, () => eventually(() => currentLeader(layout), 'a new leader', { until: (name) => name !== undefined && name !== leader, timeoutMs: 150_000 }));
    const afterKill = writers.acknowledged.length;
    await explainingFailure(layout, writers, clock, () => eventually(() => writers.acknowledged.length - afterKill, 'writes to resume', { until: (count) => count >= 40, timeoutMs: 150_000 }));
    const report = await writers.stop();
    const check = await checkAcknowledged(writeConnection(layout, secrets), report.acknowledged, label);
    const figure = `negative control (asynchronous): acknowledged ${check.acknowledged}, lost ${check.lost.length}, duplicated ${check.duplicated.length}; wrong answers ${report.wrongAnswers.length}`;
    t.diagnostic(figure);
    console.log(`platform figure: ${figure}`);
    assert.ok(check.lost.length > 0, 'the checker finds the acknowledged rows the asynchronous failover lost');
    assert.deepEqual(report.wrongAnswers, [], 'the clients still saw only errors they retry');
  } finally {
    await writers.stop();
  }
});

test('with asynchronous replication, the engine nodes\' run (serve --database through HAProxy) loses orders answered 201, and the comparison finds them', { timeout: 300_000 }, async (t) => {
  // The previous test killed one member: a leader and one replica are left.
  const connectionString = `postgres://${APP_ROLE}:${encodeURIComponent(secrets.app)}@${layout.host}:${layout.haproxy.writePort}/${APP_DATABASE}`;
  admin = createPostgresPool({ connectionString, max: 2, onError: () => {} });
  await eventually(() => currentLeader(layout), 'a leader after the previous kill', { until: (name) => name !== undefined, timeoutMs: 150_000 });
  await migratePostgres(admin);
  let leader: string | undefined;
  const outcome = await engineNodesUnderLoad({
    layout,
    admin,
    label: 'engine-async-negative-control',
    clock,
    ordersAroundTheFault: ORDERS_AROUND_THE_FAULT,
    recoveryTimeoutMs: 150_000,
    database: { url: `postgres://${APP_ROLE}@${layout.host}:${layout.haproxy.writePort}/${APP_DATABASE}`, password: secrets.app },
    signal: t.signal,
    fault: {
      inject: async (_nodes, scenario) => {
        leader = await currentLeader(layout);
        assert.ok(leader, 'a leader');
        await eventually(() => walSenders(layout, leader!).length, 'the replica streaming from the leader', { until: (count) => count >= 1, timeoutMs: 120_000 });
        stallWalSenders(layout, leader);
        // Orders answered now were committed on the leader alone.
        const stalledAt = scenario.ordersAnswered();
        await eventually(() => scenario.ordersAnswered() - stalledAt, 'orders answered while the link stalls', { until: (count) => count >= ORDERS_WHILE_STALLED, timeoutMs: 120_000 });
        killDatabaseNode(layout, leader);
      },
    },
  });
  const figure = `engine negative control (asynchronous): ${outcome.figure}; leader killed ${leader}, now ${await currentLeader(layout)}; wrong answers: ${JSON.stringify(outcome.report.wrongAnswers.slice(0, 5))}`;
  t.diagnostic(figure);
  console.log(`platform figure: ${figure}`);
  assert.ok(outcome.lost.length > 0, 'the comparison finds orders answered 201 that the asynchronous failover lost');
});
