import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.ts';
import { createScreenHandlers } from '../../src/main/channel-handlers.ts';
import { callScreenHandler, dispatchScreenCall } from '../../src/engine/screen/dispatch.ts';
import { memoryPlatformKey, memorySettings } from './support/memory-ports.ts';
import { STANDALONE_STATUS } from '../../src/engine/screen/live-hub.ts';
import { SCREEN_CHANNELS, BRIDGE_METHODS } from '../../src/shared/screen-contract/contract.ts';
import { DEMO_NOW, startEngineUnderTest, type EngineUnderTest } from '../support/engine-under-test.ts';
import { R1, R2, UNKNOWN_UUID } from '../support/demo-ids.ts';
import { handlersFor, placeOrder } from '../engine/screen/support.ts';
import { eventually } from '../support/eventually.ts';

describe('IPC handlers on a real engine', () => {
  let engine: EngineUnderTest;
  let ipc: ReturnType<typeof handlersFor>;
  let keys: EngineUnderTest['demo'][number]['keys'];

  before(async () => {
    engine = await startEngineUnderTest();
    keys = engine.demo[0]!.keys;
  });
  after(async () => {
    await engine.stop();
  });
  beforeEach(() => {
    engine.clock.set(DEMO_NOW);
    ipc = handlersFor(engine);
  });

  test('every channel has a handler and a bridge method', () => {
    assert.deepEqual(Object.keys(ipc.handlers).sort(), [...SCREEN_CHANNELS].sort());
    assert.deepEqual(Object.values(BRIDGE_METHODS).sort(), [...SCREEN_CHANNELS].sort());
  });

  test('"Probar con pedidos de ejemplo" (demo:rush): on the demo restaurant, the rush over the API until stopped; elsewhere refused', async () => {
    assert.deepEqual(await ipc.ok('demo:rush', { action: 'status' }), { available: true, running: false, posted: 0, failed: 0, per_minute: null });
    const started = await ipc.ok('demo:rush', { action: 'start', per_minute: 120 });
    assert.equal(started.running, true);
    assert.equal(started.per_minute, 120);
    await eventually(async () => (await ipc.ok('demo:rush', { action: 'status' })).posted >= 2, 'two sample orders posted');
    const stopped = await ipc.ok('demo:rush', { action: 'stop' });
    assert.equal(stopped.running, false);
    // Posted with a key of its own, labelled so it can be told apart in Integraciones.
    assert.ok((await ipc.ok('keys:list', {})).some((k) => k.label === 'pedidos de ejemplo' && k.world === 'live'));
    const elsewhere = handlersFor(engine, { restaurantId: R2.id });
    assert.equal((await elsewhere.ok('demo:rush', { action: 'status' })).available, false);
    const refused = await callScreenHandler(elsewhere.handlers, 'demo:rush', { action: 'start', per_minute: 6 });
    assert.equal(!refused.ok && refused.error.code, 'invalid_request');
  });

  test('the board snapshot holds both worlds, test orders marked, with the feed position', async () => {
    const live = await placeOrder(engine, { customer: { name: 'Real' } });
    const sandbox = await placeOrder(engine, { customer: { name: 'Sandbox' } }, keys.test_write);
    const board = await ipc.ok('board:snapshot', {});
    assert.equal(board.restaurant.id, R1.id);
    assert.equal(board.cursor, await engine.server.engine.stores.events.lastSeq(R1.id));
    assert.equal(board.now, engine.clock.now());
    const byId = new Map(board.tickets.map((t) => [t.order.id, t]));
    assert.equal(byId.get(live.id)?.order.test, false);
    assert.equal(byId.get(sandbox.id)?.order.test, true);
    assert.equal(byId.get(sandbox.id)?.order.number.startsWith('T'), true);
    assert.equal(byId.get(live.id)?.kitchen_since, engine.clock.now());
    assert.equal(byId.get(live.id)?.ready_at, null);
    // The POS-managed demo order is on the board too, marked.
    assert.ok(board.tickets.some((t) => t.order.id === engine.demo[0]!.managed_order_ids[0] && t.order.managed_by_integrator));
    assert.deepEqual(
      board.locations.map((l) => l.location_id),
      [R1.openLocation, R1.closedLocation, R1.inactiveLocation],
    );
  });

  test('a transition goes through the same rules as PATCH and is visible over HTTP, in the order\'s own world', async () => {
    const live = await placeOrder(engine);
    const sandbox = await placeOrder(engine, {}, keys.test_write);
    engine.clock.advance(4 * 60_000);
    const moved = await ipc.ok('orders:transition', { order_id: live.id, target: 'en_preparacion' });
    assert.equal(moved.order.status, 'en_preparacion');
    engine.clock.advance(6 * 60_000);
    const ready = await ipc.ok('orders:transition', { order_id: live.id, target: 'listo' });
    assert.equal(ready.ready_at! - ready.kitchen_since!, 10 * 60_000);
    assert.equal((await engine.call('GET', `/orders/${live.id}`, { key: keys.live_read })).body.status, 'listo');

    await ipc.ok('orders:transition', { order_id: sandbox.id, target: 'en_preparacion' });
    assert.equal((await engine.call('GET', `/orders/${sandbox.id}`, { key: keys.test_read })).body.status, 'en_preparacion');
  });

  test('refusals come back as data with the engine\'s code and message', async () => {
    const order = await placeOrder(engine);
    const illegal = await callScreenHandler(ipc.handlers, 'orders:transition', { order_id: order.id, target: 'entregado' });
    assert.deepEqual(illegal, {
      ok: false,
      error: { code: 'illegal_transition', message: `order ${order.number} cannot go from recibido to entregado` },
    });
    const managed = await callScreenHandler(ipc.handlers, 'orders:transition', { order_id: engine.demo[0]!.managed_order_ids[0]!, target: 'en_preparacion' });
    assert.equal(managed.ok, false);
    assert.equal(!managed.ok && managed.error.code, 'managed_by_integrator');
    const unknown = await callScreenHandler(ipc.handlers, 'orders:transition', { order_id: UNKNOWN_UUID, target: 'listo' });
    assert.equal(!unknown.ok && unknown.error.code, 'not_found');
    // Another restaurant's order is as absent as an unknown one.
    const other = await engine.call('POST', '/orders', {
      key: engine.demo[1]!.keys.test_write,
      body: { location_id: '21000000-0000-4000-8000-000000000001', type: 'retiro', customer: { name: 'x' }, items: [{ product_id: '23000000-0000-4000-8000-000000000001', quantity: 1 }] },
    });
    assert.equal(other.status, 201);
    const foreign = await callScreenHandler(ipc.handlers, 'orders:transition', { order_id: other.body.id, target: 'en_preparacion' });
    assert.equal(!foreign.ok && foreign.error.code, 'not_found');
  });

  test('payloads are checked before any handler runs', async () => {
    const badId = await dispatchScreenCall(ipc.handlers, 'orders:transition', { order_id: 'nope', target: 'listo' });
    assert.equal(!badId.ok && badId.error.code, 'invalid_request');
    assert.match(!badId.ok ? badId.error.message : '', /order_id/);
    const badTarget = await dispatchScreenCall(ipc.handlers, 'orders:transition', { order_id: UNKNOWN_UUID, target: 'recibido' });
    assert.match(!badTarget.ok ? badTarget.error.message : '', /target/);
    const negative = await dispatchScreenCall(ipc.handlers, 'stock:set', { location_id: R1.openLocation, world: 'live', items: [{ product_id: R1.products.empanadaQueso, quantity: -1 }] });
    assert.match(!negative.ok ? negative.error.message : '', /items\.0\.quantity/);
    const channel = await dispatchScreenCall(ipc.handlers, 'orders:delete-all', {});
    assert.equal(!channel.ok && channel.error.code, 'not_found');
    const empty = await dispatchScreenCall(ipc.handlers, 'board:snapshot', undefined);
    assert.equal(empty.ok, true);
  });

  test('stock: absolute quantities, visible over HTTP; the test world answers simulated and changes nothing', async () => {
    const set = await ipc.ok('stock:set', { location_id: R1.openLocation, world: 'live', items: [{ product_id: R1.products.empanadaQueso, quantity: 17 }] });
    assert.deepEqual(set, { data: [{ product_id: R1.products.empanadaQueso, quantity: 17 }], simulated: false });
    const http = await engine.call('GET', `/stock?location_id=${R1.openLocation}`, { key: keys.live_read });
    assert.equal(http.body.data.find((e: any) => e.product_id === R1.products.empanadaQueso).quantity, 17);
    const read = await ipc.ok('stock:read', { location_id: R1.openLocation, world: 'live' });
    assert.equal(read.data.find((e) => e.product_id === R1.products.empanadaQueso)?.quantity, 17);

    const simulated = await ipc.ok('stock:set', { location_id: R1.openLocation, world: 'test', items: [{ product_id: R1.products.empanadaQueso, quantity: 3 }] });
    assert.equal(simulated.simulated, true);
    const after = await engine.call('GET', `/stock?location_id=${R1.openLocation}`, { key: keys.live_read });
    assert.equal(after.body.data.find((e: any) => e.product_id === R1.products.empanadaQueso).quantity, 17);

    const untracked = await callScreenHandler(ipc.handlers, 'stock:set', { location_id: R1.openLocation, world: 'live', items: [{ product_id: R1.products.cazuela, quantity: 3 }] });
    assert.equal(!untracked.ok && untracked.error.code, 'invalid_request');
  });

  test('locations: close and open now, visible over HTTP; simulated in the test world', async () => {
    const closed = await ipc.ok('locations:set-open', { location_id: R1.openLocation, world: 'live', open: false });
    assert.equal(closed.open_now, false);
    assert.equal(closed.reason, 'caja_cerrada');
    const http = await engine.call('GET', '/locations', { key: keys.live_read });
    assert.equal(http.body.data.find((l: any) => l.location_id === R1.openLocation).open_now, false);
    const list = await ipc.ok('locations:list', { world: 'live' });
    assert.equal(list.register_mode, 'manual');
    assert.equal(list.data.find((l) => l.location_id === R1.openLocation)?.open_now, false);

    const sandbox = await ipc.ok('locations:set-open', { location_id: R1.openLocation, world: 'test', open: true });
    assert.equal(sandbox.simulated, true);
    assert.equal(sandbox.open_now, true);
    assert.equal((await engine.call('GET', '/locations', { key: keys.live_read })).body.data.find((l: any) => l.location_id === R1.openLocation).open_now, false);
    await ipc.ok('locations:set-open', { location_id: R1.openLocation, world: 'live', open: true });
  });

  test('a schedule-mode restaurant\'s screen gets the reason and the next opening', async () => {
    const r2 = handlersFor(engine, { restaurantId: R2.id });
    engine.clock.set('2026-11-21T04:00:00-03:00');
    const list = await r2.ok('locations:list', { world: 'live' });
    assert.equal(list.register_mode, 'schedule');
    const closed = list.data.find((l) => !l.open_now)!;
    assert.equal(closed.reason, 'fuera_del_horario');
    assert.match(closed.next_opening_at ?? '', /^2026-11-21T\d\d:\d\d:00-03:00$/);
  });

  test('keys: generated once, usable on the HTTP API, listed without the secret, revoked', async () => {
    const created = await ipc.ok('keys:create', { world: 'test', write: true, label: '  tienda web  ' });
    assert.match(created.key, /^cm_test_[0-9A-Za-z]{32}$/);
    assert.equal(created.record.label, 'tienda web');
    assert.equal(created.record.last4, created.key.slice(-4));
    assert.equal((await engine.call('GET', '/menu', { key: created.key })).status, 200);
    const list = await ipc.ok('keys:list', {});
    const listed = list.find((k) => k.id === created.record.id)!;
    assert.equal(listed.world, 'test');
    assert.equal(listed.write, true);
    assert.ok(!JSON.stringify(list).includes(created.key));
    const revoked = await ipc.ok('keys:revoke', { key_id: created.record.id });
    assert.notEqual(revoked.revoked_at, null);
    assert.equal((await engine.call('GET', '/menu', { key: created.key })).status, 401);
    const unknown = await callScreenHandler(ipc.handlers, 'keys:revoke', { key_id: 'nope' });
    assert.equal(!unknown.ok && unknown.error.code, 'not_found');
  });

  test('back up now: an online copy in the backups folder, named by the restaurant\'s local time, that opens with every order', async () => {
    const placed = await placeOrder(engine);
    const result = await ipc.ok('app:backup', {});
    assert.equal(result.file, join(ipc.backupFolder, 'comanda-20261121-200000.db'));
    assert.ok(result.bytes > 0);
    const copy = new Engine({ database: result.file });
    try {
      assert.equal((copy.db.pragma('integrity_check', { simple: true }) as string), 'ok');
      assert.ok(await copy.stores.orders.getById(placed.id), 'the order placed before the backup is in the copy');
    } finally {
      await copy.close();
    }
  });

  test('settings: merged, checked, and those needing a restart reported', async () => {
    const view = await ipc.ok('settings:update', { language: 'en', thresholds: { warn_minutes: 5 } });
    assert.equal(view.settings.language, 'en');
    assert.deepEqual(view.settings.thresholds, { warn_minutes: 5, late_minutes: 20 });
    assert.equal(view.restart_required, false);
    const crossed = await callScreenHandler(ipc.handlers, 'settings:update', { thresholds: { warn_minutes: 30 } });
    assert.equal(!crossed.ok && crossed.error.code, 'invalid_request');
    assert.equal((await ipc.ok('settings:update', { http: { lan: true } })).restart_required, true);
    const badRestaurant = await callScreenHandler(ipc.handlers, 'settings:update', { restaurant_id: UNKNOWN_UUID });
    assert.equal(!badRestaurant.ok && badRestaurant.error.code, 'invalid_request');
    assert.equal((await ipc.ok('settings:update', { restaurant_id: R2.id })).settings.restaurant_id, R2.id);
    const noKey = await callScreenHandler(ipc.handlers, 'settings:update', { connection: { mode: 'connected', platform_url: 'https://plataforma.example/v1' } });
    assert.equal(!noKey.ok && noKey.error.code, 'platform_key_missing');
    const badUrl = await callScreenHandler(ipc.handlers, 'settings:update', { connection: { platform_url: 'ftp://x' } });
    assert.equal(!badUrl.ok && badUrl.error.code, 'invalid_request');
  });

  test('the platform key goes in and only its world, label and last four come out', async () => {
    const key = 'cm_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    const view = await ipc.ok('platform:set-key', { key, label: 'Plataforma' });
    assert.deepEqual(view.platform_key, { present: true, world: 'live', label: 'Plataforma', last4: '2345' });
    assert.ok(!JSON.stringify(view).includes(key));
    assert.equal(ipc.platformKey.secret(), key);
    const connected = await ipc.ok('settings:update', { connection: { mode: 'connected', platform_url: 'https://plataforma.example/v1' } });
    assert.equal(connected.settings.connection.mode, 'connected');
    assert.ok(!JSON.stringify(await ipc.ok('settings:get', {})).includes(key));
    const cleared = await ipc.ok('platform:clear-key', {});
    assert.equal(cleared.platform_key.present, false);
    assert.equal(cleared.settings.connection.mode, 'standalone');
    const malformed = await callScreenHandler(ipc.handlers, 'platform:set-key', { key: 'hello', label: null });
    assert.equal(!malformed.ok && malformed.error.code, 'invalid_request');
    // The platform runs this engine: another service's key shape is refused here, as the first pull
    // would refuse it, not kept and found wrong only when the hub connects.
    const foreign = await callScreenHandler(ipc.handlers, 'platform:set-key', { key: 'acme_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345', label: null });
    assert.equal(!foreign.ok && foreign.error.code, 'invalid_request');
    assert.match(!foreign.ok ? foreign.error.message : '', /cm_live_/);
    assert.equal(ipc.platformKey.secret(), null);
  });

  test('without protected storage the key is refused, never kept in clear', async () => {
    const insecure = handlersFor(engine, { secureStorage: false });
    const result = await callScreenHandler(insecure.handlers, 'platform:set-key', { key: 'cm_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345', label: null });
    assert.equal(!result.ok && result.error.code, 'secure_storage_unavailable');
    assert.equal(insecure.platformKey.secret(), null);
    const view = await insecure.ok('settings:get', {});
    assert.deepEqual(view.secure_storage, { available: false, backend: null });
    assert.equal(view.platform_key.present, false);
  });

  test('an unexpected failure is logged and told to the screen without internals', async () => {
    const errors: unknown[] = [];
    const broken = createScreenHandlers({
      engine: engine.server.engine,
      printers: engine.server.providers.printers,
      commands: {
        ...engine.server.commands,
        setStock: () => {
          throw new TypeError('SQLITE_CORRUPT at /home/secret/comanda.db');
        },
      },
      restaurantId: R1.id,
      settings: memorySettings(),
      platformKey: memoryPlatformKey(),
      host: { appInfo: () => { throw new Error('unused'); }, connectionStatus: () => STANDALONE_STATUS, syncStatus: async () => null, backupFolder: () => null },
    });
    const result = await dispatchScreenCall(broken, 'stock:set', { location_id: R1.openLocation, world: 'live', items: [{ product_id: R1.products.empanadaQueso, quantity: 1 }] }, (e) => errors.push(e));
    assert.deepEqual(result, { ok: false, error: { code: 'internal_error', message: 'internal error; the action was not completed' } });
    assert.equal(errors.length, 1);
  });
});
