// `npm run serve -- --demo --demo-rush`: the demo restaurant gets the project's rush over its own
// API, headless, at the pace asked, until the engine is stopped; --demo-rush without --demo is refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../support/eventually.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe('npm run serve -- --demo --demo-rush', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-demo-rush-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('posts the rush to the demo restaurant at the pace asked, until stopped', async () => {
    const db = join(dir, 'rush.db');
    const npm = spawn('npm', ['run', '-s', 'serve', '--', '--port', '0', '--db', db, '--demo', '--demo-rush', '--demo-rush-pace', '120'], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    npm.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    npm.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let enginePid = 0;
    try {
      await eventually(() => stdout.includes('\n'), 'the base_url line', { timeoutMs: 90_000 });
      const line = JSON.parse(stdout.split('\n')[0]!) as { base_url: string; demo_rush: { orders_per_minute: number }; restaurants: { keys: { live_read: string } }[] };
      assert.deepEqual(line.demo_rush, { orders_per_minute: 120 });
      enginePid = (JSON.parse(readFileSync(`${db}-serving.json`, 'utf8')) as { pid: number }).pid;
      // Two a second: three rush orders on the demo restaurant, read over /v1 with its own key.
      const count = async () => {
        const list = await fetch(`${line.base_url}/orders?limit=100`, { headers: { authorization: `Bearer ${line.restaurants[0]!.keys.live_read}` } });
        return ((await list.json()) as { data: { managed_by_integrator: boolean }[] }).data.filter((o) => !o.managed_by_integrator).length;
      };
      await eventually(async () => (await count()) >= 3, 'rush orders over /v1', { timeoutMs: 60_000 });
      assert.match(stderr, /demo rush: order posted/);
      process.kill(-npm.pid!, 'SIGINT');
      await eventually(() => npm.exitCode !== null || npm.signalCode !== null, 'serve to stop');
    } finally {
      if (enginePid) {
        try {
          process.kill(enginePid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
    }
  });

  test('--demo-rush without --demo is refused', () => {
    const run = spawnSync('npm', ['run', '-s', 'serve', '--', '--port', '0', '--db', join(dir, 'x.db'), '--demo-rush'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--demo-rush needs --demo/);
  });
});
