// What each thread of the browser's processes did over a span, from Linux's own accounting (issue 33's
// replay e2e): /proc/<pid>/task/<tid>/schedstat gives a thread's time on a core and its time runnable
// but waiting on a run queue (ready, no core free), in nanoseconds. A frame late because its threads
// waited for a core shows here as run-queue wait; one late because of the page's or the browser's own
// work shows as time on a core. Linux only: elsewhere a snapshot is empty.
import { readdirSync, readFileSync } from 'node:fs';

/** One thread's counters: where it runs (process type and thread name) and its nanoseconds. */
interface ThreadCounters {
  key: string;
  runNs: number;
  waitNs: number;
}

export type ThreadSnapshot = Map<string, ThreadCounters>;

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** Every process below `root`, found through each process's parent in /proc/<pid>/stat. */
function descendants(root: number): number[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const pid of pids) {
    const stat = read(`/proc/${pid}/stat`);
    if (!stat) continue;
    // The command name is in parentheses and may hold spaces: the fields after it are fixed.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** "renderer", "gpu-process", "utility", "zygote" or "browser": a Chromium process's --type. */
function processType(pid: number): string | null {
  const cmdline = read(`/proc/${pid}/cmdline`);
  if (!cmdline || !/chrom/i.test(cmdline.split('\0')[0] ?? '')) return null;
  return /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser';
}

/** The counters of every thread of the Chromium processes below `root` (this test's process by default). */
export function snapshotThreads(root = process.pid): ThreadSnapshot {
  const snapshot: ThreadSnapshot = new Map();
  for (const pid of descendants(root)) {
    const type = processType(pid);
    if (!type) continue;
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const schedstat = read(`/proc/${pid}/task/${tid}/schedstat`);
      const comm = read(`/proc/${pid}/task/${tid}/comm`);
      if (!schedstat || comm === null) continue;
      const [run, wait] = schedstat.trim().split(' ').map(Number);
      // Numbered pools (ThreadPoolForegr, CompositorTileW…) are summed under their name without digits.
      snapshot.set(`${pid}/${tid}`, { key: `${type} ${comm.trim().replace(/\d+$/, '')}`, runNs: run ?? 0, waitNs: wait ?? 0 });
    }
  }
  return snapshot;
}

export interface ThreadUse {
  /** Process type and thread name, e.g. "renderer CrRendererMain", "gpu-process VizCompositorTh". */
  thread: string;
  /** On a core, ms. */
  run_ms: number;
  /** Runnable and waiting for a core, ms. */
  wait_ms: number;
}

export interface ProcessCpu {
  /** All the browser's threads: on a core, and waiting for one (ms). */
  run_ms: number;
  wait_ms: number;
  /** The threads that ran or waited most, by name, summed over threads of one name. */
  threads: ThreadUse[];
}

/** What ran between two snapshots: threads present in both, or started in between (counted from 0). */
export function threadUse(before: ThreadSnapshot, after: ThreadSnapshot, top = 8): ProcessCpu {
  const byName = new Map<string, { run: number; wait: number }>();
  for (const [id, now] of after) {
    const then = before.get(id);
    const use = byName.get(now.key) ?? { run: 0, wait: 0 };
    use.run += now.runNs - (then?.runNs ?? 0);
    use.wait += now.waitNs - (then?.waitNs ?? 0);
    byName.set(now.key, use);
  }
  const ms = (ns: number) => Math.round(ns / 1e5) / 10;
  const threads = [...byName].map(([thread, use]) => ({ thread, run_ms: ms(use.run), wait_ms: ms(use.wait) }));
  threads.sort((a, b) => b.run_ms + b.wait_ms - (a.run_ms + a.wait_ms));
  return {
    run_ms: Math.round(threads.reduce((sum, t) => sum + t.run_ms, 0)),
    wait_ms: Math.round(threads.reduce((sum, t) => sum + t.wait_ms, 0)),
    threads: threads.filter((t) => t.run_ms + t.wait_ms > 0).slice(0, top),
  };
}
