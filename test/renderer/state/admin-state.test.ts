import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createApi, ScreenCallError } from '../../../src/renderer/src/api.ts';
import { createDevicesState } from '../../../src/renderer/src/state/devices-state.ts';
import { createKeysState } from '../../../src/renderer/src/state/keys-state.ts';
import { createLocationsState } from '../../../src/renderer/src/state/locations-state.ts';
import { createSettingsState } from '../../../src/renderer/src/state/settings-state.ts';
import { createStockState } from '../../../src/renderer/src/state/stock-state.ts';
import { createBridge } from '../../../src/preload/bridge.ts';
import type { ScreenChannel } from '../../../src/shared/screen-contract/contract.ts';
import type { PickupScreenSettings } from '../../../src/shared/screen-contract/pickup.ts';
import type { LocationStatusEntry, SetStockResultView, StockView } from '../../../src/shared/screen-contract/kitchen.ts';
import { DEFAULT_SETTINGS, normalizeSettings, type SettingsView } from '../../../src/shared/screen-contract/settings.ts';

describe('bridge and api', () => {
  test('the bridge has one method per channel; the api unwraps answers and throws refusals with their code', async () => {
    const seen: [ScreenChannel, unknown][] = [];
    const bridge = createBridge({
      invoke: async (channel, request) => {
        seen.push([channel, request]);
        return channel === 'keys:list' ? { ok: true, value: [] } : { ok: false, error: { code: 'forbidden', message: 'no' } };
      },
      subscribe: () => () => {},
    });
    const api = createApi(bridge);
    assert.deepEqual(await api.listKeys({}), []);
    await assert.rejects(api.revokeKey({ key_id: 'k' }), (error: unknown) => error instanceof ScreenCallError && error.code === 'forbidden' && error.message === 'no');
    assert.deepEqual(seen, [['keys:list', {}], ['keys:revoke', { key_id: 'k' }]]);
    assert.ok(Object.isFrozen(bridge));
    assert.throws(() => bridge.onLive('nope' as never), TypeError);
  });
});

describe('stock state', () => {
  const entries = [
    { product_id: 'a', name: 'Empanada de pino', quantity: 4 },
    { product_id: 'b', name: 'Empanada de queso', quantity: 30 },
  ];
  const make = (simulated = false) => {
    const sets: unknown[] = [];
    const state = createStockState({
      api: {
        readStock: async ({ location_id, world }): Promise<StockView> => ({ location_id, world, data: entries.map((e) => ({ ...e })) }),
        setStock: async (request): Promise<SetStockResultView> => {
          sets.push(request);
          return { data: request.items, simulated };
        },
      },
    });
    return { state, sets };
  };

  test('+/−, typed quantities and sold out become drafts, saved as absolute quantities', async () => {
    const { state, sets } = make();
    await state.getState().open('loc', 'live');
    state.getState().step('a', 1);
    state.getState().step('a', 1);
    state.getState().setDraft('b', 12.7);
    state.getState().soldOut('b');
    state.getState().step('a', -10);
    assert.deepEqual(state.getState().drafts, { a: 0, b: 0 });
    state.getState().setDraft('a', 4); // back to the saved value: no change left
    assert.deepEqual(state.getState().drafts, { b: 0 });
    assert.equal(await state.getState().save(), true);
    assert.deepEqual(sets, [{ location_id: 'loc', world: 'live', items: [{ product_id: 'b', quantity: 0 }] }]);
    assert.equal(state.getState().entries.find((e) => e.product_id === 'b')?.quantity, 0);
    assert.deepEqual(state.getState().lastSave && { ...state.getState().lastSave, at: 0 }, { simulated: false, at: 0, count: 1 });
  });

  test('a sandbox save is reported as simulated and the list keeps the real quantities', async () => {
    const { state } = make(true);
    await state.getState().open('loc', 'test');
    state.getState().setDraft('b', 5);
    await state.getState().save();
    assert.equal(state.getState().lastSave?.simulated, true);
    assert.equal(state.getState().entries.find((e) => e.product_id === 'b')?.quantity, 30);
  });

  test('a stock change of this location pushed live reloads the list', async () => {
    let reads = 0;
    const state = createStockState({
      api: {
        readStock: async ({ location_id, world }) => (reads++, { location_id, world, data: [] }),
        setStock: async () => ({ data: [], simulated: false }),
      },
    });
    await state.getState().open('loc', 'live');
    state.getState().receive({ kind: 'events', now: 0, events: [{ seq: 1, type: 'stock.updated', at: 0, world: 'both', data: { location_id: 'other', items: [] } }] });
    state.getState().receive({ kind: 'events', now: 0, events: [{ seq: 2, type: 'stock.updated', at: 0, world: 'both', data: { location_id: 'loc', items: [] } }] });
    await new Promise((r) => setImmediate(r));
    assert.equal(reads, 2);
  });
});

describe('locations state', () => {
  const status = (open: boolean, simulated?: boolean): LocationStatusEntry => ({
    location_id: 'l1',
    name: 'Centro',
    address: 'x',
    is_active: true,
    open_now: open,
    reason: open ? 'caja_abierta' : 'caja_cerrada',
    next_opening_at: null,
    ...(simulated ? { simulated } : {}),
  });

  test('open and close now replace the location\'s status; simulated is remembered; live updates apply', async () => {
    const state = createLocationsState({
      api: {
        listLocations: async ({ world }) => ({ register_mode: 'manual', checked_at: 'x', world, data: [status(true)] }),
        setLocationOpen: async ({ open, world }) => status(open, world === 'test' ? true : undefined),
      },
    });
    await state.getState().load();
    assert.equal(await state.getState().setOpen('l1', false), true);
    assert.equal(state.getState().view?.data[0]?.open_now, false);
    state.getState().receive({ kind: 'events', now: 0, events: [{ seq: 1, type: 'location.updated', at: 0, data: status(true) }] });
    assert.equal(state.getState().view?.data[0]?.open_now, true);
    await state.getState().load('test');
    await state.getState().setOpen('l1', false);
    assert.equal(state.getState().simulated.l1, true);
  });

  test('a refusal is shown and the location left as it was', async () => {
    const state = createLocationsState({
      api: {
        listLocations: async ({ world }) => ({ register_mode: 'manual', checked_at: 'x', world, data: [status(true)] }),
        setLocationOpen: async () => {
          throw new ScreenCallError({ code: 'not_found', message: 'location l1 not found' });
        },
      },
    });
    await state.getState().load();
    assert.equal(await state.getState().setOpen('l1', false), false);
    assert.equal(state.getState().error, 'location l1 not found');
    assert.equal(state.getState().view?.data[0]?.open_now, true);
  });
});

describe('keys state', () => {
  test('a created key is held once for display, then forgotten; revoke replaces the record', async () => {
    const record = { id: 'k1', label: 'tienda', world: 'live' as const, write: true, last4: 'WXYZ', created_at: 'c', last_used_at: null, revoked_at: null };
    const state = createKeysState({
      api: {
        listKeys: async () => [],
        createKey: async ({ label }) => ({ key: 'cm_live_secretWXYZ', record: { ...record, label } }),
        revokeKey: async () => ({ ...record, revoked_at: 'now' }),
      },
    });
    await state.getState().load();
    await state.getState().create({ world: 'live', write: true, label: '  tienda  ' });
    assert.equal(state.getState().created?.key, 'cm_live_secretWXYZ');
    assert.equal(state.getState().keys[0]?.label, 'tienda');
    state.getState().dismissCreated();
    assert.equal(state.getState().created, null);
    assert.ok(!JSON.stringify(state.getState()).includes('secret'));
    await state.getState().revoke('k1');
    assert.equal(state.getState().keys[0]?.revoked_at, 'now');
  });
});

describe('settings state', () => {
  const view = (over: Partial<SettingsView> = {}): SettingsView => ({
    settings: DEFAULT_SETTINGS,
    platform_key: { present: false, world: null, label: null, last4: null },
    mail: { configured: false, server: null, from: null },
    secure_storage: { available: true, backend: 'gnome_libsecret' },
    restart_required: false,
    ...over,
  });

  test('loads, updates, and keeps the refusal code (no protected storage) for the screen to explain', async () => {
    const state = createSettingsState({
      api: {
        getSettings: async () => view(),
        appInfo: async () => ({ version: '1', restaurant: { id: 'r', name: 'R' }, restaurants: [], api_base_url: null, lan_urls: [], data_dir: null }),
        updateSettings: async (patch) => view({ settings: { ...DEFAULT_SETTINGS, ...patch } as never }),
        setPlatformKey: async () => {
          throw new ScreenCallError({ code: 'secure_storage_unavailable', message: 'no keyring' });
        },
        clearPlatformKey: async () => view(),
        setSmtp: async () => view({ mail: { configured: true, server: 'mail.example:587', from: 'cocina@example.cl' } }),
        clearSmtp: async () => view(),
        restartApp: async () => ({ restarting: true }),
      },
    });
    await state.getState().load();
    assert.equal(state.getState().settings.language, 'es');
    const pending = state.getState().update({ language: 'en' });
    assert.equal(state.getState().settings.language, 'en', 'shown before the answer');
    assert.equal(await pending, true);
    assert.equal(state.getState().settings.language, 'en');
    assert.equal(await state.getState().savePlatformKey('pl_live_x', null), false);
    assert.deepEqual(state.getState().error, { code: 'secure_storage_unavailable', message: 'no keyring' });
  });

  test('settings read from disk fall back to defaults field by field', () => {
    assert.deepEqual(normalizeSettings(undefined), DEFAULT_SETTINGS);
    const read = normalizeSettings({ language: 'fr', sound: false, thresholds: { warn_minutes: 30, late_minutes: 10 }, http: { port: 80, lan: true } });
    assert.equal(read.language, 'es');
    assert.equal(read.sound, false);
    assert.deepEqual(read.thresholds, DEFAULT_SETTINGS.thresholds);
    assert.deepEqual(read.http, { port: 4750, lan: true });
  });
});

describe('devices state: the pickup screen settings', () => {
  const saved: PickupScreenSettings = { show_first_name: false, order_types: 'pickup', language: 'es' };
  const make = (answer: (patch: Partial<PickupScreenSettings>) => Promise<PickupScreenSettings>) =>
    createDevicesState({
      api: {
        listDevices: async () => [],
        pairingLockout: async () => null,
        pairDevice: async () => {
          throw new Error('not in this test');
        },
        revokeDevice: async () => {
          throw new Error('not in this test');
        },
        pickupSettings: async () => ({ ...saved }),
        setPickupSettings: answer,
      },
    });

  test('a choice shows at once, before the engine answers, and stays once saved', async () => {
    let answer!: (settings: PickupScreenSettings) => void;
    const state = make(() => new Promise((resolve) => (answer = resolve)));
    await state.getState().load();
    const saving = state.getState().savePickup({ show_first_name: true });
    assert.equal(state.getState().pickup?.show_first_name, true, 'the checkbox does not spring back while the engine works');
    answer({ ...saved, show_first_name: true });
    assert.equal(await saving, true);
    assert.deepEqual(state.getState().pickup, { ...saved, show_first_name: true });
    assert.notEqual(state.getState().pickupSavedAt, null);
  });

  test('a refused choice is put back, and the refusal shown', async () => {
    const state = make(async () => {
      throw new ScreenCallError({ code: 'invalid_request', message: 'language: one of es, en' });
    });
    await state.getState().load();
    assert.equal(await state.getState().savePickup({ order_types: 'pickup_and_delivery' }), false);
    assert.deepEqual(state.getState().pickup, saved);
    assert.match(state.getState().error ?? '', /language/);
  });
});
