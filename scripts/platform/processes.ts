// The layout's processes: started detached (they outlive `npm run platform -- up`), each one's pid
// and start time recorded in the state folder, so that `down` and the tests stop exactly these
// and never a process that later took the same pid. Linux only (/proc).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ProcessRecord {
  name: string;
  pid: number;
  startTime: string;
}

export interface RunAs {
  uid: number;
  gid: number;
}

/** Field 22 of /proc/PID/stat (start time in clock ticks since boot), or undefined once gone. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return undefined; // a zombie has exited
    return fields[19];
  } catch {
    return undefined;
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

export function isAlive(record: ProcessRecord): boolean {
  return startTimeOf(record.pid) === record.startTime;
}

/** A process by pid as it is now (for a postmaster found in its postmaster.pid file). */
export function recordOf(name: string, pid: number): ProcessRecord | undefined {
  const startTime = startTimeOf(pid);
  return startTime === undefined ? undefined : { name, pid, startTime };
}

/** The process and every process below it, as they are now (children first found, then theirs). */
export function processTree(root: ProcessRecord): ProcessRecord[] {
  if (!isAlive(root)) return [];
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    if (parent === undefined) continue;
    parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
  }
  const tree: ProcessRecord[] = [root];
  for (let index = 0; index < tree.length; index += 1) {
    for (const child of parents.get(tree[index]!.pid) ?? []) {
      const record = recordOf(`${root.name}/${child}`, child);
      if (record) tree.push(record);
    }
  }
  return tree;
}

const pidFolder = (dir: string) => join(dir, 'pids');

export function startDetached(dir: string, name: string, command: string, args: string[], options: { runAs?: RunAs; cwd?: string; env?: NodeJS.ProcessEnv } = {}): ProcessRecord {
  mkdirSync(pidFolder(dir), { recursive: true });
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const log = openSync(join(dir, 'logs', `${name}.log`), 'a');
  try {
    const child = spawn(command, args, {
      detached: true,
      stdio: ['ignore', log, log],
      cwd: options.cwd ?? dir,
      env: options.env ?? process.env,
      ...(options.runAs ?? {}),
    });
    if (child.pid === undefined) throw new Error(`${name}: ${command} did not start`);
    child.unref();
    const record = recordOf(name, child.pid);
    if (!record) throw new Error(`${name}: ${command} exited at once (see ${join(dir, 'logs', `${name}.log`)})`);
    writeFileSync(join(pidFolder(dir), `${name}.json`), JSON.stringify(record));
    return record;
  } finally {
    closeSync(log);
  }
}

export function recordedProcesses(dir: string): ProcessRecord[] {
  const folder = pidFolder(dir);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(join(folder, file), 'utf8')) as ProcessRecord);
}

export function forgetProcess(dir: string, name: string): void {
  rmSync(join(pidFolder(dir), `${name}.json`), { force: true });
}

export function signal(records: ProcessRecord[], signalName: NodeJS.Signals): void {
  for (const record of records) {
    if (!isAlive(record)) continue;
    try {
      process.kill(record.pid, signalName);
    } catch {
      // gone between the check and the signal
    }
  }
}

/** kill -9 of a process and all below it at once (a machine losing power, as far as they can tell). */
export function killTree(root: ProcessRecord): ProcessRecord[] {
  const tree = processTree(root);
  signal(tree, 'SIGSTOP'); // none of them acts on the others' deaths before all are gone
  signal(tree, 'SIGKILL');
  return tree;
}
