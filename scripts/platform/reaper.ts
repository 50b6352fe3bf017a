// Nothing left behind: a platform started for a test is tied to the process that started it. A
// watchdog process of its own (detached, so that a runner killed with its process group does not take
// it along) polls that process; once it is gone (a test file that exited with its teardown skipped, a
// runner killed with -9 by a CI timeout) it kills everything keyed on the state folder (keyed-on.ts)
// and removes the folder. A normal teardown removes the folder itself: the reaper then exits without
// acting. Linux only (/proc).
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { keyedOn } from './keyed-on.ts';
import { isAlive, recordOf, signal, type ProcessRecord } from './processes.ts';

/** How often the reaper looks at the process it watches. */
const WATCH_EVERY_MS = 500;
/** Rounds of SIGKILL before the reaper gives up on a process (one that keeps respawning children). */
const KILL_ROUNDS = 50;

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Kills everything keyed on the folder (SIGSTOP first, so that none acts on another's death, such as
 * Patroni restarting its PostgreSQL), then removes the folder. Returns how many processes it killed.
 */
export function reapNow(dir: string): number {
  let killed = 0;
  for (let round = 0; round < KILL_ROUNDS; round += 1) {
    const alive = keyedOn(dir);
    if (alive.length === 0) break;
    signal(alive, 'SIGSTOP');
    signal(alive, 'SIGKILL');
    killed += alive.length;
    // A killed process lingers until its parent reaps it; isAlive treats a zombie as gone.
    const deadline = Date.now() + 1_000;
    while (alive.some(isAlive) && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  rmSync(dir, { recursive: true, force: true });
  return killed;
}

/**
 * Starts the reaper of `dir`, watching `watched` (by default this process, by pid and start time so
 * that a later process with the same pid does not fool it). Returns the reaper's own record.
 */
export function startReaper(dir: string, watched: number = process.pid): ProcessRecord {
  const target = recordOf('watched', watched);
  if (!target) throw new Error(`no process ${watched} to watch`);
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'platform', 'reaper.ts'), resolve(dir), String(target.pid), target.startTime], {
    cwd: ROOT, // not in the folder: the reaper is not one of the processes it reaps
    detached: true,
    stdio: 'ignore',
  });
  if (child.pid === undefined) throw new Error('the reaper did not start');
  child.unref();
  const record = recordOf('reaper', child.pid);
  if (!record) throw new Error('the reaper exited at once');
  return record;
}

async function watch(dir: string, watched: ProcessRecord): Promise<void> {
  for (;;) {
    if (!existsSync(dir)) return; // torn down by its owner
    if (!isAlive(watched)) {
      reapNow(dir);
      return;
    }
    await new Promise((done) => setTimeout(done, WATCH_EVERY_MS));
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const [dir, pid, startTime] = process.argv.slice(2);
  if (!dir || !pid || !startTime) {
    console.error('usage: reaper.ts DIR PID START_TIME');
    process.exit(2);
  }
  await watch(dir, { name: 'watched', pid: Number(pid), startTime });
}
