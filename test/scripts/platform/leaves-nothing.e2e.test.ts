// Nothing left behind (issue 35): a platform test that fails on purpose in a child test runner, with
// its platform up (three etcd members, three PostgreSQL nodes under Patroni, HAProxy) and two serve
// nodes taking orders, and its teardown skipped (support/fails-on-purpose.ts). Every process the
// child's run started (followed while it runs, by pid and start time: the platform's, PostgreSQL's
// backends, the serve nodes, the reaper) is gone afterwards, the runner exits by itself, and its
// state folder is removed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isAlive, processTree, recordOf, type ProcessRecord } from '../../../scripts/platform/processes.ts';
import { eventually } from '../../support/eventually.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FIXTURE = join(import.meta.dirname, 'support', 'fails-on-purpose.ts');

test('a platform test failing in the middle of its scenario leaves no process and no folder behind', { timeout: 400_000 }, async (t) => {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT; // a runner of its own, not a subtest of this one
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', FIXTURE], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const root = recordOf('child runner', child.pid!)!;

  // Every process below the runner while it runs (the detached ones are its children until it exits).
  const seen = new Map<string, ProcessRecord & { command: string }>();
  let running = true;
  const follow = (async () => {
    while (running) {
      for (const record of processTree(root)) {
        // Read again at each sight: right after a fork, before its exec, a process shows its parent's command.
        let command = '';
        try {
          command = readFileSync(`/proc/${record.pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
        } catch {
          // gone already
        }
        const key = `${record.pid}:${record.startTime}`;
        if (command || !seen.has(key)) seen.set(key, { ...record, command });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const code = await exited;
  running = false;
  await follow;

  const dir = /PLATFORM_DIR=(\S+)/.exec(output)?.[1];
  assert.ok(dir, `the child printed its folder:\n${output.slice(-3000)}`);
  assert.ok(output.includes('FAILING_ON_PURPOSE'), `the child reached its fault with the serve nodes taking orders:\n${output.slice(-3000)}`);
  assert.notEqual(code, 0, 'the child run failed');
  const commands = [...seen.values()].map((record) => record.command);
  const count = (pattern: RegExp) => commands.filter((command) => pattern.test(command)).length;
  t.diagnostic(`followed ${seen.size} processes: ${count(/serve\.ts/)} serve nodes, ${count(/^\/usr\/bin\/etcd/)} etcd, ${count(/patroni/)} Patroni, ${count(/haproxy/)} HAProxy, ${count(/^postgres/)} PostgreSQL, ${count(/reaper\.ts/)} reaper`);
  assert.ok(count(/serve\.ts/) >= 2 && count(/^\/usr\/bin\/etcd/) === 3 && count(/haproxy/) >= 1 && count(/reaper\.ts/) === 1, 'the run started serve nodes, etcd, HAProxy and its reaper');

  const left = await eventually(() => [...seen.values()].filter(isAlive), 'every process of the child run gone', { until: (alive) => alive.length === 0, timeoutMs: 60_000 }).catch((error: unknown) => {
    throw new Error(`${String(error)}\nstill running: ${[...seen.values()].filter(isAlive).map((record) => `${record.pid} ${record.command}`).join('\n')}`);
  });
  assert.deepEqual(left, []);
  await eventually(() => !existsSync(dir), `${dir} removed`, { timeoutMs: 60_000 });
});
