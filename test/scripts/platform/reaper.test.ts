// The reaper of a platform's state folder (scripts/platform/reaper.ts): once the process it watches
// is gone without tearing down, nothing keyed on the folder runs any more and the folder is gone;
// while the owner lives, or once the owner removed the folder itself, it touches nothing. Real
// processes: a recorded one with a child, an unrecorded Node process working in the folder with a
// child of its own (as PostgreSQL's backends under their postmaster), and a watched "test runner"
// killed with -9, as a CI timeout does.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { keyedOn } from '../../../scripts/platform/keyed-on.ts';
import { isAlive, processTree, recordOf, startDetached, type ProcessRecord } from '../../../scripts/platform/processes.ts';
import { startReaper } from '../../../scripts/platform/reaper.ts';
import { eventually } from '../../support/eventually.ts';

const started: ProcessRecord[] = [];
const folders: string[] = [];

afterEach(() => {
  const trees = started.splice(0).flatMap(processTree); // children too
  for (const record of trees) if (isAlive(record)) process.kill(record.pid, 'SIGKILL');
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A Node process that idles (and, with `withChild`, starts one more below it). */
function idleNode(cwd: string, withChild: boolean): ChildProcess {
  const code = withChild
    ? "require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)'], { stdio: 'ignore' }); setInterval(() => {}, 1e6)"
    : 'setInterval(() => {}, 1e6)';
  const child = spawn(process.execPath, ['-e', code], { cwd, detached: true, stdio: 'ignore' });
  child.unref();
  started.push(recordOf('idle', child.pid!)!);
  return child;
}

function aPlatformFolder(): { dir: string; everything: () => ProcessRecord[] } {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-reaper-test-'));
  folders.push(dir);
  mkdirSync(join(dir, 'pg1', 'data'), { recursive: true });
  const recorded = startDetached(dir, 'etcd1', '/bin/sh', ['-c', 'sleep 600 & sleep 600; wait']);
  const working = idleNode(join(dir, 'pg1', 'data'), true);
  started.push(recorded);
  const roots = [recorded, recordOf('postmaster-like', working.pid!)!];
  return { dir, everything: () => roots.flatMap(processTree) };
}

test('once the watched process dies (kill -9, a CI timeout), everything keyed on the folder is killed and the folder removed', async () => {
  const { dir, everything } = aPlatformFolder();
  // Each root with its child below it, before the reaper starts.
  const before = await eventually(everything, 'the folder processes and their children', { until: (tree) => tree.length >= 5 });
  assert.ok(keyedOn(dir).length >= 5, 'keyed on the folder: the recorded process, the one working in it, and their children');
  const runner = idleNode(tmpdir(), false);
  const reaper = startReaper(dir, runner.pid!);
  started.push(reaper);
  process.kill(runner.pid!, 'SIGKILL');
  await eventually(() => !existsSync(dir) && before.every((record) => !isAlive(record)), 'every process gone and the folder removed', { timeoutMs: 30_000 });
  await eventually(() => !isAlive(reaper), 'the reaper to exit');
});

test('while the watched process lives the reaper touches nothing, and it exits once the owner removed the folder itself', async () => {
  const { dir, everything } = aPlatformFolder();
  const before = await eventually(everything, 'the folder processes and their children', { until: (tree) => tree.length >= 5 });
  const runner = idleNode(tmpdir(), false);
  const reaper = startReaper(dir, runner.pid!);
  started.push(reaper);
  // Its own start (a Node process with tsx) takes longer than several of its rounds (500 ms) once it runs.
  await eventually(() => processTree(reaper).length === 1 && isAlive(reaper), 'the reaper running');
  await eventually(() => existsSync(join(dir, 'pids')), 'the folder there');
  rmSync(dir, { recursive: true, force: true }); // the owner's teardown (its processes are this test's to stop)
  await eventually(() => !isAlive(reaper), 'the reaper to exit');
  assert.ok(before.every(isAlive), 'it killed nothing');
  assert.ok(isAlive(recordOf('runner', runner.pid!)!));
});
