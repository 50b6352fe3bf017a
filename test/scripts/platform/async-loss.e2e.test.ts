// The negative control of the failover tests (issue 35): the same layout and writer load with
// asynchronous replication, the primary's replication link stalling, then the primary killed with
// -9. Acknowledged commits that never reached a standby are gone after the failover, and the
// checker must say so: this proves it can fail, so its 0 lost in failover.e2e.test.ts means something.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { PlatformSecrets } from '../../../scripts/platform/configs.ts';
import { down, stillRunning } from '../../../scripts/platform/down.ts';
import type { PlatformLayout } from '../../../scripts/platform/layout.ts';
import { up, writeConnection } from '../../../scripts/platform/up.ts';
import { eventually } from '../../support/eventually.ts';
import { explainingFailure } from '../../support/platform-diagnosis.ts';
import { checkAcknowledged, prepareOrdersTable, startOrderWriters } from '../../support/order-writers.ts';
import { currentLeader, killDatabaseNode, stallWalSenders, walSenders } from '../../support/platform-faults.ts';

const clock = () => performance.now();
let layout: PlatformLayout;
let secrets: PlatformSecrets;

before(async () => {
  const started = await up({ reapWhenGone: true, replication: 'asynchronous' });
  layout = started.layout;
  secrets = started.secrets;
  await prepareOrdersTable(writeConnection(layout, secrets));
});

after(async () => {
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
