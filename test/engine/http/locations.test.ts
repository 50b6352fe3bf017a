import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_NOW, startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1, UNKNOWN_UUID } from '../../support/demo-ids.ts';

/** Restaurant 2 (schedule mode), from resources/demo/restaurant-2.json. */
const PROVIDENCIA = '21000000-0000-4000-8000-000000000001';
const LAS_CONDES = '21000000-0000-4000-8000-000000000002';
const CALIFORNIA_ROLL = '23000000-0000-4000-8000-000000000001';

const R1_LOCATIONS = {
  open: { location_id: R1.openLocation, name: 'Ñuñoa Centro', address: 'Av. Irarrázaval 3450, Ñuñoa, Santiago', is_active: true },
  closed: { location_id: R1.closedLocation, name: 'Plaza Egaña', address: 'Av. Larraín 5862, La Reina, Santiago', is_active: true },
  inactive: { location_id: R1.inactiveLocation, name: 'Macul', address: 'Av. Macul 2840, Macul, Santiago', is_active: false },
};
const R2_LOCATIONS = {
  providencia: { location_id: PROVIDENCIA, name: 'Providencia', address: 'Av. Providencia 2124, Providencia, Santiago', is_active: true },
  lasCondes: { location_id: LAS_CONDES, name: 'Las Condes', address: 'Av. Apoquindo 4501, Las Condes, Santiago', is_active: true },
};

const caja = (open: boolean) => ({ open_now: open, reason: open ? 'caja_abierta' : 'caja_cerrada', next_opening_at: null });
const inside = { open_now: true, reason: 'dentro_del_horario', next_opening_at: null };
const outside = (next: string) => ({ open_now: false, reason: 'fuera_del_horario', next_opening_at: next });
const deactivated = { open_now: false, reason: 'sucursal_desactivada', next_opening_at: null };

describe('locations', () => {
  let engine: EngineUnderTest;
  let r1: { live_write: string; live_read: string; test_write: string; test_read: string };
  let r2: { live_write: string; live_read: string; test_write: string; test_read: string };

  before(async () => {
    engine = await startEngineUnderTest();
    r1 = engine.demo[0]!.keys;
    r2 = engine.demo[1]!.keys;
  });
  after(async () => {
    await engine.stop();
  });
  beforeEach(() => {
    engine.clock.set(DEMO_NOW);
  });

  /** The list, its kitchen waits checked and set aside (test/engine/kitchen/promise.test.ts follows them). */
  const list = async (key: string) => {
    const res = await engine.call('GET', '/locations', { key });
    assert.equal(res.status, 200);
    for (const location of res.body.data as { kitchen_wait_minutes?: number }[]) {
      assert.ok(Number.isInteger(location.kitchen_wait_minutes) && location.kitchen_wait_minutes! >= 0);
      delete location.kitchen_wait_minutes;
    }
    return res.body;
  };
  const statusOf = async (key: string, locationId: string) =>
    (await list(key)).data.find((l: { location_id: string }) => l.location_id === locationId);
  const post = (key: string, locationId: string, action: 'open' | 'close') =>
    engine.call('POST', `/locations/${locationId}/${action}`, { key });
  const feedEnd = async (key: string): Promise<string> => (await engine.call('GET', '/events', { key })).body.next_cursor;
  const eventsAfter = async (key: string, cursor: string) => {
    const res = await engine.call('GET', `/events?after=${cursor}`, { key });
    assert.equal(res.status, 200);
    return res.body.data as { type: string; data: unknown }[];
  };
  const orderAt = (key: string, locationId: string, productId: string) =>
    engine.call('POST', '/orders', {
      key,
      body: { location_id: locationId, type: 'retiro', customer: { name: 'Ana' }, items: [{ product_id: productId, quantity: 1 }] },
    });

  describe('GET /locations', () => {
    test('manual mode: register open, register closed, deactivated', async () => {
      assert.deepEqual(await list(r1.live_read), {
        register_mode: 'manual',
        checked_at: '2026-11-21T20:00:00-03:00',
        data: [
          { ...R1_LOCATIONS.open, ...caja(true) },
          { ...R1_LOCATIONS.closed, ...caja(false) },
          { ...R1_LOCATIONS.inactive, ...deactivated },
        ],
      });
    });

    test('checked_at carries the Santiago offset of the clock\'s instant (summer -03:00, winter -04:00), in seconds', async () => {
      engine.clock.set('2026-01-15T10:00:00.750-03:00');
      const january = await list(r1.test_read);
      assert.equal(january.checked_at, '2026-01-15T10:00:00-03:00');
      assert.equal(january.register_mode, 'manual');

      engine.clock.set('2026-07-15T14:00:00Z');
      const july = await list(r1.live_read);
      assert.equal(july.checked_at, '2026-07-15T10:00:00-04:00');
      assert.deepEqual(
        july.data.map((l: { reason: string }) => l.reason),
        ['caja_abierta', 'caja_cerrada', 'sucursal_desactivada'],
      );

      engine.clock.set('2026-07-15T10:00:00-04:00');
      assert.deepEqual((await list(r2.live_read)).data, [
        { ...R2_LOCATIONS.providencia, ...outside('2026-07-15T12:00:00-04:00') },
        { ...R2_LOCATIONS.lasCondes, ...outside('2026-07-15T12:00:00-04:00') },
      ]);
    });

    test('schedule mode: inside and outside the weekly schedule with the exact next opening', async () => {
      // Saturday 20:00: both open.
      assert.deepEqual(await list(r2.live_read), {
        register_mode: 'schedule',
        checked_at: '2026-11-21T20:00:00-03:00',
        data: [
          { ...R2_LOCATIONS.providencia, ...inside },
          { ...R2_LOCATIONS.lasCondes, ...inside },
        ],
      });

      const cases: [string, unknown, unknown][] = [
        // Saturday 17:00: Providencia between its ranges (12-16, 19-02).
        ['2026-11-21T17:00:00-03:00', outside('2026-11-21T19:00:00-03:00'), inside],
        // Saturday 11:59:59: both before noon.
        ['2026-11-21T11:59:59-03:00', outside('2026-11-21T12:00:00-03:00'), outside('2026-11-21T12:00:00-03:00')],
        // Saturday 12:00: a range opens inclusive.
        ['2026-11-21T12:00:00-03:00', inside, inside],
        // Saturday 23:30: Las Condes closed at 23:00; Providencia runs past midnight.
        ['2026-11-21T23:30:00-03:00', inside, outside('2026-11-22T12:00:00-03:00')],
        // Sunday 01:00: Saturday's 19:00-02:00 range is still running.
        ['2026-11-22T01:00:00-03:00', inside, outside('2026-11-22T12:00:00-03:00')],
        // Sunday 02:00: the range closes exclusive.
        ['2026-11-22T02:00:00-03:00', outside('2026-11-22T12:00:00-03:00'), outside('2026-11-22T12:00:00-03:00')],
        // Sunday 17:30: Providencia's Sunday is 12-17 only; next is Monday noon.
        ['2026-11-22T17:30:00-03:00', outside('2026-11-23T12:00:00-03:00'), inside],
        // Monday 23:30: Monday's evening range ends at 23:00.
        ['2026-11-23T23:30:00-03:00', outside('2026-11-24T12:00:00-03:00'), outside('2026-11-24T12:00:00-03:00')],
      ];
      for (const [at, providencia, lasCondes] of cases) {
        engine.clock.set(at);
        const body = await list(r2.test_read);
        assert.equal(body.checked_at, at);
        assert.deepEqual(
          body.data,
          [
            { ...R2_LOCATIONS.providencia, ...(providencia as object) },
            { ...R2_LOCATIONS.lasCondes, ...(lasCondes as object) },
          ],
          at,
        );
      }
    });

    test('schedule mode: the configured closed day (2026-12-25) and its night range', async () => {
      // Friday 25 December 13:00: Providencia closed all day (Navidad), opens Saturday noon.
      engine.clock.set('2026-12-25T13:00:00-03:00');
      assert.deepEqual((await list(r2.live_read)).data, [
        { ...R2_LOCATIONS.providencia, ...outside('2026-12-26T12:00:00-03:00') },
        { ...R2_LOCATIONS.lasCondes, ...inside },
      ]);
      // Saturday 26 December 01:00: Friday's 19:00-02:00 range does not exist on that closed day.
      engine.clock.set('2026-12-26T01:00:00-03:00');
      assert.deepEqual((await list(r2.live_read)).data, [
        { ...R2_LOCATIONS.providencia, ...outside('2026-12-26T12:00:00-03:00') },
        { ...R2_LOCATIONS.lasCondes, ...outside('2026-12-26T12:00:00-03:00') },
      ]);
      // Thursday 24 December 20:00: the day before is normal; next opening after 23:00 skips the 25th.
      engine.clock.set('2026-12-24T23:30:00-03:00');
      assert.deepEqual((await list(r2.live_read)).data[0], {
        ...R2_LOCATIONS.providencia,
        ...outside('2026-12-26T12:00:00-03:00'),
      });
    });
  });

  describe('POST /locations/{id}/open and /close, manual mode', () => {
    test('close then close again (idempotent), then open', async () => {
      const closed = await post(r1.live_write, R1.openLocation, 'close');
      assert.equal(closed.status, 200);
      assert.deepEqual(closed.body, { ...R1_LOCATIONS.open, ...caja(false) });
      const again = await post(r1.live_write, R1.openLocation, 'close');
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, { ...R1_LOCATIONS.open, ...caja(false) });
      assert.deepEqual(await statusOf(r1.live_read, R1.openLocation), { ...R1_LOCATIONS.open, ...caja(false) });

      const opened = await post(r1.live_write, R1.openLocation, 'open');
      assert.equal(opened.status, 200);
      assert.deepEqual(opened.body, { ...R1_LOCATIONS.open, ...caja(true) });
      assert.deepEqual(await statusOf(r1.live_read, R1.openLocation), { ...R1_LOCATIONS.open, ...caja(true) });
    });

    test('open a closed register, and a deactivated location stays closed', async () => {
      const opened = await post(r1.live_write, R1.closedLocation, 'open');
      assert.equal(opened.status, 200);
      assert.deepEqual(opened.body, { ...R1_LOCATIONS.closed, ...caja(true) });
      assert.deepEqual(await statusOf(r1.test_read, R1.closedLocation), { ...R1_LOCATIONS.closed, ...caja(true) });
      assert.equal((await post(r1.live_write, R1.closedLocation, 'close')).status, 200);
      assert.deepEqual(await statusOf(r1.live_read, R1.closedLocation), { ...R1_LOCATIONS.closed, ...caja(false) });

      const inactive = await post(r1.live_write, R1.inactiveLocation, 'open');
      assert.equal(inactive.status, 200);
      assert.deepEqual(inactive.body, { ...R1_LOCATIONS.inactive, ...deactivated });
    });

    test('an order with a production key at a location closed via the API is 409 location_closed', async () => {
      assert.equal((await post(r1.live_write, R1.openLocation, 'close')).status, 200);
      const refused = await orderAt(r1.live_write, R1.openLocation, R1.products.cazuela);
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error.code, 'location_closed');
      assert.match(refused.body.error.message, new RegExp(R1.openLocation));
      // the sandbox does not need an open location
      const sandbox = await orderAt(r1.test_write, R1.openLocation, R1.products.cazuela);
      assert.equal(sandbox.status, 201);
      assert.equal((await post(r1.live_write, R1.openLocation, 'open')).status, 200);
      const accepted = await orderAt(r1.live_write, R1.openLocation, R1.products.cazuela);
      assert.equal(accepted.status, 201);
      assert.equal(accepted.body.status, 'recibido');
    });

    test('a sandbox key gets the resulting status with simulated: true and nothing changes', async () => {
      const cursor = await feedEnd(r1.live_read);
      const closed = await post(r1.test_write, R1.openLocation, 'close');
      assert.equal(closed.status, 200);
      assert.deepEqual(closed.body, { ...R1_LOCATIONS.open, ...caja(false), simulated: true });
      const opened = await post(r1.test_write, R1.closedLocation, 'open');
      assert.equal(opened.status, 200);
      assert.deepEqual(opened.body, { ...R1_LOCATIONS.closed, ...caja(true), simulated: true });
      for (const key of [r1.live_read, r1.test_read]) {
        assert.deepEqual((await list(key)).data, [
          { ...R1_LOCATIONS.open, ...caja(true) },
          { ...R1_LOCATIONS.closed, ...caja(false) },
          { ...R1_LOCATIONS.inactive, ...deactivated },
        ]);
      }
      assert.deepEqual(await eventsAfter(r1.live_read, cursor), []);
      // production orders are still accepted at the location the sandbox "closed"
      assert.equal((await orderAt(r1.live_write, R1.openLocation, R1.products.cazuela)).status, 201);
    });
  });

  describe('POST /locations/{id}/open and /close, schedule mode', () => {
    test('close records today\'s closed day: closed until tomorrow\'s first opening; the next day the schedule rules', async () => {
      const closed = await post(r2.live_write, PROVIDENCIA, 'close');
      assert.equal(closed.status, 200);
      assert.deepEqual(closed.body, { ...R2_LOCATIONS.providencia, ...outside('2026-11-22T12:00:00-03:00') });
      assert.deepEqual((await list(r2.live_read)).data, [
        { ...R2_LOCATIONS.providencia, ...outside('2026-11-22T12:00:00-03:00') },
        { ...R2_LOCATIONS.lasCondes, ...inside },
      ]);
      const refused = await orderAt(r2.live_write, PROVIDENCIA, CALIFORNIA_ROLL);
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error.code, 'location_closed');
      assert.equal((await orderAt(r2.live_write, LAS_CONDES, CALIFORNIA_ROLL)).status, 201);

      // Idempotent.
      const again = await post(r2.live_write, PROVIDENCIA, 'close');
      assert.deepEqual(again.body, { ...R2_LOCATIONS.providencia, ...outside('2026-11-22T12:00:00-03:00') });

      // Sunday noon: the weekly schedule rules again.
      engine.clock.set('2026-11-22T12:30:00-03:00');
      assert.deepEqual(await statusOf(r2.live_read, PROVIDENCIA), { ...R2_LOCATIONS.providencia, ...inside });
      assert.equal((await orderAt(r2.live_write, PROVIDENCIA, CALIFORNIA_ROLL)).status, 201);
    });

    test('open removes today\'s exception: the schedule rules again', async () => {
      assert.equal((await post(r2.live_write, PROVIDENCIA, 'close')).status, 200);
      const opened = await post(r2.live_write, PROVIDENCIA, 'open');
      assert.equal(opened.status, 200);
      assert.deepEqual(opened.body, { ...R2_LOCATIONS.providencia, ...inside });
      assert.deepEqual(await statusOf(r2.live_read, PROVIDENCIA), { ...R2_LOCATIONS.providencia, ...inside });
      assert.equal((await orderAt(r2.live_write, PROVIDENCIA, CALIFORNIA_ROLL)).status, 201);
    });

    test('open while the schedule says closed stays closed', async () => {
      engine.clock.set('2026-11-21T17:00:00-03:00');
      const opened = await post(r2.live_write, PROVIDENCIA, 'open');
      assert.equal(opened.status, 200);
      assert.deepEqual(opened.body, { ...R2_LOCATIONS.providencia, ...outside('2026-11-21T19:00:00-03:00') });
      assert.deepEqual(await statusOf(r2.live_read, PROVIDENCIA), { ...R2_LOCATIONS.providencia, ...outside('2026-11-21T19:00:00-03:00') });
      // and the evening range still opens by itself
      engine.clock.set('2026-11-21T19:00:00-03:00');
      assert.deepEqual(await statusOf(r2.live_read, PROVIDENCIA), { ...R2_LOCATIONS.providencia, ...inside });
    });

    test('close after midnight inside yesterday\'s range closes now; open reopens it', async () => {
      engine.clock.set('2026-11-22T01:00:00-03:00');
      assert.deepEqual(await statusOf(r2.live_read, PROVIDENCIA), { ...R2_LOCATIONS.providencia, ...inside });
      const closed = await post(r2.live_write, PROVIDENCIA, 'close');
      assert.equal(closed.status, 200);
      // Today (Sunday) is a closed day: next opening is Monday noon.
      assert.deepEqual(closed.body, { ...R2_LOCATIONS.providencia, ...outside('2026-11-23T12:00:00-03:00') });
      assert.deepEqual(await statusOf(r2.live_read, PROVIDENCIA), closed.body);
      assert.equal((await orderAt(r2.live_write, PROVIDENCIA, CALIFORNIA_ROLL)).status, 409);

      const opened = await post(r2.live_write, PROVIDENCIA, 'open');
      assert.equal(opened.status, 200);
      assert.deepEqual(opened.body, { ...R2_LOCATIONS.providencia, ...inside });
      assert.deepEqual(await statusOf(r2.live_read, PROVIDENCIA), { ...R2_LOCATIONS.providencia, ...inside });

      // A location closed at this hour anyway: close makes Sunday a closed day.
      const lasCondes = await post(r2.live_write, LAS_CONDES, 'close');
      assert.deepEqual(lasCondes.body, { ...R2_LOCATIONS.lasCondes, ...outside('2026-11-23T12:00:00-03:00') });
      assert.equal((await post(r2.live_write, LAS_CONDES, 'open')).status, 200);
      assert.deepEqual(await statusOf(r2.live_read, LAS_CONDES), {
        ...R2_LOCATIONS.lasCondes,
        ...outside('2026-11-22T12:00:00-03:00'),
      });
    });

    test('open on the configured closed day removes that day\'s exception (the weekly schedule rules)', async () => {
      engine.clock.set('2026-12-25T13:00:00-03:00');
      assert.deepEqual(await statusOf(r2.live_read, PROVIDENCIA), { ...R2_LOCATIONS.providencia, ...outside('2026-12-26T12:00:00-03:00') });
      const opened = await post(r2.live_write, PROVIDENCIA, 'open');
      assert.deepEqual(opened.body, { ...R2_LOCATIONS.providencia, ...inside });
      const closed = await post(r2.live_write, PROVIDENCIA, 'close');
      assert.deepEqual(closed.body, { ...R2_LOCATIONS.providencia, ...outside('2026-12-26T12:00:00-03:00') });
    });

    test('a sandbox key gets the resulting status with simulated: true and nothing changes', async () => {
      const cursor = await feedEnd(r2.test_read);
      const closed = await post(r2.test_write, PROVIDENCIA, 'close');
      assert.equal(closed.status, 200);
      assert.deepEqual(closed.body, { ...R2_LOCATIONS.providencia, ...outside('2026-11-22T12:00:00-03:00'), simulated: true });
      assert.deepEqual(await statusOf(r2.live_read, PROVIDENCIA), { ...R2_LOCATIONS.providencia, ...inside });
      assert.deepEqual(await statusOf(r2.test_read, PROVIDENCIA), { ...R2_LOCATIONS.providencia, ...inside });
      assert.equal((await orderAt(r2.live_write, PROVIDENCIA, CALIFORNIA_ROLL)).status, 201);

      engine.clock.set('2026-11-21T17:00:00-03:00');
      const opened = await post(r2.test_write, PROVIDENCIA, 'open');
      assert.deepEqual(opened.body, { ...R2_LOCATIONS.providencia, ...outside('2026-11-21T19:00:00-03:00'), simulated: true });

      engine.clock.set('2026-11-22T01:00:00-03:00');
      const overnight = await post(r2.test_write, PROVIDENCIA, 'close');
      assert.deepEqual(overnight.body, { ...R2_LOCATIONS.providencia, ...outside('2026-11-23T12:00:00-03:00'), simulated: true });
      assert.deepEqual(await statusOf(r2.live_read, PROVIDENCIA), { ...R2_LOCATIONS.providencia, ...inside });

      engine.clock.set('2026-12-25T13:00:00-03:00');
      const christmas = await post(r2.test_write, PROVIDENCIA, 'open');
      assert.deepEqual(christmas.body, { ...R2_LOCATIONS.providencia, ...inside, simulated: true });
      assert.deepEqual(await statusOf(r2.live_read, PROVIDENCIA), { ...R2_LOCATIONS.providencia, ...outside('2026-12-26T12:00:00-03:00') });

      assert.deepEqual(await eventsAfter(r2.test_read, cursor), []);
    });
  });

  test('live open/close write location.updated events (data = the location status), seen by both worlds of the restaurant only', async () => {
    const liveCursor = await feedEnd(r1.live_read);
    const testCursor = await feedEnd(r1.test_read);
    const otherCursor = await feedEnd(r2.live_read);
    const closed = await post(r1.live_write, R1.closedLocation, 'open');
    const reclosed = await post(r1.live_write, R1.closedLocation, 'close');
    assert.equal(closed.status, 200);
    assert.equal(reclosed.status, 200);
    const expected = [
      { type: 'location.updated', data: { ...R1_LOCATIONS.closed, ...caja(true) } },
      { type: 'location.updated', data: { ...R1_LOCATIONS.closed, ...caja(false) } },
    ];
    for (const [key, cursor] of [
      [r1.live_read, liveCursor],
      [r1.test_read, testCursor],
    ] as const) {
      const events = await eventsAfter(key, cursor);
      assert.deepEqual(
        events.map((e) => ({ type: e.type, data: e.data })),
        expected,
      );
    }
    assert.deepEqual(await eventsAfter(r2.live_read, otherCursor), []);

    // schedule mode
    const r2Cursor = await feedEnd(r2.test_read);
    const r2Closed = await post(r2.live_write, LAS_CONDES, 'close');
    const r2Events = await eventsAfter(r2.test_read, r2Cursor);
    assert.deepEqual(r2Events.map((e) => [e.type, e.data]), [['location.updated', r2Closed.body]]);
    assert.deepEqual(r2Closed.body, { ...R2_LOCATIONS.lasCondes, ...outside('2026-11-22T12:00:00-03:00') });
    assert.equal((await post(r2.live_write, LAS_CONDES, 'open')).status, 200);
  });

  test('unknown location is 404, another restaurant\'s too; malformed id is 400; read keys are 403', async () => {
    for (const action of ['open', 'close'] as const) {
      for (const [key, locationId] of [
        [r1.live_write, UNKNOWN_UUID],
        [r1.live_write, PROVIDENCIA],
        [r2.test_write, R1.openLocation],
      ] as const) {
        const res = await post(key, locationId, action);
        assert.equal(res.status, 404);
        assert.deepEqual(res.body, { error: { code: 'not_found', message: `location ${locationId} not found` } });
      }
      const malformed = await post(r1.live_write, 'not-a-uuid', action);
      assert.equal(malformed.status, 400);
      assert.deepEqual(malformed.body, { error: { code: 'invalid_request', message: 'location_id must be a UUID' } });

      for (const key of [r1.live_read, r1.test_read, r2.live_read]) {
        const res = await post(key, key === r2.live_read ? PROVIDENCIA : R1.openLocation, action);
        assert.equal(res.status, 403);
        assert.equal(res.body.error.code, 'forbidden');
      }
    }
    assert.deepEqual(await statusOf(r1.live_read, R1.openLocation), { ...R1_LOCATIONS.open, ...caja(true) });
    assert.deepEqual(await statusOf(r2.live_read, PROVIDENCIA), { ...R2_LOCATIONS.providencia, ...inside });
  });

  test('open and close take no body; an empty JSON request or an ignored JSON body is fine', async () => {
    const emptyJson = await engine.call('POST', `/locations/${R1.closedLocation}/open`, {
      key: r1.live_write,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(emptyJson.status, 200);
    assert.deepEqual(emptyJson.body, { ...R1_LOCATIONS.closed, ...caja(true) });
    const withBody = await engine.call('POST', `/locations/${R1.closedLocation}/close`, { key: r1.live_write, body: { reason: 'x' } });
    assert.equal(withBody.status, 200);
    assert.deepEqual(withBody.body, { ...R1_LOCATIONS.closed, ...caja(false) });
  });
});
