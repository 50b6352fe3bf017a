// The split of the contract (kitchen channels on both transports, desktop ones on IPC only) and the
// desktop's "Pantallas de cocina" channels: a pairing offer with its QR code, the list, revoking.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createDesktopHandlers } from '../../src/main/desktop-handlers.ts';
import { createScreenHandlers } from '../../src/main/channel-handlers.ts';
import { callScreenHandler } from '../../src/engine/screen/dispatch.ts';
import { createKitchenHandlers } from '../../src/engine/screen/kitchen-handlers.ts';
import { memoryPlatformKey, memorySettings } from './support/memory-ports.ts';
import { STANDALONE_STATUS } from '../../src/engine/screen/live-hub.ts';
import { PAIRING_CODE_TTL_MS, authenticateDevice, pairWithCode } from '../../src/engine/services/kitchen/kitchen-devices.ts';
import { DESKTOP_CHANNELS, SCREEN_CHANNELS, KITCHEN_CHANNELS } from '../../src/shared/screen-contract/contract.ts';
import { REQUEST_SCHEMAS } from '../../src/shared/screen-contract/contract.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../support/engine-under-test.ts';
import { R1 } from '../support/demo-ids.ts';

describe('kitchen and desktop channels', () => {
  let engine: EngineUnderTest;
  before(async () => {
    engine = await startEngineUnderTest();
  });
  after(async () => {
    await engine.stop();
  });

  const deps = (pairingOrigin?: { origin: string; lan: boolean }) => ({
    engine: engine.server.engine,
    commands: engine.server.commands,
    printers: engine.server.providers.printers,
    restaurantId: R1.id,
    settings: memorySettings(),
    platformKey: memoryPlatformKey({ available: true }),
    host: {
      appInfo: () => ({ version: 'test', restaurant: { id: R1.id, name: 'x' }, restaurants: [], api_base_url: null, lan_urls: [], data_dir: null }),
      connectionStatus: () => STANDALONE_STATUS,
      syncStatus: async () => null,
      backupFolder: () => null,
      ...(pairingOrigin ? { pairingOrigin: () => pairingOrigin } : {}),
    },
  });

  test('every channel is either the kitchen’s or the desktop’s, and has a request schema', () => {
    const kitchen: string[] = Object.keys(createKitchenHandlers(deps())).sort();
    const desktop: string[] = Object.keys(createDesktopHandlers(deps())).sort();
    assert.deepEqual(kitchen, [...KITCHEN_CHANNELS].sort());
    assert.deepEqual(desktop, [...DESKTOP_CHANNELS].sort());
    assert.equal(kitchen.filter((c: string) => (desktop as readonly string[]).includes(c)).length, 0);
    assert.deepEqual(Object.keys(REQUEST_SCHEMAS).sort(), [...SCREEN_CHANNELS].sort());
    for (const forbidden of ['keys:list', 'keys:create', 'settings:get', 'settings:update', 'platform:set-key', 'mail:set-smtp', 'devices:pair', 'app:backup']) {
      assert.ok(!(KITCHEN_CHANNELS as readonly string[]).includes(forbidden), `${forbidden} must stay desktop-only`);
    }
  });

  test('Añadir una pantalla: QR code, URL, six digits and expiry; the list; Revocar', async () => {
    const handlers = createScreenHandlers(deps({ origin: 'http://192.168.1.20:4750', lan: true }));
    const offer = await callScreenHandler(handlers, 'devices:pair', { name: 'Plancha' });
    assert.ok(offer.ok);
    assert.match(offer.value.code, /^\d{6}$/);
    assert.match(offer.value.pairing_url, /^http:\/\/192\.168\.1\.20:4750\/kitchen\/pair\?secret=cmpair_[\w-]{43}$/);
    assert.match(offer.value.qr_svg, /^<svg[^>]*>.*<\/svg>\s*$/s);
    assert.equal(offer.value.reachable_from_lan, true);
    assert.equal(Date.parse(offer.value.expires_at), engine.clock.now() + PAIRING_CODE_TTL_MS);

    const paired = await pairWithCode(engine.server.engine, offer.value.code);
    await assert.rejects(async () => await pairWithCode(engine.server.engine, offer.value.code), /already used/);
    const list = await callScreenHandler(handlers, 'devices:list', {});
    assert.ok(list.ok);
    const screen = list.value.find((d) => d.id === paired.device.id)!;
    assert.equal(screen.name, 'Plancha');
    assert.equal(screen.last_seen_at, null);
    assert.ok(await authenticateDevice(engine.server.engine, paired.token));
    const seen = await callScreenHandler(handlers, 'devices:list', {});
    assert.ok(seen.ok);
    assert.notEqual(seen.value.find((d) => d.id === paired.device.id)!.last_seen_at, null, 'a call notes when the screen was seen');

    const revoked = await callScreenHandler(handlers, 'devices:revoke', { device_id: paired.device.id });
    assert.ok(revoked.ok && revoked.value.revoked_at !== null);
    assert.equal(await authenticateDevice(engine.server.engine, paired.token), null);
    const unknown = await callScreenHandler(handlers, 'devices:revoke', { device_id: '00000000-0000-4000-8000-000000000000' });
    assert.ok(!unknown.ok && unknown.error.code === 'not_found');
  });

  test('a code expires after ten minutes, on the engine’s clock; a host that serves no screens cannot pair', async () => {
    const handlers = createScreenHandlers(deps({ origin: 'http://127.0.0.1:4750', lan: false }));
    const offer = await callScreenHandler(handlers, 'devices:pair', { name: null });
    assert.ok(offer.ok && offer.value.reachable_from_lan === false);
    engine.clock.advance(PAIRING_CODE_TTL_MS);
    await assert.rejects(async () => await pairWithCode(engine.server.engine, offer.value.code), /expired/);
    await assert.rejects(async () => await pairWithCode(engine.server.engine, 'abcdef'), /expired/);
    const none = await callScreenHandler(createScreenHandlers(deps()), 'devices:pair', { name: null });
    assert.ok(!none.ok && none.error.code === 'pairing_unavailable');
  });

  test('Pantalla de retiro settings over the desktop channels: defaults, a change kept, bad values refused with the field named', async () => {
    const handlers = createScreenHandlers(deps());
    const shown = await callScreenHandler(handlers, 'pickup:settings', {});
    assert.ok(shown.ok);
    assert.deepEqual(shown.value, { show_first_name: false, order_types: 'pickup', language: 'es' });
    const refusals: [unknown, RegExp][] = [
      [{ language: 'fr' }, /^pickup:set-settings: language /],
      [{ order_types: 'delivery' }, /^pickup:set-settings: order_types /],
      [{ show_first_name: 'yes' }, /^pickup:set-settings: show_first_name /],
      [{ show_surname: true }, /^pickup:set-settings: /],
    ];
    for (const [request, message] of refusals) {
      const refused = await callScreenHandler(handlers, 'pickup:set-settings', request as never);
      assert.ok(!refused.ok, JSON.stringify(request));
      assert.equal(refused.error.code, 'invalid_request');
      assert.match(refused.error.message, message);
    }
    const set = await callScreenHandler(handlers, 'pickup:set-settings', { show_first_name: true });
    assert.ok(set.ok);
    assert.deepEqual(set.value, { show_first_name: true, order_types: 'pickup', language: 'es' });
    const again = await callScreenHandler(handlers, 'pickup:settings', {});
    assert.ok(again.ok);
    assert.deepEqual(again.value, set.value, 'kept; the refusals changed nothing');
    await callScreenHandler(handlers, 'pickup:set-settings', { show_first_name: false });
  });
});
