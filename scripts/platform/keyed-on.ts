// What runs for a platform's state folder, found three ways so that nothing escapes: the processes
// recorded in it (etcd, Patroni, HAProxy, engine nodes), the postmasters its data directories'
// postmaster.pid files name (a PostgreSQL left by a Patroni killed with -9), and any process whose
// working directory is inside it (PostgreSQL's postmaster and backends chdir to their data directory;
// Patroni, etcd and HAProxy run in the folder). Each with every process below it. Linux only (/proc).
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { dataDir, readLayout } from './layout.ts';
import { processTree, recordOf, recordedProcesses, type ProcessRecord } from './processes.ts';

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

/** The running postmasters of the folder's data directories (none before `up` wrote its layout). */
export function postmastersOf(dir: string): ProcessRecord[] {
  if (!existsSync(join(dir, 'layout.json'))) return [];
  const layout = readLayout(dir);
  return layout.nodes.flatMap((node) => postmasterOf(dataDir(layout, node.name), `${node.name}-postgres`) ?? []);
}

/**
 * The programs a platform runs (PostgreSQL, etcd, HAProxy, Patroni's Python, an engine node's Node):
 * only these are taken by their working directory, never a shell someone opened in the folder to read
 * its logs.
 */
const PLATFORM_PROGRAM = /^(postgres|etcd|haproxy|python3(\.\d+)?|node)$/;

/** Every platform program whose working directory is the folder or below it, as they are now. */
export function processesWorkingIn(dir: string): ProcessRecord[] {
  const folder = resolve(dir);
  const found: ProcessRecord[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let cwd: string;
    let program: string;
    try {
      cwd = readlinkSync(`/proc/${entry}/cwd`);
      program = basename(readlinkSync(`/proc/${entry}/exe`));
    } catch {
      continue; // gone, or a kernel thread
    }
    if (cwd !== folder && !cwd.startsWith(`${folder}/`)) continue;
    if (!PLATFORM_PROGRAM.test(program)) continue;
    const record = recordOf(`cwd/${entry}`, Number(entry));
    if (record) found.push(record);
  }
  return found;
}

/** This process and those above it (`npm run platform -- down` started from inside the folder must not stop its own npm). */
function selfAndAncestors(): Set<number> {
  const chain = new Set<number>();
  for (let pid = process.pid; pid > 1 && !chain.has(pid); ) {
    chain.add(pid);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
  }
  return chain;
}

/** Everything keyed on the folder that still runs (never this process nor its ancestors), each once. */
export function keyedOn(dir: string): ProcessRecord[] {
  const roots = [...recordedProcesses(dir), ...postmastersOf(dir), ...processesWorkingIn(dir)];
  const seen = new Set<string>();
  const own = selfAndAncestors();
  return roots.flatMap(processTree).filter((record) => {
    const key = `${record.pid}:${record.startTime}`;
    if (seen.has(key) || own.has(record.pid)) return false;
    seen.add(key);
    return true;
  });
}
