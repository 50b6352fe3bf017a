// What a platform test prints when it times out, so that a failure in CI explains itself: the
// cluster as Patroni and HAProxy see it (`npm run platform -- status`, `patronictl list`), each
// node's answer to HAProxy's /primary check, the leader's own pg_stat_replication, where every writer
// waits and since when, its last error, and the tail of each node's Patroni and PostgreSQL logs.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { nodeDir, type PlatformLayout } from '../../scripts/platform/layout.ts';
import { restStatus } from '../../scripts/platform/patroni-rest.ts';
import { formatStatus, status } from '../../scripts/platform/status.ts';
import type { PlatformSecrets } from '../../scripts/platform/configs.ts';
import { secretsFile } from '../../scripts/platform/up.ts';
import { clusterState, notWholeBecause } from '../../scripts/platform/whole-cluster.ts';
import type { OrderWriters } from './order-writers.ts';

const run = promisify(execFile);
const LOG_LINES = 25;

/** The file's last lines; with `onlyStamped`, only lines that begin with a date (Patroni's own, not the tracebacks of clients that hung up). */
function tail(file: string, lines: number, onlyStamped = false): string {
  if (!existsSync(file)) return `(no ${file})`;
  const all = readFileSync(file, 'utf8').split('\n');
  return (onlyStamped ? all.filter((line) => /^\d{4}-\d\d-\d\d /.test(line)) : all).slice(-lines - 1).join('\n');
}

async function patronictlList(layout: PlatformLayout): Promise<string> {
  for (const node of layout.nodes) {
    try {
      const { stdout } = await run('patronictl', ['-c', join(nodeDir(layout, node.name), 'patroni.yml'), 'list'], { timeout: 15_000 });
      return stdout;
    } catch (error) {
      if (node === layout.nodes.at(-1)) return `patronictl list failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return 'no node';
}

async function patroniSelf(layout: PlatformLayout, restPort: number): Promise<string> {
  try {
    const response = await fetch(`http://${layout.host}:${restPort}/patroni`, { signal: AbortSignal.timeout(3000) });
    return (await response.text()).slice(0, 600);
  } catch (error) {
    return `no answer (${error instanceof Error ? error.message : String(error)})`;
  }
}

async function leaderReplication(layout: PlatformLayout): Promise<string> {
  try {
    const secrets = JSON.parse(readFileSync(secretsFile(layout.dir), 'utf8')) as PlatformSecrets;
    const state = await clusterState(layout, secrets);
    const members = state.members.filter((member) => member.state === 'running' || member.state === 'streaming').length;
    const senders = state.leader ? JSON.stringify(state.leader.senders) : 'the leader does not answer';
    return `${senders}\nwhole (${members} running)? ${notWholeBecause(state, { members, synchronous: layout.replication === 'synchronous' }) ?? 'yes'}`;
  } catch (error) {
    return `not read: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export async function diagnosePlatform(layout: PlatformLayout, writers: OrderWriters | undefined, clock: () => number): Promise<string> {
  const now = clock();
  const sections = [
    `--- platform state (${layout.dir})`,
    await status(layout.dir).then(formatStatus, (error: unknown) => `status failed: ${String(error)}`),
    '--- patronictl list',
    await patronictlList(layout),
    '--- /primary (what HAProxy checks)',
    (await Promise.all(layout.nodes.map(async (node) => `${node.name}: ${await restStatus(layout, node.name, '/primary')}`))).join('  '),
    '--- each node\'s own view (GET /patroni: role, timeline, WAL positions)',
    ...(await Promise.all(layout.nodes.map(async (node) => `${node.name}: ${await patroniSelf(layout, node.restPort)}`))),
    "--- the leader's own pg_stat_replication (who streams from it, who is its synchronous standby)",
    await leaderReplication(layout),
  ];
  if (writers) {
    sections.push(
      `--- writers (${writers.inFlight()} in flight, ${writers.acknowledged.length} acknowledged)`,
      ...writers.states().map(
        (state) =>
          `client ${state.client}: ${state.phase} for ${((now - state.since) / 1000).toFixed(1)} s, key ${state.key}, ${state.acknowledged} acknowledged, last error ${state.lastError ? `${((now - state.lastError.at) / 1000).toFixed(1)} s ago: ${state.lastError.message}` : 'none'}`,
      ),
    );
  }
  for (const node of layout.nodes) {
    sections.push(`--- ${node.name}: Patroni log (last ${LOG_LINES} lines)`, tail(join(nodeDir(layout, node.name), 'patroni.log'), LOG_LINES, true));
    sections.push(`--- ${node.name}: PostgreSQL and Patroni output (last ${LOG_LINES} lines)`, tail(join(layout.dir, 'logs', `${node.name}.log`), LOG_LINES));
  }
  return sections.join('\n');
}

/** Runs `wait`; when it fails (a timeout), the error carries the platform's state. */
export async function explainingFailure<T>(layout: PlatformLayout, writers: OrderWriters | undefined, clock: () => number, wait: () => Promise<T>): Promise<T> {
  try {
    return await wait();
  } catch (error) {
    const diagnosis = await diagnosePlatform(layout, writers, clock).catch((failure: unknown) => `diagnosis failed: ${String(failure)}`);
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${diagnosis}`, { cause: error });
  }
}
