// When the layout is whole: a leader that writes, every other running member streaming from it, and,
// with synchronous replication, the standby Patroni names in /sync confirmed `sync` by the leader
// itself. Patroni's /cluster alone is not enough: in CI (stop 44) it showed three running members, a
// leader and a synchronous standby while the leader was still restarting after demoting itself (its
// PostgreSQL in recovery, /sync not yet rewritten); the leader then promoted itself with no
// synchronous standby, and a kill -9 a second later left no replica Patroni may promote.
import pg from 'pg';
import type { PlatformSecrets } from './configs.ts';
import type { PlatformLayout } from './layout.ts';
import { clusterMembers, leaderOf, syncStandbyOf, type ClusterMember } from './patroni-rest.ts';

/** One row of `pg_stat_replication` on the leader: a standby's WAL sender. */
export interface WalSenderRow {
  application_name: string;
  state: string;
  sync_state: string;
}

/** The leader's PostgreSQL as it answers itself. */
export interface LeaderView {
  inRecovery: boolean;
  senders: WalSenderRow[];
}

export interface ClusterState {
  members: ClusterMember[];
  /** Absent when /cluster names no leader, or its PostgreSQL did not answer. */
  leader?: LeaderView;
}

const isRunning = (member: ClusterMember) => member.state === 'running' || member.state === 'streaming';

/** Why the cluster is not whole yet (the first reason found), or undefined once it is. */
export function notWholeBecause(state: ClusterState, expected: { members: number; synchronous: boolean }): string | undefined {
  const running = state.members.filter(isRunning);
  if (running.length < expected.members) return `${running.length} of ${expected.members} members running`;
  const leader = leaderOf(state.members);
  if (!leader) return 'no leader in /cluster';
  const standby = syncStandbyOf(state.members);
  if (expected.synchronous && !standby) return 'no synchronous standby in /sync';
  if (!state.leader) return `the leader ${leader} does not answer`;
  if (state.leader.inRecovery) return `the leader ${leader} is in recovery (not promoted yet)`;
  for (const member of running) {
    if (member.name === leader) continue;
    const sender = state.leader.senders.find((row) => row.application_name === member.name);
    if (sender?.state !== 'streaming') return `${member.name} is not streaming from ${leader} (${sender ? sender.state : 'no WAL sender'})`;
  }
  if (expected.synchronous && state.leader.senders.find((row) => row.application_name === standby)?.sync_state !== 'sync') {
    return `${standby} is named in /sync but is not ${leader}'s synchronous standby yet`;
  }
  return undefined;
}

/** A superuser connection straight to one node (not through HAProxy). */
export function superuserConnection(layout: PlatformLayout, secrets: PlatformSecrets, node: string): pg.ClientConfig {
  const port = layout.nodes.find((candidate) => candidate.name === node)?.port;
  if (port === undefined) throw new Error(`no node ${node}`);
  return { host: layout.host, port, user: 'postgres', password: secrets.superuser, database: 'postgres', connectionTimeoutMillis: 3000 };
}

async function leaderView(layout: PlatformLayout, secrets: PlatformSecrets, leader: string): Promise<LeaderView | undefined> {
  const client = new pg.Client(superuserConnection(layout, secrets, leader));
  client.on('error', () => {}); // a node going away surfaces as the query's error
  try {
    await client.connect();
    const recovery = await client.query<{ in_recovery: boolean }>('SELECT pg_is_in_recovery() AS in_recovery');
    const senders = await client.query<WalSenderRow>('SELECT application_name, state, sync_state FROM pg_stat_replication');
    return { inRecovery: recovery.rows[0]!.in_recovery, senders: senders.rows };
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The cluster as Patroni's /cluster and the leader's own PostgreSQL show it now. */
export async function clusterState(layout: PlatformLayout, secrets: PlatformSecrets): Promise<ClusterState> {
  const members = await clusterMembers(layout);
  const leader = leaderOf(members);
  const view = leader ? await leaderView(layout, secrets, leader) : undefined;
  return { members, ...(view ? { leader: view } : {}) };
}
