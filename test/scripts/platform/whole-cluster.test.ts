// When the failover tests (and `up`) call the layout whole: Patroni's /cluster and the leader's own
// pg_stat_replication together. The states below are the ones the platform went through after a DCS
// outage made its leader demote itself and promote itself again (CI's stop 44, reproduced with the
// etcd members stopped for 7 s and failsafe mode off).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterMember } from '../../../scripts/platform/patroni-rest.ts';
import { notWholeBecause, type ClusterState, type WalSenderRow } from '../../../scripts/platform/whole-cluster.ts';

const THREE = { members: 3, synchronous: true };

function members(leaderState: string, standby: 'pg2' | undefined): ClusterMember[] {
  return [
    { name: 'pg1', role: 'leader', state: leaderState, timeline: 4 },
    { name: 'pg2', role: standby === 'pg2' ? 'sync_standby' : 'replica', state: 'running', timeline: 4, lag: 0 },
    { name: 'pg3', role: 'replica', state: 'running', timeline: 4, lag: 0 },
  ];
}

const streaming = (name: string, sync: string): WalSenderRow => ({ application_name: name, state: 'streaming', sync_state: sync });

test("the leader restarting in recovery after demoting itself, /sync still naming its old standby: not whole (Patroni's /cluster alone said it was)", () => {
  const state: ClusterState = { members: members('running', 'pg2'), leader: { inRecovery: true, senders: [] } };
  // What the wait before this round checked: three running members, a leader, a synchronous standby.
  const running = state.members.filter((member) => member.state === 'running').length;
  assert.ok(running === 3 && state.members.some((member) => member.role === 'leader') && state.members.some((member) => member.role === 'sync_standby'));
  assert.equal(notWholeBecause(state, THREE), 'the leader pg1 is in recovery (not promoted yet)');
});

test('the leader promoted again, /sync not naming a standby yet: not whole', () => {
  const state: ClusterState = { members: members('running', undefined), leader: { inRecovery: false, senders: [streaming('pg2', 'async'), streaming('pg3', 'async')] } };
  assert.equal(notWholeBecause(state, THREE), 'no synchronous standby in /sync');
});

test('a replica not streaming from the leader (no WAL sender, or still catching up): not whole', () => {
  const withoutPg3: ClusterState = { members: members('running', 'pg2'), leader: { inRecovery: false, senders: [streaming('pg2', 'sync')] } };
  assert.equal(notWholeBecause(withoutPg3, THREE), 'pg3 is not streaming from pg1 (no WAL sender)');
  const catchingUp: ClusterState = { members: members('running', 'pg2'), leader: { inRecovery: false, senders: [streaming('pg2', 'sync'), { application_name: 'pg3', state: 'catchup', sync_state: 'async' }] } };
  assert.equal(notWholeBecause(catchingUp, THREE), 'pg3 is not streaming from pg1 (catchup)');
});

test('/sync naming a standby the leader does not yet wait for: not whole', () => {
  const state: ClusterState = { members: members('running', 'pg2'), leader: { inRecovery: false, senders: [streaming('pg2', 'async'), streaming('pg3', 'async')] } };
  assert.equal(notWholeBecause(state, THREE), "pg2 is named in /sync but is not pg1's synchronous standby yet");
});

test("a leader that does not answer, or a member short: not whole; every replica streaming and /sync's standby in sync: whole", () => {
  assert.equal(notWholeBecause({ members: members('running', 'pg2') }, THREE), 'the leader pg1 does not answer');
  const starting: ClusterState = { members: members('starting', 'pg2'), leader: { inRecovery: false, senders: [] } };
  assert.equal(notWholeBecause(starting, THREE), '2 of 3 members running');
  const whole: ClusterState = { members: members('running', 'pg2'), leader: { inRecovery: false, senders: [streaming('pg2', 'sync'), streaming('pg3', 'async')] } };
  assert.equal(notWholeBecause(whole, THREE), undefined);
  // The kill -9 scenario's two members: the leader and its synchronous standby.
  const two: ClusterState = { members: members('running', 'pg2').slice(0, 2), leader: { inRecovery: false, senders: [streaming('pg2', 'sync')] } };
  assert.equal(notWholeBecause(two, { members: 2, synchronous: true }), undefined);
  // Asynchronous (the negative control): no synchronous standby asked for.
  const asynchronous: ClusterState = { members: members('running', undefined), leader: { inRecovery: false, senders: [streaming('pg2', 'async'), streaming('pg3', 'async')] } };
  assert.equal(notWholeBecause(asynchronous, { members: 3, synchronous: false }), undefined);
});
