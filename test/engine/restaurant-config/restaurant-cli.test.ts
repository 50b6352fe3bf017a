import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const NODE = join(REPO, 'node_modules/.bin/node');

function runCli(args: string[], dataDir: string) {
  const result = spawnSync(NODE, ['--import', 'tsx', 'src/cli/restaurant.ts', ...args], {
    cwd: REPO,
    encoding: 'utf8',
    // Keeps the default database (when --db is absent) inside the test's temp dir.
    env: { ...process.env, COMANDA_DATA_DIR: dataDir },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-restaurant-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('import of a demo file exits 0 with a one-line summary', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'test.db');
  const result = runCli(['import', 'resources/demo/restaurant-1.json', '--db', db], dir);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(
    result.stdout,
    'imported: restaurant 10000000-0000-4000-8000-000000000001 "La Picada de Ñuñoa", 3 location(s), 13 product(s)\n',
  );
  const sqlite = new BetterSqlite3(db, { readonly: true });
  t.after(() => sqlite.close());
  assert.equal((sqlite.prepare('SELECT COUNT(*) AS n FROM products').get() as { n: number }).n, 13);
});

test('import of a bad file exits 1, each problem on its own line with its path, and creates no database', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'test.db');
  const json = JSON.parse(readFileSync(join(REPO, 'resources/demo/restaurant-2.json'), 'utf8'));
  json.locations[1].weekly_schedule.mon = [['12:00', '12:00']];
  json.locations[0].stock['california-roll'] = 3;
  const file = join(dir, 'bad.json');
  writeFileSync(file, JSON.stringify(json));
  const result = runCli(['import', file, '--db', db], dir);
  assert.equal(result.status, 1);
  assert.equal(result.stdout, '');
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines[0], `${file}: 2 problem(s)`);
  assert.match(lines[1]!, /^\$\.locations\[0\]\.stock\["california-roll"\]: product "california-roll" does not track stock/);
  assert.match(lines[2]!, /^\$\.locations\[1\]\.weekly_schedule\.mon\[0\]: opens and closes at the same time/);
  assert.equal(existsSync(db), false);
});

test('importing the same file twice: the second run exits 1 naming $.id', (t) => {
  const dir = tempDir(t);
  // No --db: the default database under COMANDA_DATA_DIR.
  assert.equal(runCli(['import', 'resources/demo/restaurant-2.json'], dir).status, 0);
  assert.ok(existsSync(join(dir, 'comanda.db')));
  const again = runCli(['import', 'resources/demo/restaurant-2.json'], dir);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /^\$\.id: a restaurant with id "20000000-0000-4000-8000-000000000001" was already imported/m);
});

test('validate checks without writing; schema prints the JSON Schema', (t) => {
  const dir = tempDir(t);
  const valid = runCli(['validate', 'resources/demo/restaurant-2.json'], dir);
  assert.equal(valid.status, 0, valid.stderr);
  assert.match(valid.stdout, /^valid: restaurant 20000000-0000-4000-8000-000000000001 "Sushi Providencia", 2 location\(s\), 8 product\(s\)\n$/);
  assert.equal(existsSync(join(dir, 'comanda.db')), false);

  const file = join(dir, 'broken.json');
  writeFileSync(file, '{ "name": ');
  const broken = runCli(['validate', file], dir);
  assert.equal(broken.status, 1);
  assert.match(broken.stderr, /broken\.json: \$: not valid JSON/);

  const schema = runCli(['schema'], dir);
  assert.equal(schema.status, 0);
  assert.equal(schema.stdout, readFileSync(join(REPO, 'docs/restaurant-config.schema.json'), 'utf8'));
});

test('a usage mistake exits 2 with the usage text', (t) => {
  const dir = tempDir(t);
  const result = runCli(['frobnicate'], dir);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /unknown command: frobnicate/);
  assert.match(result.stderr, /usage:/);
});

test('pickup-screen shows the defaults (no names, pickup only, Spanish), changes them with JSON out, and refuses bad values clearly', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'test.db');
  assert.equal(runCli(['import', 'resources/demo/restaurant-1.json', '--db', db], dir).status, 0);
  const id = '10000000-0000-4000-8000-000000000001';

  const shown = runCli(['pickup-screen', '--restaurant', id, '--db', db], dir);
  assert.equal(shown.status, 0, shown.stderr);
  assert.deepEqual(JSON.parse(shown.stdout), { restaurant_id: id, show_first_name: false, order_types: 'pickup', language: 'es' });

  const set = runCli(['pickup-screen', '--restaurant', id, '--first-name', 'on', '--order-types', 'pickup,delivery', '--language', 'en', '--db', db], dir);
  assert.equal(set.status, 0, set.stderr);
  assert.deepEqual(JSON.parse(set.stdout), { restaurant_id: id, show_first_name: true, order_types: 'pickup_and_delivery', language: 'en' });
  // One field at a time: the others keep what was set.
  const back = runCli(['pickup-screen', '--restaurant', id, '--order-types', 'pickup', '--db', db], dir);
  assert.deepEqual(JSON.parse(back.stdout), { restaurant_id: id, show_first_name: true, order_types: 'pickup', language: 'en' });

  const refusals: [string[], number, RegExp][] = [
    [['--first-name', 'yes'], 2, /--first-name must be on or off, not "yes"/],
    [['--order-types', 'delivery'], 2, /--order-types must be pickup or pickup,delivery, not "delivery"/],
    [['--order-types', 'pickup,mesa'], 2, /--order-types must be pickup or pickup,delivery/],
    [['--language', 'fr'], 1, /^language: one of es, en, not "fr"$/m],
  ];
  for (const [args, status, message] of refusals) {
    const refused = runCli(['pickup-screen', '--restaurant', id, ...args, '--db', db], dir);
    assert.equal(refused.status, status, args.join(' '));
    assert.match(refused.stderr, message);
    assert.equal(refused.stdout, '');
  }
  const unknown = runCli(['pickup-screen', '--restaurant', '10000000-0000-4000-8000-00000000dead', '--db', db], dir);
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /restaurant 10000000-0000-4000-8000-00000000dead not found/);
  assert.equal(runCli(['pickup-screen', '--db', db], dir).status, 2, '--restaurant is required');
  // Nothing refused changed anything.
  assert.deepEqual(JSON.parse(runCli(['pickup-screen', '--restaurant', id, '--db', db], dir).stdout), {
    restaurant_id: id,
    show_first_name: true,
    order_types: 'pickup',
    language: 'en',
  });
});
