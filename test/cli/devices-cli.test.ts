// Headless pairing: `npm run serve -- --demo` prints a kitchen_pairing_url per restaurant (same
// origin as base_url, single use), and `npm run devices` pairs, lists and revokes screens on a file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.ts';
import { pairWithCode, revokeKitchenDevice } from '../../src/engine/services/kitchen/kitchen-devices.ts';
import { startHeadlessEngine } from '../hardening/headless-engine.ts';
import { R1 } from '../support/demo-ids.ts';

const REPO = join(import.meta.dirname, '..', '..');
const NODE = join(REPO, 'node_modules/.bin/node');

function devices(args: string[], dataDir: string) {
  const result = spawnSync(NODE, ['--import', 'tsx', 'src/cli/devices.ts', ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, COMANDA_DATA_DIR: dataDir },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// A serve --demo child and a dozen CLI runs, each starting Node and tsx: 23 s quiet on 2 cores, and
// ten times that at load 30 (it timed out at 120 s there).
test('serve --demo prints a single-use kitchen_pairing_url per restaurant; the devices CLI pairs, lists and revokes', { timeout: 400_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-devices-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'engine.db');

  const served = await startHeadlessEngine(db);
  try {
    const origin = new URL(served.baseUrl).origin;
    assert.equal(served.restaurants.length, 2);
    for (const restaurant of served.restaurants as unknown as { kitchen_pairing_url: string }[]) {
      assert.match(restaurant.kitchen_pairing_url, new RegExp(`^${origin}/kitchen/pair\\?secret=cmpair_[\\w-]{43}$`));
    }
    const url = (served.restaurants[0] as unknown as { kitchen_pairing_url: string }).kitchen_pairing_url;
    const first = await fetch(url, { redirect: 'manual' });
    assert.equal(first.status, 303);
    assert.equal(first.headers.get('location'), './');
    assert.match(first.headers.get('set-cookie') ?? '', /^comanda_device=[\w-]{43}; Path=\/kitchen; .*HttpOnly; SameSite=Strict/);
    const again = await fetch(url, { redirect: 'manual' });
    assert.equal(again.status, 303);
    assert.equal(again.headers.get('location'), './?pairing=refused');
    assert.equal(again.headers.get('set-cookie'), null);
  } finally {
    await served.kill('SIGTERM');
  }

  const pair = devices(['pair', '--restaurant', R1.id, '--db', db, '--base-url', 'http://192.168.1.20:4750', '--name', 'Plancha'], dir);
  assert.equal(pair.status, 0, pair.stderr);
  const offer = JSON.parse(pair.stdout);
  assert.deepEqual(Object.keys(offer), ['pairing_url', 'code', 'expires_at', 'role']);
  assert.equal(offer.role, 'kitchen');
  // The URL carries a 256-bit secret, never the six digits typed by hand.
  assert.match(offer.pairing_url, /^http:\/\/192\.168\.1\.20:4750\/kitchen\/pair\?secret=cmpair_[\w-]{43}$/);
  assert.match(offer.code, /^\d{6}$/);
  assert.ok(!offer.pairing_url.includes(offer.code));
  assert.match(offer.expires_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);

  // The tablet opens it (here: the same service the URL calls).
  const engine = new Engine({ database: db });
  const paired = await pairWithCode(engine, offer.code);
  engine.close();
  assert.equal(paired.device.name, 'Plancha');

  const list = devices(['list', '--restaurant', R1.id, '--db', db], dir);
  assert.equal(list.status, 0, list.stderr);
  const screens = JSON.parse(list.stdout);
  assert.equal(screens.length, 2, 'the one paired from serve’s URL, and Plancha');
  for (const screen of screens) assert.deepEqual(Object.keys(screen), ['id', 'name', 'role', 'paired_at', 'last_seen_at']);
  assert.equal(screens[1].name, 'Plancha');
  assert.deepEqual(screens.map((s: { role: string }) => s.role), ['kitchen', 'kitchen']);

  // A pickup screen ("Pantalla de retiro") is paired with its role, and listed with it.
  const pickupOffer = devices(['pair', '--restaurant', R1.id, '--db', db, '--base-url', 'http://192.168.1.20:4750', '--name', 'Mostrador', '--role', 'pickup'], dir);
  assert.equal(pickupOffer.status, 0, pickupOffer.stderr);
  assert.equal(JSON.parse(pickupOffer.stdout).role, 'pickup');
  const pickupEngine = new Engine({ database: db });
  const pickupScreen = await pairWithCode(pickupEngine, JSON.parse(pickupOffer.stdout).code);
  pickupEngine.close();
  assert.equal(pickupScreen.device.role, 'pickup');
  const withPickup = JSON.parse(devices(['list', '--restaurant', R1.id, '--db', db], dir).stdout) as { name: string; role: string }[];
  assert.deepEqual(withPickup.find((s) => s.name === 'Mostrador')?.role, 'pickup');
  const badRole = devices(['pair', '--restaurant', R1.id, '--db', db, '--base-url', 'http://192.168.1.20:4750', '--role', 'caja'], dir);
  assert.equal(badRole.status, 1);
  assert.match(badRole.stderr, /role: kitchen or pickup, not "caja"/);
  const cleanup = new Engine({ database: db });
  await revokeKitchenDevice(cleanup, R1.id, pickupScreen.device.id);
  cleanup.close();

  const revoke = devices(['revoke', '--restaurant', R1.id, '--db', db, '--device', paired.device.id], dir);
  assert.equal(revoke.status, 0, revoke.stderr);
  assert.equal(JSON.parse(devices(['list', '--restaurant', R1.id, '--db', db], dir).stdout).length, 1);

  // Twenty wrong codes typed void the live ones; list says so (on stderr, its JSON unchanged).
  const live = JSON.parse(devices(['pair', '--restaurant', R1.id, '--db', db, '--base-url', 'http://192.168.1.20:4750'], dir).stdout);
  const guesser = new Engine({ database: db });
  for (let i = 1; i <= 20; i++) await assert.rejects(async () => await pairWithCode(guesser, String((Number(live.code) + i) % 1_000_000).padStart(6, '0')));
  await assert.rejects(async () => await pairWithCode(guesser, live.code), /unknown, expired or already used/);
  guesser.close();
  const voided = devices(['list', '--restaurant', R1.id, '--db', db], dir);
  assert.equal(voided.status, 0, voided.stderr);
  assert.equal(JSON.parse(voided.stdout).length, 1);
  assert.match(voided.stderr, /pairing codes voided at \S+: 20 wrong codes typed within 10 minutes/);

  // Bad input: a clear error, and nothing written.
  const noOrigin = devices(['pair', '--restaurant', R1.id, '--db', db], dir);
  assert.equal(noOrigin.status, 2);
  assert.match(noOrigin.stderr, /--base-url ORIGIN is required/);
  const unknown = devices(['revoke', '--restaurant', R1.id, '--db', db, '--device', '00000000-0000-4000-8000-000000000000'], dir);
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /not found/);
  const badOrigin = devices(['pair', '--restaurant', R1.id, '--db', db, '--base-url', 'ftp://x'], dir);
  assert.equal(badOrigin.status, 1);
});
