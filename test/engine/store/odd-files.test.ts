// Odd files and places at start-up, through `npm run serve` (and the keys CLI): each is refused
// with one line saying what is wrong, which file and what to do, exit code 1, no base_url, no
// stack trace, and nothing left behind (no -serving lock, no -wal, -shm or holder file, no new
// database). The mounts and chattr need root; those cases skip with the reason elsewhere.
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDemo } from '../../../src/engine/demo/seed-demo.ts';
import { Engine } from '../../../src/engine/engine.ts';
import { sandboxSimulator } from '../../../src/engine/payments/sandbox-simulator.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(script: string, args: string[]): Promise<Outcome> {
  const child = spawn(NODE, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    // An engine that starts anyway prints its base_url: stop it, the test fails on it.
    if (script.endsWith('serve.ts') && stdout.includes('\n')) child.kill('SIGKILL');
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/**
 * Each test starts serve (or the keys CLI) two or three times, each a child starting Node and tsx
 * (3 to 6 s a test quiet on 2 cores, ten times that at load 30): honest work past the fast tier's 60 s there.
 */
const CHILD_STARTS = { timeout: 240_000 };

const serve = (dbPath: string) => run('src/cli/serve.ts', ['--port', '0', '--db', dbPath]);

/** Every file under `folder`, with its bytes (null for a folder). */
function snapshot(folder: string): Map<string, Buffer | null> {
  const files = new Map<string, Buffer | null>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        files.set(path, null);
        walk(path);
      } else files.set(path, readFileSync(path));
    }
  };
  walk(folder);
  return files;
}

function assertOneLine(outcome: Outcome, file: string, problem: RegExp): string {
  assert.equal(outcome.stdout, '', `no base_url line may be printed; got ${outcome.stdout}`);
  assert.equal(outcome.code, 1, `exit code; stderr: ${outcome.stderr}`);
  const lines = outcome.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line; got:\n${outcome.stderr}`);
  const line = lines[0]!;
  assert.ok(line.includes(file), `names the file: ${line}`);
  assert.match(line, problem);
  assert.doesNotMatch(line, /\bat .*\.ts:\d+|Error:|EISDIR|unable to open database file$/, `a sentence, not a raw error: ${line}`);
  return line;
}

function mountTmpfs(t: TestContext, dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return true;
  } catch (error) {
    t.skip(`cannot mount a tmpfs here (needs root): ${(error as Error).message.split('\n')[0]}`);
    return false;
  }
}

/** Writes zeros into `path` until the file system has no byte left. */
function fillUp(path: string): void {
  const fd = openSync(path, 'w');
  try {
    for (const chunk of [Buffer.alloc(64 * 1024), Buffer.alloc(512)]) {
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe('odd files at start-up: one line, nothing left behind', () => {
  let dir: string;
  let good: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-odd-'));
    good = join(dir, 'good.db');
    const engine = new Engine({ database: good });
    await seedDemo(engine, { live: null, test: sandboxSimulator });
    engine.db.pragma('wal_checkpoint(TRUNCATE)');
    engine.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A folder of its own holding a copy of the good file (or nothing). */
  const place = (name: string, withFile = true) => {
    const folder = join(dir, name);
    mkdirSync(folder);
    const file = join(folder, 'comanda.db');
    if (withFile) copyFileSync(good, file);
    return { folder, file };
  };

  test('--db a folder: one line (serve and the keys CLI), no -serving file beside it', CHILD_STARTS, async () => {
    const { folder } = place('a-folder', false);
    const target = join(folder, 'data');
    mkdirSync(target);
    const before = snapshot(folder);
    assertOneLine(await serve(target), target, /it is a folder, not a database file.*comanda\.db/);
    assert.deepEqual(snapshot(folder), before);
    const keys = await run('src/cli/keys.ts', ['list', '--restaurant', 'r', '--db', target]);
    assertOneLine(keys, target, /it is a folder/);
    assert.deepEqual(snapshot(folder), before);
  });

  test('a -wal beside it that is not a write-ahead log: refused like damage (the bytes-after-the-last-page check is not skipped)', CHILD_STARTS, async () => {
    const { folder, file } = place('fake-wal');
    // Whole pages of garbage after the last one: refused by the file's own check, which a -wal beside it used to switch off.
    appendFileSync(file, Buffer.alloc(3 * 4096, 0x5a));
    writeFileSync(`${file}-wal`, Buffer.alloc(64 * 1024, 0x41));
    const before = snapshot(folder);
    assertOneLine(await serve(file), file, /-wal\) is not a SQLite write-ahead log.*restore.*backup/);
    assert.deepEqual(snapshot(folder), before);
    // The same log beside an intact file: refused all the same (SQLite would drop it silently).
    const intact = place('fake-wal-intact');
    writeFileSync(`${intact.file}-wal`, 'no es un log');
    const intactBefore = snapshot(intact.folder);
    assertOneLine(await serve(intact.file), intact.file, /not a SQLite write-ahead log/);
    assert.deepEqual(snapshot(intact.folder), intactBefore);
  });

  test('an unwritable folder (chattr +i): one line naming the folder, for an existing file and a new one', CHILD_STARTS, async (t) => {
    const { folder, file } = place('immutable-folder');
    try {
      execFileSync('chattr', ['+i', folder], { stdio: 'pipe' });
    } catch (error) {
      t.skip(`chattr +i is not available here: ${(error as Error).message.split('\n')[0]}`);
      return;
    }
    try {
      const before = snapshot(folder);
      assertOneLine(await serve(file), file, new RegExp(`its folder ${folder} cannot be written.*nothing was written`));
      const fresh = join(folder, 'new.db');
      assertOneLine(await serve(fresh), fresh, /cannot be written/);
      assertOneLine(await run('src/cli/keys.ts', ['list', '--restaurant', 'r', '--db', file]), file, /cannot be written/);
      assert.deepEqual(snapshot(folder), before);
    } finally {
      execFileSync('chattr', ['-i', folder]);
    }
  });

  test('a read-only mount: one line saying so', CHILD_STARTS, async (t) => {
    const { folder } = place('read-only-mount', false);
    if (!mountTmpfs(t, folder, '8m')) return;
    try {
      const file = join(folder, 'comanda.db');
      copyFileSync(good, file);
      execFileSync('mount', ['-o', 'remount,ro', folder], { stdio: 'pipe' });
      const before = snapshot(folder);
      assertOneLine(await serve(file), file, /read-only file system/);
      assert.deepEqual(snapshot(folder), before);
    } finally {
      execFileSync('umount', [folder]);
    }
  });

  test('a full disk at start: named as such (free MB, nothing to restore), for an intact file and a new one; nothing left behind', CHILD_STARTS, async (t) => {
    const { folder } = place('full-disk', false);
    if (!mountTmpfs(t, folder, '8m')) return;
    try {
      const file = join(folder, 'comanda.db');
      copyFileSync(good, file);
      fillUp(join(folder, 'filler'));
      const before = snapshot(folder);
      const line = assertOneLine(await serve(file), file, /the disk is full \(\d+\.\d MB free/);
      assert.match(line, /nothing to restore/);
      assert.doesNotMatch(line, /copy your latest backup|damaged|cannot read it/);
      assert.deepEqual(snapshot(folder), before, 'no -wal, -shm, -serving or holder file left');
      // Past the lock too (the CLIs take none): SQLite's I/O error on the -shm is not called damage.
      assert.throws(() => new Engine({ database: file }), (error: Error) => /the disk is full/.test(error.message) && !/cannot read it|damaged/.test(error.message));
      const fresh = join(folder, 'new.db');
      assertOneLine(await serve(fresh), fresh, /the disk is full \(\d+\.\d MB free/);
      assert.deepEqual(snapshot(folder), before, 'no new database left');
    } finally {
      execFileSync('umount', [folder]);
    }
  });
});
