// `npm run platform -- down`: stops the layout and leaves nothing running. Patroni first (SIGTERM:
// it stops its PostgreSQL cleanly), then HAProxy and etcd; whatever is still there after that
// (a PostgreSQL left by a Patroni killed with -9, a process that ignores SIGTERM) gets SIGKILL.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, readLayout } from './layout.ts';
import { isAlive, processTree, recordOf, recordedProcesses, signal, type ProcessRecord } from './processes.ts';
import { waitFor } from './wait.ts';

/** The postmaster a data directory's postmaster.pid names, if it runs and is PostgreSQL. */
export function postmasterOf(dataDirectory: string, name: string): ProcessRecord | undefined {
  const pidFile = join(dataDirectory, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres')) return undefined;
  } catch {
    return undefined;
  }
  return recordOf(name, pid);
}

function everything(dir: string): ProcessRecord[] {
  const layout = readLayout(dir);
  const roots = [...recordedProcesses(dir), ...layout.nodes.flatMap((node) => postmasterOf(dataDir(layout, node.name), `${node.name}-postgres`) ?? [])];
  return roots.flatMap(processTree);
}

export async function down(dir: string): Promise<{ stopped: number; killed: number }> {
  const layout = readLayout(dir);
  const patronis = recordedProcesses(dir).filter((record) => layout.nodes.some((node) => node.name === record.name));
  signal(patronis, 'SIGTERM');
  await waitFor(async () => patronis.filter(isAlive).length, 'Patroni to stop its PostgreSQL', (alive) => alive === 0, 60_000).catch(() => {});
  const rest = everything(dir);
  signal(rest, 'SIGTERM');
  await waitFor(async () => rest.filter(isAlive).length, 'etcd and HAProxy to stop', (alive) => alive === 0, 20_000).catch(() => {});
  const stubborn = everything(dir);
  signal(stubborn, 'SIGKILL');
  await waitFor(async () => everything(dir).length, 'every process of the platform to be gone', (alive) => alive === 0, 20_000);
  return { stopped: patronis.length + rest.length, killed: stubborn.length };
}

/** The platform's processes still running (empty once `down` is done). */
export function stillRunning(dir: string): ProcessRecord[] {
  return everything(dir);
}
