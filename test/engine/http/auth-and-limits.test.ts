import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1, UNKNOWN_UUID } from '../../support/demo-ids.ts';
import { createApiKey, revokeApiKey } from '../../../src/engine/services/keys/api-keys.ts';

const MISSING = 'missing API key: send Authorization: Bearer <key>';
const INVALID = 'invalid API key (unknown, malformed or revoked)';
const WELL_FORMED_UNKNOWN = `cm_live_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6'}`;
const R2_PROVIDENCIA = '21000000-0000-4000-8000-000000000001';

function assertErrorShape(body: unknown, code: string, message?: string): void {
  assert.ok(body !== null && typeof body === 'object');
  assert.deepEqual(Object.keys(body), ['error']);
  const error = (body as { error: Record<string, unknown> }).error;
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message']);
  assert.equal(error.code, code);
  assert.equal(typeof error.message, 'string');
  if (message !== undefined) assert.equal(error.message, message);
}

describe('authentication and permissions', () => {
  let engine: EngineUnderTest;

  before(async () => {
    engine = await startEngineUnderTest();
  });
  after(async () => {
    await engine.stop();
  });

  const orderBody = { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Ana' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] };

  test('a missing Authorization header is 401 unauthorized with the error shape', async () => {
    for (const [method, path] of [
      ['GET', '/menu'],
      ['GET', '/orders'],
      ['POST', '/orders'],
      ['GET', `/stock?location_id=${R1.openLocation}`],
      ['GET', '/locations'],
      ['GET', '/events'],
      ['POST', `/locations/${R1.openLocation}/close`],
    ] as const) {
      const res = await engine.call(method, path, { key: null, ...(method === 'POST' && path === '/orders' ? { body: orderBody } : {}) });
      assert.equal(res.status, 401, `${method} ${path}`);
      assertErrorShape(res.body, 'unauthorized', MISSING);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    }
    // nothing was written without a key
    const locations = await engine.call('GET', '/locations');
    assert.equal(locations.body.data[0].open_now, true);
  });

  test('a wrong scheme is 401', async () => {
    const key = engine.demo[0]!.keys.live_read;
    for (const authorization of [`Basic ${key}`, `Token ${key}`, key, `Bearer`, `Bearer `, `Bearer ${key} extra`]) {
      const res = await engine.call('GET', '/menu', { key: null, headers: { authorization } });
      assert.equal(res.status, 401, authorization);
      assert.equal(res.body.error.code, 'unauthorized');
    }
    // the scheme is case-insensitive
    const lower = await engine.call('GET', '/menu', { key: null, headers: { authorization: `bearer ${key}` } });
    assert.equal(lower.status, 200);
  });

  test('a malformed, unknown or wrong-mode key is 401', async () => {
    const live = engine.demo[0]!.keys.live_read;
    for (const key of [
      'abc',
      'cm_live_short',
      `sk_live_${live.slice(8)}`,
      `${live}x`,
      live.slice(0, -1),
      `cm_live_${'a'.repeat(31)}!`,
      WELL_FORMED_UNKNOWN,
      `cm_test_${live.slice(8)}`, // the live secret presented as a sandbox key
      `${live.slice(0, -1)}${live.endsWith('a') ? 'b' : 'a'}`, // same lookup part, wrong secret
    ]) {
      const res = await engine.call('GET', '/menu', { key });
      assert.equal(res.status, 401, key);
      assertErrorShape(res.body, 'unauthorized', INVALID);
    }
  });

  test('a revoked key is 401 from then on', async () => {
    const { key, record } = await createApiKey(engine.server.engine, { restaurantId: R1.id, world: 'live', write: true, label: 'to revoke' });
    assert.match(key, /^cm_live_[0-9A-Za-z]{32}$/);
    assert.equal((await engine.call('GET', '/menu', { key })).status, 200);
    assert.equal((await engine.call('POST', `/locations/${R1.closedLocation}/close`, { key })).status, 200);
    await revokeApiKey(engine.server.engine, R1.id, record.id);
    for (const [method, path] of [
      ['GET', '/menu'],
      ['POST', `/locations/${R1.closedLocation}/close`],
    ] as const) {
      const res = await engine.call(method, path, { key });
      assert.equal(res.status, 401);
      assertErrorShape(res.body, 'unauthorized', INVALID);
    }
    // other keys of the restaurant are unaffected
    assert.equal((await engine.call('GET', '/menu')).status, 200);
  });

  test('a read key is 403 forbidden on every write endpoint, and nothing changes', async () => {
    const managed = engine.demo[0]!.managed_order_ids[0]!;
    const order = await engine.call('POST', '/orders', { body: orderBody });
    assert.equal(order.status, 201);
    const ordersBefore = await engine.call('GET', '/orders?limit=100');
    const stockBefore = await engine.call('GET', `/stock?location_id=${R1.openLocation}`);
    const locationsBefore = await engine.call('GET', '/locations');

    for (const key of [engine.demo[0]!.keys.live_read, engine.demo[0]!.keys.test_read]) {
      const writes: [string, string, unknown][] = [
        ['POST', '/orders', orderBody],
        ['PATCH', `/orders/${order.body.id}`, { status: 'en_preparacion' }],
        ['PATCH', `/orders/${managed}`, { status: 'cancelado' }],
        ['PUT', '/stock', { location_id: R1.openLocation, items: [{ product_id: R1.products.empanadaQueso, quantity: 1 }] }],
        ['POST', `/locations/${R1.openLocation}/close`, undefined],
        ['POST', `/locations/${R1.closedLocation}/open`, undefined],
      ];
      for (const [method, path, body] of writes) {
        const res = await engine.call(method, path, { key, ...(body !== undefined ? { body } : {}) });
        assert.equal(res.status, 403, `${method} ${path}`);
        assertErrorShape(res.body, 'forbidden', 'this API key is read-only; writes need a key with the write permission');
      }
    }
    assert.deepEqual((await engine.call('GET', '/orders?limit=100')).body, ordersBefore.body);
    assert.deepEqual((await engine.call('GET', `/stock?location_id=${R1.openLocation}`)).body, stockBefore.body);
    assert.deepEqual((await engine.call('GET', '/locations')).body, locationsBefore.body);
    // read keys do read
    assert.equal((await engine.call('GET', `/orders/${order.body.id}`, { key: engine.demo[0]!.keys.live_read })).status, 200);
  });

  test('another restaurant\'s order is 404, like an absent one; another restaurant\'s location is 404 on open/close', async () => {
    const managed = engine.demo[0]!.managed_order_ids[0]!;
    const r2 = engine.demo[1]!.keys;
    assert.equal((await engine.call('GET', `/orders/${managed}`)).status, 200);
    for (const [method, path, key, body] of [
      ['GET', `/orders/${managed}`, r2.live_read, undefined],
      ['GET', `/orders/${managed}`, r2.live_write, undefined],
      ['PATCH', `/orders/${managed}`, r2.live_write, { status: 'cancelado' }],
      ['GET', `/orders/${UNKNOWN_UUID}`, r2.live_read, undefined],
    ] as const) {
      const res = await engine.call(method, path, { key, ...(body ? { body } : {}) });
      assert.equal(res.status, 404, `${method} ${path}`);
      assertErrorShape(res.body, 'not_found', `order ${path.slice('/orders/'.length)} not found`);
    }
    const location = await engine.call('POST', `/locations/${R1.openLocation}/close`, { key: r2.live_write });
    assert.equal(location.status, 404);
    assertErrorShape(location.body, 'not_found', `location ${R1.openLocation} not found`);
    assert.equal((await engine.call('POST', `/locations/${R2_PROVIDENCIA}/close`)).status, 404);
    // a sandbox key of the same restaurant does not see production orders either
    assert.equal((await engine.call('GET', `/orders/${managed}`, { key: engine.demo[0]!.keys.test_read })).status, 404);
  });
});

describe('rate limits', () => {
  let engine: EngineUnderTest;

  before(async () => {
    engine = await startEngineUnderTest({
      rateLimits: { perKey: { capacity: 5, refillPerSecond: 1 }, unauthenticated: { capacity: 3, refillPerSecond: 0.05 } },
    });
  });
  after(async () => {
    await engine.stop();
  });

  const rateHeaders = (res: { headers: Headers }) => ({
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: res.headers.get('ratelimit-reset'),
  });

  test('per key: RateLimit headers count down, the 6th request is 429 with Retry-After, a second refills one', async () => {
    const key = engine.demo[0]!.keys.live_read;
    const seen: unknown[] = [];
    for (const path of ['/menu', '/locations', `/orders/${UNKNOWN_UUID}`, '/orders/not-a-uuid', '/events']) {
      const res = await engine.call('GET', path, { key });
      seen.push([res.status, rateHeaders(res)]);
    }
    // every authenticated response carries the headers, errors included
    assert.deepEqual(seen, [
      [200, { limit: '5', remaining: '4', reset: '1' }],
      [200, { limit: '5', remaining: '3', reset: '2' }],
      [404, { limit: '5', remaining: '2', reset: '3' }],
      [400, { limit: '5', remaining: '1', reset: '4' }],
      [200, { limit: '5', remaining: '0', reset: '5' }],
    ]);

    const refused = await engine.call('GET', '/menu', { key });
    assert.equal(refused.status, 429);
    assertErrorShape(refused.body, 'rate_limited');
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.deepEqual(rateHeaders(refused), { limit: '5', remaining: '0', reset: '5' });

    // half a second: still no whole token
    engine.clock.advance(500);
    const stillRefused = await engine.call('GET', '/menu', { key });
    assert.equal(stillRefused.status, 429);
    const retryAfter = stillRefused.headers.get('retry-after');
    assert.match(retryAfter ?? '', /^[0-9]+$/);
    assert.equal(Number(retryAfter), 1);

    engine.clock.advance(500);
    const refilled = await engine.call('GET', '/menu', { key });
    assert.equal(refilled.status, 200);
    assert.deepEqual(rateHeaders(refilled), { limit: '5', remaining: '0', reset: '5' });
    assert.equal(refilled.headers.get('retry-after'), null);
    assert.equal((await engine.call('GET', '/menu', { key })).status, 429);

    // writes spend the same bucket
    engine.clock.advance(1000);
    const write = engine.demo[0]!.keys.live_write;
    for (let i = 0; i < 5; i++) {
      assert.equal((await engine.call('POST', `/locations/${R1.closedLocation}/close`, { key: write })).status, 200);
    }
    const refusedWrite = await engine.call('POST', `/locations/${R1.closedLocation}/open`, { key: write });
    assert.equal(refusedWrite.status, 429);
    assert.equal(refusedWrite.headers.get('retry-after'), '1');
    // the refused write did nothing
    const status = await engine.call('GET', '/locations', { key: engine.demo[0]!.keys.test_read });
    assert.equal(status.body.data[1].open_now, false);

    // a full refill after 5 s
    engine.clock.advance(5000);
    const full = await engine.call('GET', '/menu', { key });
    assert.deepEqual(rateHeaders(full), { limit: '5', remaining: '4', reset: '1' });
  });

  test('keys have separate buckets', async () => {
    const a = engine.demo[1]!.keys.live_read;
    const b = engine.demo[1]!.keys.test_read;
    for (let i = 0; i < 5; i++) assert.equal((await engine.call('GET', '/locations', { key: a })).status, 200);
    assert.equal((await engine.call('GET', '/locations', { key: a })).status, 429);
    const other = await engine.call('GET', '/locations', { key: b });
    assert.equal(other.status, 200);
    assert.deepEqual(rateHeaders(other), { limit: '5', remaining: '4', reset: '1' });
  });

  test('unauthenticated requests are limited per address; a valid key is still served meanwhile', async () => {
    const answers: [number, string][] = [];
    for (const key of [null, WELL_FORMED_UNKNOWN, 'garbage']) {
      const res = await engine.call('GET', '/menu', { key });
      answers.push([res.status, res.body.error.code]);
    }
    assert.deepEqual(answers, [
      [401, 'unauthorized'],
      [401, 'unauthorized'],
      [401, 'unauthorized'],
    ]);
    const refused = await engine.call('GET', '/menu', { key: null });
    assert.equal(refused.status, 429);
    assertErrorShape(refused.body, 'rate_limited');
    // 1 token at 0.05 per second: 20 s
    assert.equal(refused.headers.get('retry-after'), '20');
    const guess = await engine.call('GET', '/menu', { key: WELL_FORMED_UNKNOWN });
    assert.equal(guess.status, 429);

    // a valid key is served from its own bucket
    const valid = await engine.call('GET', '/menu', { key: engine.demo[0]!.keys.test_write });
    assert.equal(valid.status, 200);
    assert.equal(valid.headers.get('ratelimit-limit'), '5');

    // after 20 s one more unauthenticated attempt is answered (401), then refused again
    engine.clock.advance(19_000);
    const early = await engine.call('GET', '/menu', { key: null });
    assert.equal(early.status, 429);
    assert.equal(early.headers.get('retry-after'), '1');
    engine.clock.advance(1_000);
    assert.equal((await engine.call('GET', '/menu', { key: null })).status, 401);
    assert.equal((await engine.call('GET', '/menu', { key: null })).status, 429);
  });
});
