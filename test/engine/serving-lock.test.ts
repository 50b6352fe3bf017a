// One serving engine per file: a second `serve` on a file an engine serves exits at once naming
// the holder; the lock dies with its process (SIGKILL included); the CLIs keep working beside the
// engine and what they write is seen at once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseAlreadyServed } from '../../src/engine/serving-lock.ts';
import { startEngineServer } from '../../src/host/start-engine-server.ts';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { startHeadlessEngine, type HeadlessEngine } from '../hardening/headless-engine.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');

function run(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(NODE, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    // A second engine that starts anyway prints its base_url: stop it, the test fails on it.
    if (script.endsWith('serve.ts') && stdout.includes('\n')) child.kill('SIGKILL');
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

const menu = (engine: HeadlessEngine, key: string) => fetch(`${engine.baseUrl}/menu`, { headers: { authorization: `Bearer ${key}` } });

describe('one serving engine per file', () => {
  let dir: string;
  let dbPath: string;
  let engine: HeadlessEngine;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-serving-'));
    dbPath = join(dir, 'comanda.db');
    engine = await startHeadlessEngine(dbPath, { timeoutMs: 90_000 });
  });
  after(async () => {
    await engine?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a first start makes the data folder it serves from (nothing there yet)', async () => {
    const fresh = join(dir, 'first-start', 'Comanda', 'comanda.db');
    const first = await run('src/cli/serve.ts', ['--port', '0', '--db', fresh]);
    assert.match(first.stdout, /"base_url":"http:\/\/127\.0\.0\.1:\d+\/v1"/, first.stderr);
  });

  test('a second serve on the file exits at once, naming the process that serves it', async () => {
    const second = await run('src/cli/serve.ts', ['--port', '0', '--db', dbPath]);
    assert.equal(second.stdout, '', 'no base_url line');
    assert.equal(second.code, 1);
    const lines = second.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, second.stderr);
    assert.match(lines[0]!, new RegExp(`${dbPath.replaceAll('/', '\\/')} is already being served by process ${engine.child.pid} \\(npm run serve`));
    assert.ok(lines[0]!.includes(engine.baseUrl), lines[0]);
    // In this process too (what the app's engine host calls).
    await assert.rejects(startEngineServer({ database: dbPath }), (error: Error) => error instanceof DatabaseAlreadyServed && error.holder?.pid === engine.child.pid);
  });

  /** A second serve on `alias` is refused naming the engine's process, and leaves nothing beside the files. */
  async function refusedUnder(alias: string) {
    const before = listing();
    const second = await run('src/cli/serve.ts', ['--port', '0', '--db', alias]);
    assert.equal(second.stdout, '', 'no base_url line');
    assert.equal(second.code, 1, second.stderr);
    const lines = second.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, second.stderr);
    assert.ok(lines[0]!.includes(`is already being served by process ${engine.child.pid} (npm run serve`), lines[0]);
    assert.deepEqual(listing(), before, 'a refused start leaves no file behind');
    return lines[0]!;
  }
  const listing = () => {
    const files: string[] = [];
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        files.push(path);
        if (entry.isDirectory()) walk(path);
      }
    };
    walk(dir);
    return files.filter((f) => !f.includes('first-start')).sort();
  };

  test('the same file under another name is refused: a symlink, a path through .. and a hard link', { timeout: 120_000 }, async () => {
    const symlink = join(dir, 'alias.db');
    symlinkSync(dbPath, symlink);
    await refusedUnder(symlink);
    // `..` after a symlinked folder is the OS's `..` (the link's target's parent), not the lexical one.
    mkdirSync(join(dir, 'elsewhere', 'inside'), { recursive: true });
    mkdirSync(join(dir, 'other'));
    symlinkSync(join(dir, 'elsewhere', 'inside'), join(dir, 'other', 'link'));
    await refusedUnder(`${dir}/sub/../comanda.db`.replace('/sub/', '/elsewhere/'));
    const throughLink = `${dir}/other/link/../../comanda.db`;
    assert.equal(realpathSync(throughLink), realpathSync(dbPath), 'the test path names the served file');
    await refusedUnder(throughLink);
    const hardLink = join(dir, 'hard.db');
    linkSync(dbPath, hardLink);
    const line = await refusedUnder(hardLink);
    assert.ok(line.includes(`the same file as ${realpathSync(dbPath)}`), line);
    // In this process too.
    await assert.rejects(startEngineServer({ database: symlink }), (error: Error) => error instanceof DatabaseAlreadyServed);
    await assert.rejects(startEngineServer({ database: hardLink }), (error: Error) => error instanceof DatabaseAlreadyServed);
    rmSync(hardLink);
  });

  test('the keys CLI works beside the engine: a created key authenticates on the next request, a revoked one is refused', async () => {
    const created = await run('src/cli/keys.ts', ['create', '--restaurant', R1.id, '--world', 'live', '--label', 'cli beside', '--db', dbPath]);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    assert.equal((await menu(engine, key)).status, 200);
    const keyId = /created key (\S+)/.exec(created.stderr)![1]!;
    const revoked = await run('src/cli/keys.ts', ['revoke', '--restaurant', R1.id, '--key', keyId, '--db', dbPath]);
    assert.equal(revoked.code, 0, revoked.stderr);
    // "Within a second": the engine may keep verified keys for a moment (reads need no write).
    await eventually(async () => (await menu(engine, key)).status, 'the revoked key refused', { until: (status) => status === 401 });
  });

  test('the lock dies with its process: after a SIGKILL a new engine serves the file', async () => {
    await engine.kill('SIGKILL');
    engine = await startHeadlessEngine(dbPath, { timeoutMs: 90_000 });
    assert.equal((await menu(engine, engine.restaurants[0]!.keys.live_read)).status, 200);
  });
});
