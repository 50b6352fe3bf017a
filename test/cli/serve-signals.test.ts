// Stopping is stopping: SIGTERM sent to the npm process of `npm run serve` (not to the engine's
// own), or SIGINT as a terminal's Ctrl-C sends it (to the whole process group), stops the engine
// cleanly: it logs its shutdown, its process ends, its port closes and its serving lock is given
// back (its files removed). It used to be left running, orphaned on its port. (A SIGINT sent to
// npm's pid alone stays with the shell npm runs the script in, which waits for the engine: POSIX
// shells do that; the engine cannot see it.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../support/eventually.ts';

const ROOT = join(import.meta.dirname, '..', '..');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('signals to the npm process of npm run serve', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-signals-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [signal, to] of [['SIGTERM', 'npm'], ['SIGINT', 'group']] as const) {
    test(`${signal} to ${to === 'npm' ? 'the npm process' : "npm's process group (Ctrl-C)"} stops the engine cleanly`, async () => {
      const db = join(dir, `${signal}.db`);
      const npm = spawn('npm', ['run', '-s', 'serve', '--', '--port', '0', '--db', db], {
        cwd: ROOT,
        env: { ...process.env, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
        // A process group of its own, as a terminal gives a command.
        detached: true,
      });
      let stdout = '';
      let stderr = '';
      npm.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      npm.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      let enginePid = 0;
      try {
        await eventually(() => stdout.includes('\n'), 'the base_url line', { timeoutMs: 90_000 });
        const { base_url: baseUrl } = JSON.parse(stdout.split('\n')[0]!) as { base_url: string };
        enginePid = (JSON.parse(readFileSync(`${db}-serving.json`, 'utf8')) as { pid: number }).pid;
        assert.notEqual(enginePid, npm.pid, 'the engine runs in a process of its own, below npm');
        assert.equal((await fetch(`${baseUrl}/openapi.json`)).status, 200);

        if (to === 'npm') npm.kill(signal);
        else process.kill(-npm.pid!, signal);
        await eventually(() => !alive(enginePid), 'the engine process to end');
        assert.match(stderr, /"msg":"shutting down"/, stderr.slice(-2000));
        assert.equal(existsSync(`${db}-serving`), false, 'the serving lock given back');
        assert.equal(existsSync(`${db}-serving.json`), false);
        await assert.rejects(fetch(`${baseUrl}/openapi.json`), 'its port is closed');
      } finally {
        if (enginePid && alive(enginePid)) process.kill(enginePid, 'SIGKILL');
        if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
      }
    });
  }
});
