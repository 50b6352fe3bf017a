// The faults the platform's failover tests inject, on the layout `npm run platform -- up` started:
// a database machine dying (kill -9 of its Patroni and PostgreSQL at once), an etcd member dying,
// the replication stream stalling, and a planned switchover through patronictl.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { etcdArguments } from '../../scripts/platform/configs.ts';
import { postmasterOf } from '../../scripts/platform/down.ts';
import { dataDir, nodeDir, type PlatformLayout } from '../../scripts/platform/layout.ts';
import { clusterMembers, leaderOf } from '../../scripts/platform/patroni-rest.ts';
import { forgetProcess, isAlive, killTree, processTree, recordedProcesses, signal, startDetached, type ProcessRecord } from '../../scripts/platform/processes.ts';
import { superuserConnection } from '../../scripts/platform/whole-cluster.ts';

const run = promisify(execFile);

export async function currentLeader(layout: PlatformLayout): Promise<string | undefined> {
  return leaderOf(await clusterMembers(layout));
}

function recordOfProcess(layout: PlatformLayout, name: string): ProcessRecord {
  const record = recordedProcesses(layout.dir).find((candidate) => candidate.name === name);
  if (!record) throw new Error(`no process ${name} in ${layout.dir}`);
  return record;
}

/** A database machine dies: its Patroni, its PostgreSQL and everything below them get SIGKILL at once. */
export function killDatabaseNode(layout: PlatformLayout, node: string): ProcessRecord[] {
  const postmaster = postmasterOf(dataDir(layout, node), `${node}-postgres`);
  const patroni = recordOfProcess(layout, node);
  const everything = [...processTree(patroni), ...(postmaster ? processTree(postmaster) : [])];
  signal(everything, 'SIGSTOP');
  signal(everything, 'SIGKILL');
  return everything;
}

export function killEtcdMember(layout: PlatformLayout, member: string): void {
  killTree(recordOfProcess(layout, member));
}

/**
 * The DCS goes quiet: the etcd members named stop answering (SIGSTOP) for `ms`, then resume. Every
 * Patroni loses etcd at once while every PostgreSQL and Patroni keeps running: what an etcd member's
 * restart or a starved machine did to the leader's Patroni in CI (stop 44).
 */
export async function stallEtcdMembers(layout: PlatformLayout, members: readonly string[], ms: number): Promise<void> {
  const records = members.map((member) => recordOfProcess(layout, member));
  signal(records, 'SIGSTOP');
  try {
    await new Promise((resolve) => setTimeout(resolve, ms));
  } finally {
    signal(records, 'SIGCONT');
  }
}

/** The member comes back on its data folder (etcd rejoins from it and ignores the initial-cluster flags). */
export function restartEtcdMember(layout: PlatformLayout, member: string): void {
  forgetProcess(layout.dir, member);
  startDetached(layout.dir, member, '/usr/bin/etcd', etcdArguments(layout, member, 'rejoin'));
}

export function isRunning(layout: PlatformLayout, name: string): boolean {
  return isAlive(recordOfProcess(layout, name));
}

/** The node's WAL senders now: one per standby streaming from it (none while the standbys still connect). */
export function walSenders(layout: PlatformLayout, node: string): ProcessRecord[] {
  const postmaster = postmasterOf(dataDir(layout, node), `${node}-postgres`);
  if (!postmaster) throw new Error(`${node}: no PostgreSQL running`);
  return processTree(postmaster).filter((record) => {
    try {
      return readFileSync(`/proc/${record.pid}/cmdline`, 'utf8').includes('walsender');
    } catch {
      return false;
    }
  });
}

/** The primary's WAL senders stop (SIGSTOP): a replication link that stalls, so that what it has not sent yet is only on the primary. */
export function stallWalSenders(layout: PlatformLayout, node: string): ProcessRecord[] {
  const senders = walSenders(layout, node);
  if (senders.length === 0) throw new Error(`${node}: no WAL sender to stall`);
  signal(senders, 'SIGSTOP');
  return senders;
}

/** A planned switchover, as an operator does it. */
export async function switchover(layout: PlatformLayout, leader: string, candidate: string): Promise<string> {
  const { stdout, stderr } = await run('patronictl', ['-c', join(nodeDir(layout, leader), 'patroni.yml'), 'switchover', layout.scope, '--leader', leader, '--candidate', candidate, '--force'], { timeout: 120_000 });
  return `${stdout}${stderr}`;
}

/** A superuser connection straight to one node (not through HAProxy). */
export const nodeConnection = superuserConnection;

export async function queryNode<T extends pg.QueryResultRow>(connection: pg.ClientConfig, sql: string): Promise<T[]> {
  const client = new pg.Client(connection);
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}
