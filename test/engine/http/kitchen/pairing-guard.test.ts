// Pairing that cannot be guessed (issue 19): the pairing URL carries a 256-bit secret, never the six
// digits; wrong codes typed by hand from ever-new addresses (rotating 127.x.y.z, as the attack did)
// void a restaurant's live codes at the 20th within ten minutes, whatever the number of addresses;
// the per-address limit and the count survive a restart (SQLite). Real engine, file and port.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { seedDemo, type DemoRestaurant } from '../../../../src/engine/demo/seed-demo.ts';
import {
  PAIRING_FAILURE_CAP,
  createPairingCode,
  pairingLockout,
  type PairingCode,
} from '../../../../src/engine/services/kitchen/kitchen-devices.ts';
import { startEngineServer, type EngineServer } from '../../../../src/host/start-engine-server.ts';
import { DEMO_NOW, GENEROUS_LIMITS } from '../../../support/engine-under-test.ts';
import { postJson, rawRequest } from './raw-request.ts';

describe('pairing guard (served engine, rotating source addresses)', () => {
  let dir: string;
  let database: string;
  let clock: ManualClock;
  let server: EngineServer;
  let demo: DemoRestaurant[];
  let port: number;
  let nextAddress = 2;
  /** A loopback source address never used before in this test. */
  const freshAddress = () => {
    const n = nextAddress++;
    return `127.0.${(n >> 8) & 255}.${n & 255}`;
  };
  const start = async () => {
    server = await startEngineServer({ database, clock, rateLimits: GENEROUS_LIMITS, kitchen: {}, ...(port ? { port } : {}) });
    port = server.port;
  };
  const typed = (code: string, localAddress = freshAddress()) => postJson(port, '/kitchen/pair', { code }, { localAddress });
  /** A six-digit code that is not `live` (what a guesser types). */
  const wrong = (live: string, i: number) => String((Number(live) + 1 + i) % 1_000_000).padStart(6, '0');

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-pairing-guard-'));
    database = join(dir, 'engine.db');
    clock = new ManualClock(DEMO_NOW);
    await start();
    demo = await seedDemo(server.engine, server.providers.payments);
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const offer = async (restaurant = 0): Promise<PairingCode> => await createPairingCode(server.engine, { restaurantId: demo[restaurant]!.id, origin: server.origin });

  test('the pairing URL carries a long secret, never the six digits; it pairs once', async () => {
    const o = await offer();
    const url = new URL(o.pairing_url);
    assert.equal(url.searchParams.get('code'), null);
    assert.match(url.searchParams.get('secret') ?? '', /^cmpair_[\w-]{43}$/, '256 random bits');
    assert.ok(!o.pairing_url.includes(o.code));
    const first = await rawRequest(port, { method: 'GET', path: `${url.pathname}${url.search}` });
    assert.equal(first.status, 303);
    assert.equal(first.headers.location, './');
    assert.match(String(first.headers['set-cookie']), /^comanda_device=/);
    const again = await rawRequest(port, { method: 'GET', path: `${url.pathname}${url.search}`, localAddress: freshAddress() });
    assert.equal(again.headers.location, './?pairing=refused');
    // The six digits of a URL-paired offer are spent with it.
    assert.equal((await typed(o.code)).status, 401);
    // A code in the URL pairs nothing.
    const withCode = await offer();
    const byCode = await rawRequest(port, { method: 'GET', path: `/kitchen/pair?code=${withCode.code}`, localAddress: freshAddress() });
    assert.equal(byCode.headers.location, './?pairing=refused');
    assert.equal((await typed(withCode.code)).status, 200, 'typed, the same code pairs');
  });

  test(`${PAIRING_FAILURE_CAP} wrong codes from ${PAIRING_FAILURE_CAP} different addresses void every live code of the restaurant; its URLs still pair`, async () => {
    const a = await offer(0);
    const b = await offer(0);
    const other = await offer(1);
    // Before the fix: 10 tries per address and no cap per restaurant, so fresh addresses guessed on forever.
    for (let i = 0; i < PAIRING_FAILURE_CAP - 1; i++) {
      const answer = await typed(wrong(a.code, i) === b.code ? wrong(a.code, i + 500) : wrong(a.code, i));
      assert.equal(answer.status, 401, `guess ${i}`);
      assert.deepEqual(Object.keys(answer.body), ['ok', 'error']);
    }
    assert.equal(await pairingLockout(server.engine, demo[0]!.id), null, 'nothing voided before the cap');
    // The 20th wrong code voids them: the right code typed now is refused.
    assert.equal((await typed('999999' === a.code ? '999998' : '999999')).status, 401);
    const lockout = await pairingLockout(server.engine, demo[0]!.id);
    assert.ok(lockout, 'the lockout is noted for the manager');
    assert.equal(lockout.failed_attempts, PAIRING_FAILURE_CAP);
    assert.equal((await typed(a.code)).status, 401, 'a voided code no longer pairs');
    assert.equal((await typed(b.code)).status, 401);
    // Every restaurant with a live code was a possible target: the other one's codes went too.
    assert.equal((await typed(other.code)).status, 401);
    // The QR code's URL still pairs: its secret cannot be guessed.
    const url = new URL(a.pairing_url);
    assert.equal((await rawRequest(port, { method: 'GET', path: `${url.pathname}${url.search}`, localAddress: freshAddress() })).headers.location, './');
    // A new code counts afresh.
    const fresh = await offer(0);
    assert.equal((await typed(fresh.code)).status, 200);
  });

  test('the count and the per-address limit survive a restart of the engine', async () => {
    clock.advance(60 * 60_000);
    const live = await offer(0);
    // One address spends its ten tries (ten wrong codes counted), the eleventh is refused.
    const spent = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await typed(wrong(live.code, 100 + i), spent)).status);
    assert.deepEqual(statuses, [...Array<number>(10).fill(401), 429]);
    for (let i = 0; i < PAIRING_FAILURE_CAP - 11; i++) assert.equal((await typed(wrong(live.code, i))).status, 401);
    const before = await pairingLockout(server.engine, demo[0]!.id);
    assert.ok(before === null || Date.parse(before.voided_at) < clock.now() - 30 * 60_000, 'not voided yet: 19 wrong codes');
    await server.close();
    await start();
    assert.equal((await typed(live.code, spent)).status, 429, 'still limited after the restart');
    // The count went on too: the 20th wrong code after the restart voids the live code.
    assert.equal((await typed(wrong(live.code, 50))).status, 401);
    assert.equal(Date.parse((await pairingLockout(server.engine, demo[0]!.id))!.voided_at), clock.now());
    assert.equal((await typed(live.code)).status, 401);
  });

  const buckets = () => (server.engine.db.prepare('SELECT COUNT(*) AS n FROM kitchen_pairing_buckets').get() as { n: number }).n;
  // Issue 29: only six digits typed spend an address's attempts.
  test('a GET that pairs nothing spends nothing: twenty of them, then a code typed from the same address pairs', async () => {
    const address = freshAddress();
    const before = buckets();
    const live = await offer();
    for (let i = 0; i < 20; i++) {
      const answer = await rawRequest(port, { method: 'GET', path: `/kitchen/pair?code=${live.code}`, localAddress: address });
      assert.equal(answer.headers.location, './?pairing=refused');
    }
    assert.equal(buckets(), before, 'no bucket written');
    assert.equal((await postJson(port, '/kitchen/pair', { code: live.code }, { localAddress: address })).status, 200);
  });

  test('an IPv6 client is limited by its /64, so rotating addresses within it gains nothing', async () => {
    const { takePairingAttempt } = await import('../../../../src/engine/services/kitchen/kitchen-devices.ts');
    const { addressKey } = await import('../../../../src/engine/domain/token-bucket.ts');
    const outcomes = [];
    for (let i = 0; i < 12; i++) outcomes.push((await takePairingAttempt(server.engine, addressKey(`2001:db8:aa:bb::${i.toString(16)}`))).allowed);
    assert.deepEqual(outcomes, [...Array<boolean>(10).fill(true), false, false]);
  });
});
