// Issue 34: `serve --nodes N` sizes each node's rate limits to its share; the option is refused
// where it means nothing (a SQLite file has one node) or is not a count. Nothing is served.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

function serve(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/serve.ts', ...args], { cwd: ROOT }, (error, _stdout, stderr) => {
      resolve({ code: error ? (error as { code?: number }).code ?? null : 0, stderr });
    });
  });
}

// Two child Node starts (tsx): a few seconds quiet, far more at load 30.
test('--nodes is refused without --database and when it is not a count from 1 to 1000', { timeout: 120_000 }, async () => {
  const [sqlite, zero, word] = await Promise.all([
    serve(['--nodes', '2']),
    serve(['--database', 'postgres://comanda@127.0.0.1:1/comanda', '--nodes', '0']),
    serve(['--database', 'postgres://comanda@127.0.0.1:1/comanda', '--nodes', '2x']),
  ]);
  assert.equal(sqlite.code, 2);
  assert.match(sqlite.stderr, /^--nodes needs --database: a SQLite file has one node/);
  assert.equal(zero.code, 2);
  assert.match(zero.stderr, /^--nodes must be an integer from 1 to 1000, got 0/);
  assert.equal(word.code, 2);
  assert.match(word.stderr, /^--nodes must be an integer from 1 to 1000, got 2x/);
});
