// `npm run platform -- status`: the members as Patroni sees them (role, state, timeline, lag), the
// leader and the synchronous standby, and which server HAProxy's write port sends to.
import { readLayout, type PlatformLayout } from './layout.ts';
import { clusterMembers, leaderOf, syncStandbyOf, type ClusterMember } from './patroni-rest.ts';
import { isAlive, recordedProcesses } from './processes.ts';

export interface PlatformStatus {
  dir: string;
  replication: PlatformLayout['replication'];
  members: ClusterMember[];
  leader?: string;
  syncStandby?: string;
  /** The servers of HAProxy's write port it marks UP (only the leader, when all is well). */
  haproxyRoutesTo: string[];
  writePort: number;
  statsUrl: string;
  processes: { name: string; pid: number; running: boolean }[];
}

/** The server names HAProxy's `write` proxy has UP, from its stats CSV. */
export function upServersFromStatsCsv(csv: string): string[] {
  const [header, ...rows] = csv.replace(/^# /, '').trim().split('\n');
  const columns = (header ?? '').split(',');
  const at = (name: string) => columns.indexOf(name);
  return rows
    .map((row) => row.split(','))
    .filter((fields) => fields[at('pxname')] === 'write' && !['FRONTEND', 'BACKEND'].includes(fields[at('svname')] ?? '') && fields[at('status')] === 'UP')
    .map((fields) => fields[at('svname')]!);
}

export async function status(dir: string): Promise<PlatformStatus> {
  const layout = readLayout(dir);
  const statsUrl = `http://${layout.host}:${layout.haproxy.statsPort}/`;
  const members = await clusterMembers(layout).catch(() => []);
  const haproxyRoutesTo = await fetch(`${statsUrl};csv`, { signal: AbortSignal.timeout(3000) })
    .then(async (response) => upServersFromStatsCsv(await response.text()))
    .catch(() => []);
  return {
    dir,
    replication: layout.replication,
    members,
    leader: leaderOf(members),
    syncStandby: syncStandbyOf(members),
    haproxyRoutesTo,
    writePort: layout.haproxy.writePort,
    statsUrl,
    processes: recordedProcesses(dir).map((record) => ({ name: record.name, pid: record.pid, running: isAlive(record) })),
  };
}

export function formatStatus(state: PlatformStatus): string {
  const lines = [
    `platform in ${state.dir} (${state.replication} replication)`,
    `writes: 127.0.0.1:${state.writePort} -> ${state.haproxyRoutesTo.join(', ') || 'nobody'}   stats: ${state.statsUrl}`,
    `leader: ${state.leader ?? 'none'}   synchronous standby: ${state.syncStandby ?? 'none'}`,
    'member  role          state      timeline  lag (bytes)',
    ...state.members.map((member) =>
      [member.name.padEnd(7), member.role.padEnd(13), member.state.padEnd(10), String(member.timeline ?? '').padEnd(9), member.role === 'leader' ? '' : String(member.lag ?? '?')].join(' '),
    ),
    `processes: ${state.processes.map((process) => `${process.name}=${process.running ? process.pid : 'stopped'}`).join(' ')}`,
  ];
  return lines.join('\n');
}
