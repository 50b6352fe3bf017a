// Every CLI answers --help with its usage on stdout and exit 0, and an unknown option with the
// usage on stderr and exit 2; `devices -- pair` without --base-url takes the serving engine's address.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startHeadlessEngine } from '../hardening/headless-engine.ts';
import { R1 } from '../support/demo-ids.ts';

const REPO = join(import.meta.dirname, '..', '..');
const NODE = join(REPO, 'node_modules/.bin/node');
const CLIS = ['serve', 'keys', 'devices', 'printers', 'restaurant', 'backup', 'payments'] as const;

async function run(cli: string, args: string[], dataDir: string): Promise<{ status: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(NODE, ['--import', 'tsx', `src/cli/${cli}.ts`, ...args], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, COMANDA_DATA_DIR: dataDir },
    });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { status: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

test('each CLI: --help is its usage on stdout (exit 0); an unknown option is the usage on stderr (exit 2)', { timeout: 240_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-cli-help-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // Two at a time: a busy machine runs them all the same.
  for (let i = 0; i < CLIS.length; i += 2) {
    await Promise.all(
      CLIS.slice(i, i + 2).map(async (cli) => {
        const help = await run(cli, ['--help'], dir);
        assert.equal(help.status, 0, `${cli} --help: ${help.stderr}`);
        assert.match(help.stdout, new RegExp(`^usage:[\\s\\S]*npm run ${cli} --`), `${cli} --help prints its usage on stdout`);
        assert.equal(help.stderr, '', `${cli} --help writes nothing on stderr`);
        const short = await run(cli, ['-h'], dir);
        assert.equal(short.status, 0, `${cli} -h: ${short.stderr}`);
        assert.equal(short.stdout, help.stdout);

        const unknown = await run(cli, ['--no-such-option'], dir);
        assert.equal(unknown.status, 2, `${cli} --no-such-option: ${unknown.stdout}${unknown.stderr}`);
        assert.equal(unknown.stdout, '', `${cli}: nothing on stdout`);
        assert.match(unknown.stderr, /--no-such-option/, `${cli} names the option`);
        assert.match(unknown.stderr, new RegExp(`usage:[\\s\\S]*npm run ${cli} --`), `${cli} shows its usage on stderr`);
      }),
    );
  }
});

test('devices -- pair without --base-url: the address of the engine serving the database, said on stderr; none serving is a usage mistake', { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-devices-pair-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'engine.db');
  const served = await startHeadlessEngine(db);
  try {
    const pair = await run('devices', ['pair', '--restaurant', R1.id, '--db', db, '--name', 'Plancha'], dir);
    assert.equal(pair.status, 0, pair.stderr);
    const origin = new URL(served.baseUrl).origin;
    assert.match(JSON.parse(pair.stdout).pairing_url, new RegExp(`^${origin}/kitchen/pair\\?secret=cmpair_[\\w-]{43}$`));
    assert.match(pair.stderr, new RegExp(`^--base-url ${origin}: where the engine serving .*engine\\.db answers \\(process ${served.child.pid}, `));
    assert.match(pair.stderr, /LAN address and port \d+/);
  } finally {
    await served.kill('SIGTERM');
  }
  const none = await run('devices', ['pair', '--restaurant', R1.id, '--db', db], dir);
  assert.equal(none.status, 2);
  assert.match(none.stderr, /^--base-url ORIGIN is required: no engine serves .*engine\.db now/);
});
