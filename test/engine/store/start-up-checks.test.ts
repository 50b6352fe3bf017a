// The start-up checks on real files: `npm run serve` on a file it cannot use exits non-zero with
// one line (what, which file, how to restore) and no base_url; a file that is not ours is left
// byte for byte as it was.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { seedDemo } from '../../../src/engine/demo/seed-demo.ts';
import { Engine } from '../../../src/engine/engine.ts';
import { sandboxSimulator } from '../../../src/engine/payments/sandbox-simulator.ts';
import { COMANDA_APPLICATION_ID, StorageRefusal } from '../../../src/engine/store/database-checks.ts';
import { openDatabase } from '../../../src/engine/store/open-database.ts';
import { startEngineServer } from '../../../src/host/start-engine-server.ts';
import { R1 } from '../../support/demo-ids.ts';
import { callApi } from '../../support/engine-under-test.ts';
import { MIGRATIONS } from '../../../src/engine/store/migrations/index.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');

interface ServeOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run serve` on the file; kills it if it does start (a test then fails on its base_url line). */
function serve(dbPath: string): Promise<ServeOutcome> {
  const child = spawn(NODE, ['--import', 'tsx', 'src/cli/serve.ts', '--port', '0', '--db', dbPath], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.includes('\n')) child.kill('SIGKILL');
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

function assertRefused(outcome: ServeOutcome, dbPath: string, problem: RegExp): void {
  assert.equal(outcome.stdout, '', `no base_url line may be printed; got ${outcome.stdout}`);
  assert.equal(outcome.code, 1, `exit code; stderr: ${outcome.stderr}`);
  const lines = outcome.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line; got:\n${outcome.stderr}`);
  const line = lines[0]!;
  assert.ok(line.includes(dbPath), `names the file: ${line}`);
  assert.match(line, problem);
  assert.match(line, /restore.*backup/i);
}

const bytesOf = (path: string) => readFileSync(path);

describe('start-up checks', () => {
  let dir: string;
  let good: string;
  let writeKey: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-checks-'));
    good = join(dir, 'good.db');
    const engine = new Engine({ database: good });
    writeKey = (await seedDemo(engine, { live: null, test: sandboxSimulator }))[0]!.keys.live_write;
    engine.db.pragma('wal_checkpoint(TRUNCATE)');
    engine.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const copy = (name: string) => {
    const path = join(dir, name);
    copyFileSync(good, path);
    return path;
  };

  test('a new file gets Comanda application_id; a good one opens', () => {
    const db = new Database(good, { readonly: true });
    assert.equal(db.pragma('application_id', { simple: true }), COMANDA_APPLICATION_ID);
    assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
    db.close();
    openDatabase(copy('reopened.db')).close();
  });

  test('immutable file (chattr +i): refused before serving, one line, no base_url', async (t) => {
    const path = copy('immutable.db');
    try {
      execFileSync('chattr', ['+i', path]);
    } catch (error) {
      t.skip(`chattr +i is not available here: ${(error as Error).message}`);
      return;
    }
    try {
      const before = bytesOf(path);
      assertRefused(await serve(path), path, /cannot be written/);
      assert.deepEqual(bytesOf(path), before);
    } finally {
      execFileSync('chattr', ['-i', path]);
    }
  });

  test('garbage appended at the end of the file: refused, untouched', async () => {
    const path = copy('appended.db');
    appendFileSync(path, Buffer.alloc(10_000, 0x5a));
    const before = bytesOf(path);
    assertRefused(await serve(path), path, /bytes SQLite did not write|after its last page/);
    assert.deepEqual(bytesOf(path), before);
    // Whole pages of garbage after the last one too.
    const pages = copy('appended-pages.db');
    appendFileSync(pages, Buffer.alloc(3 * 4096, 0x5a));
    assert.throws(() => openDatabase(pages), (error: Error) => error instanceof StorageRefusal && /after its last page/.test(error.message));
  });

  test('garbage over one page: quick_check refuses it, no write reaches the file', async () => {
    const path = copy('page.db');
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 4096 * 5);
    closeSync(fd);
    const before = bytesOf(path);
    assertRefused(await serve(path), path, /damaged/);
    assert.deepEqual(bytesOf(path), before);
  });

  test('a file too large to check before serving is checked right after: damaged, it takes no more writes', async () => {
    const path = copy('large-damaged.db');
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 4096 * 5);
    closeSync(fd);
    // Every file counts as large here (the real threshold is 32 MiB, about 8,000 orders).
    const server = await startEngineServer({ database: path, quickCheckMaxBytes: 0, logger: false });
    try {
      const refusal = await server.integrityChecked;
      assert.ok(refusal instanceof StorageRefusal);
      assert.match(refusal.message, new RegExp(`cannot use the database ${path}: it is damaged \\(quick_check: .*To restore`));
      const write = await callApi(server.baseUrl, writeKey, 'POST', '/orders', {
        body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Después del chequeo' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
      });
      assert.equal(write.status, 503, write.text);
      assert.equal(write.body.error.code, 'storage_damaged');
      assert.match(write.body.error.message, /damaged/);
    } finally {
      await server.close();
    }
    // A whole file passes the same check.
    const whole = await startEngineServer({ database: copy('large-whole.db'), quickCheckMaxBytes: 0, logger: false });
    try {
      assert.equal(await whole.integrityChecked, null);
      assert.equal(whole.engine.writesRefused, null);
    } finally {
      await whole.close();
    }
  });

  test('an unrelated SQLite file: refused, untouched, no table added', async () => {
    const path = join(dir, 'other.db');
    const other = new Database(path);
    other.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('hola');");
    other.close();
    const before = bytesOf(path);
    assertRefused(await serve(path), path, /not a Comanda database.*notes/);
    assert.deepEqual(bytesOf(path), before);
    assert.equal(existsSync(`${path}-wal`), false);
    // Another program's application_id, even with no tables.
    const marked = join(dir, 'marked.db');
    const db = new Database(marked);
    db.pragma('application_id = 1234');
    db.close();
    const markedBefore = bytesOf(marked);
    assert.throws(() => openDatabase(marked), /another program \(application_id 1234/);
    assert.deepEqual(bytesOf(marked), markedBefore);
    // A file that is not SQLite at all.
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'lista de compras\n'.repeat(100));
    assert.throws(() => openDatabase(text), /not a SQLite database/);
    assert.equal(readFileSync(text, 'utf8'), 'lista de compras\n'.repeat(100));
  });

  test('a 0-byte file is a new database for the engine (the app refuses it: test/main)', () => {
    const path = join(dir, 'zero.db');
    writeFileSync(path, '');
    const db = openDatabase(path);
    assert.equal(db.pragma('application_id', { simple: true }), COMANDA_APPLICATION_ID);
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM restaurants').get() as { n: number }).n, 0);
    db.close();
  });
});
