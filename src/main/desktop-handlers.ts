// What only the desktop app's own window may do: app info and restart, settings, the platform key,
// SMTP, API keys, backup, sync status and the kitchen screens' pairing. Registered on ipcMain only
// (src/main/channel-handlers.ts); never served over HTTP, so a paired tablet cannot reach any of it.
import { DateTime } from 'luxon';
import { join } from 'node:path';
import QRCode from 'qrcode';
import type { DesktopChannel, DesktopContract } from '../shared/screen-contract/contract.ts';
import { NO_MAIL, type AppSettings, type SettingsPatch, type SettingsView } from '../shared/screen-contract/settings.ts';
import { invalidRequest, KitchenError } from '../engine/domain/errors.ts';
import { worldOfKey } from '../engine/domain/api-key-format.ts';
import type { Engine } from '../engine/engine.ts';
import type { PrinterPort } from '../engine/printers/printer-port.ts';
import { checkSmtpSettings } from '../engine/mail/smtp-sender.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../engine/services/keys/api-keys.ts';
import { backupDatabase } from '../engine/services/storage/backup-database.ts';
import { restaurantExists, restaurantTimeZone } from '../engine/services/keys/restaurant-context.ts';
import { demoRushKey, startDemoRush, type DemoRush } from '../engine/demo/demo-rush.ts';
import { RUSH_RESTAURANT } from '../shared/demo-rush.ts';
import type { DemoRushStatus } from '../shared/screen-contract/demo-rush.ts';
import { createPairingCode, listKitchenDevices, pairingLockout, revokeKitchenDevice } from '../engine/services/kitchen/kitchen-devices.ts';
import { readPickupScreenSettings, updatePickupScreenSettings } from '../engine/services/kitchen/pickup-screen-settings.ts';
import { printTestPage } from '../engine/services/printing/print-test-page.ts';
import { setBusyOverride } from '../engine/services/kitchen/busy-mode.ts';
import { readKitchenReport } from '../engine/services/reports/kitchen-report.ts';
import { readKitchenReportTable } from '../engine/services/reports/kitchen-report-export.ts';
import { readKitchenReplay } from '../engine/services/reports/kitchen-replay.ts';
import { readStationCooks, setStationCooks } from '../engine/services/kitchen/station-cooks.ts';
import { acceptLearnedPrepTime, readPrepTimeDrift } from '../engine/services/kitchen/accept-prep-time.ts';
import { kitchenActor } from '../engine/screen/kitchen-handlers.ts';
import { addPrinter, listPrinters, removePrinter } from '../engine/services/printing/printers.ts';
import { checkPaymentCredentials, knownPaymentProvider, offeredPaymentProviders } from '../engine/services/payments/payment-credentials.ts';
import { PAYMENT_PROVIDER_ENTRIES } from '../engine/payments/payment-providers.ts';
import type { PaymentProviderRegistry } from '../engine/payments/payment-provider-registry.ts';
import type { OnlinePaymentsInfo } from '../shared/screen-contract/online-payments.ts';
import type { HostPort, MailSettingsPort, OnlinePaymentsPort, PlatformKeyPort, SettingsPort } from './desktop-ports.ts';

export interface DesktopHandlerDeps {
  engine: Engine;
  /** The restaurant this app works for. */
  restaurantId: string;
  /** How "Imprimir prueba" reaches a printer: the engine server's (Providers.printers, assembled by the host). */
  printers: PrinterPort;
  settings: SettingsPort;
  platformKey: PlatformKeyPort;
  /** Absent where the host keeps no SMTP settings (then mail stays queued). */
  mail?: MailSettingsPort;
  /** Absent where the host keeps no payment credentials (then only `npm run payments` sets them). */
  onlinePayments?: OnlinePaymentsPort;
  /** The providers Ajustes → Pagos en línea offers and accepts: the engine's registry unless a test gives its own. */
  paymentProviders?: PaymentProviderRegistry;
  host: HostPort;
  /** The settings the app started with: changing those that need a restart is reported. */
  bootSettings?: AppSettings;
}

export type DesktopHandlers = {
  [C in DesktopChannel]: (request: DesktopContract[C]['request']) => DesktopContract[C]['response'] | Promise<DesktopContract[C]['response']>;
};

export function createDesktopHandlers(deps: DesktopHandlerDeps): DesktopHandlers {
  const { engine, restaurantId } = deps;
  // The demo's rush: one at a time, with a key of its own made once, going on where it stopped.
  const rushState = { rush: null as DemoRush | null, key: null as string | null, next: 0, posted: 0, failed: 0, perMinute: null as number | null };
  const rushStatus = (): DemoRushStatus => ({
    available: restaurantId === RUSH_RESTAURANT.id,
    running: rushState.rush?.running ?? false,
    posted: rushState.posted,
    failed: rushState.failed,
    per_minute: rushState.rush?.running ? rushState.perMinute : null,
  });

  const settingsView = (): SettingsView => {
    const settings = deps.settings.read();
    return {
      settings,
      platform_key: deps.platformKey.info(),
      mail: deps.mail?.info() ?? NO_MAIL,
      secure_storage: deps.platformKey.storage(),
      restart_required: deps.bootSettings ? needsRestart(deps.bootSettings, settings) : false,
      can_restart: deps.host.restart !== undefined,
    };
  };

  const onlinePayments = (): OnlinePaymentsPort => {
    if (!deps.onlinePayments) throw new KitchenError('online_payments_unavailable', 'this app keeps no payment credentials');
    return deps.onlinePayments;
  };
  const paymentProviders = deps.paymentProviders ?? PAYMENT_PROVIDER_ENTRIES;
  const onlinePaymentsView = (): OnlinePaymentsInfo => {
    const providers = offeredPaymentProviders(paymentProviders);
    const kept = deps.onlinePayments?.info(restaurantId) ?? null;
    if (kept) return { ...kept, providers, configured: true };
    return { provider: providers[0]?.name ?? '', providers, configured: false, api_base: null, access_token_last4: null, webhook_secret_last4: null };
  };

  return {
    'app:info': () => deps.host.appInfo(),
    'demo:rush': async ({ action, per_minute }) => {
      if (action === 'status') return rushStatus();
      rushState.rush?.stop();
      rushState.rush = null;
      if (action === 'stop') return rushStatus();
      if (restaurantId !== RUSH_RESTAURANT.id) throw invalidRequest('the sample orders are for the demo restaurant only');
      rushState.key ??= await demoRushKey(engine, restaurantId);
      rushState.perMinute = per_minute ?? 12;
      const baseUrl = (await deps.host.appInfo()).api_base_url;
      if (baseUrl === null) throw invalidRequest('the local API is not listening: the sample orders go through it');
      rushState.rush = startDemoRush(rushState.key, {
        baseUrl,
        perMinute: rushState.perMinute,
        from: rushState.next,
        onOrder: ({ index, error }) => {
          rushState.next = Math.max(rushState.next, index + 1);
          if (error === null) rushState.posted++;
          else rushState.failed++;
        },
      });
      return rushStatus();
    },
    'sync:status': async () => await deps.host.syncStatus(),
    'app:backup': async () => {
      const folder = deps.host.backupFolder();
      if (folder === null) throw new KitchenError('backup_unavailable', 'this app keeps no backup folder');
      const zone = await restaurantTimeZone(engine, restaurantId);
      const stamp = DateTime.fromMillis(engine.clock.now(), { zone }).toFormat('yyyyLLdd-HHmmss');
      const result = await backupDatabase(engine, join(folder, `comanda-${stamp}.db`));
      return { file: result.file, bytes: result.bytes };
    },
    'app:restart': () => {
      if (!deps.host.restart) return { restarting: false };
      deps.host.restart();
      return { restarting: true };
    },
    'keys:list': async () => await listApiKeys(engine, restaurantId),
    'locations:set-busy': async ({ location_id, mode }) => await setBusyOverride(engine, kitchenActor(restaurantId, 'live'), location_id, mode),
    'reports:kitchen': async (query) => await readKitchenReport(engine, kitchenActor(restaurantId, 'live'), query),
    'reports:replay': async (query) => await readKitchenReplay(engine, kitchenActor(restaurantId, 'live'), query),
    'reports:table': async ({ table, ...query }) => await readKitchenReportTable(engine, kitchenActor(restaurantId, 'live'), query, table),
    'prep-times:drift': async () => await readPrepTimeDrift(engine, kitchenActor(restaurantId, 'live')),
    'prep-times:accept': async ({ product_id, station_id }) => {
      await acceptLearnedPrepTime(engine, kitchenActor(restaurantId, 'live'), product_id, station_id);
      return await readPrepTimeDrift(engine, kitchenActor(restaurantId, 'live'));
    },
    'stations:cooks': async () => await readStationCooks(engine, kitchenActor(restaurantId, 'live')),
    'stations:set-cooks': async ({ station_id, cooks }) => {
      await setStationCooks(engine, kitchenActor(restaurantId, 'live'), station_id, cooks);
      return await readStationCooks(engine, kitchenActor(restaurantId, 'live'));
    },
    'keys:create': async ({ world, write, label }) => await createApiKey(engine, { restaurantId, world, write, label }),
    'keys:revoke': async ({ key_id }) => await revokeApiKey(engine, restaurantId, key_id),
    'settings:get': () => settingsView(),
    'settings:update': async (patch) => {
      const current = deps.settings.read();
      // Asked before the (synchronous) patch rules run: whether the restaurant it names exists.
      const named = patch.restaurant_id === undefined ? current.restaurant_id : (patch.restaurant_id?.toLowerCase() ?? null);
      const namedExists = named !== null && (await restaurantExists(engine, named));
      const next = applySettingsPatch(current, patch, {
        restaurantExists: (id) => id === named && namedExists,
        hasPlatformKey: () => deps.platformKey.info().present,
      });
      deps.settings.write(next);
      return settingsView();
    },
    'platform:set-key': ({ key, label }) => {
      const trimmed = key.trim();
      if (worldOfKey(trimmed) === null) {
        throw invalidRequest('key is not a platform API key (expected cm_live_… or cm_test_… and 32 letters and digits)');
      }
      deps.platformKey.save(trimmed, label?.trim() || null);
      return settingsView();
    },
    'mail:set-smtp': ({ url, from }) => {
      if (!deps.mail) throw new KitchenError('mail_unavailable', 'this app keeps no mail settings');
      const smtp = { url: url.trim(), ...(from?.trim() ? { from: from.trim() } : {}) };
      try {
        checkSmtpSettings(smtp);
      } catch (error) {
        throw invalidRequest(`SMTP: ${(error as Error).message}`);
      }
      deps.mail.save(smtp);
      deps.host.configureMail?.(smtp);
      return settingsView();
    },
    'mail:clear-smtp': () => {
      deps.mail?.clear();
      deps.host.configureMail?.(null);
      return settingsView();
    },
    'payments:get': () => onlinePaymentsView(),
    'payments:set': ({ provider, access_token, webhook_secret, api_base }) => {
      const credentials = checkPaymentCredentials(provider, { accessToken: access_token, webhookSecret: webhook_secret, apiBase: api_base }, paymentProviders);
      // Kept by the app (encrypted), read by the engine on its next order or webhook: nothing to restart.
      onlinePayments().save(restaurantId, { provider, credentials });
      return onlinePaymentsView();
    },
    'payments:test': async () => {
      const kept = deps.onlinePayments?.read(restaurantId) ?? null;
      if (!kept) return { result: 'not_configured', user_id: null, message: null };
      // The app keeps one account per restaurant, under its provider's name (app-handlers.ts).
      const check = await knownPaymentProvider(kept.provider, paymentProviders).checkConnection(kept.credentials);
      return check.ok
        ? { result: 'ok', user_id: check.user_id, message: null }
        : { result: check.reason, user_id: null, message: check.error };
    },
    'payments:remove': () => {
      onlinePayments().clear(restaurantId);
      return onlinePaymentsView();
    },
    'devices:list': async () => await listKitchenDevices(engine, restaurantId),
    'pickup:settings': async () => await readPickupScreenSettings(engine, restaurantId),
    'pickup:set-settings': async (patch) => await updatePickupScreenSettings(engine, restaurantId, patch),
    'printers:list': async () => await listPrinters(engine, restaurantId),
    'printers:add': async (input) => await addPrinter(engine, restaurantId, input),
    'printers:remove': async ({ printer_id }) => await removePrinter(engine, restaurantId, printer_id),
    'printers:test': async ({ printer_id }) => await printTestPage(engine, deps.printers, restaurantId, printer_id),
    'devices:pair': async ({ name, role }) => {
      const origin = deps.host.pairingOrigin?.() ?? null;
      if (origin === null) throw new KitchenError('pairing_unavailable', 'this app serves no kitchen screens');
      const offer = await createPairingCode(engine, { restaurantId, name, origin: origin.origin, ...(role ? { role } : {}) });
      return {
        code: offer.code,
        pairing_url: offer.pairing_url,
        expires_at: offer.expires_at,
        qr_svg: await QRCode.toString(offer.pairing_url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }),
        reachable_from_lan: origin.lan,
      };
    },
    'devices:revoke': async ({ device_id }) => await revokeKitchenDevice(engine, restaurantId, device_id),
    'devices:pairing-lockout': async () => await pairingLockout(engine, restaurantId),
    'platform:clear-key': () => {
      deps.platformKey.clear();
      const settings = deps.settings.read();
      if (settings.connection.mode === 'connected') {
        deps.settings.write({ ...settings, connection: { ...settings.connection, mode: 'standalone' } });
      }
      return settingsView();
    },
  };
}


const RESTART_KEYS = ['http', 'restaurant_id', 'connection'] as const;

function needsRestart(boot: AppSettings, now: AppSettings): boolean {
  return RESTART_KEYS.some((key) => JSON.stringify(boot[key]) !== JSON.stringify(now[key]));
}

function applySettingsPatch(
  current: AppSettings,
  patch: SettingsPatch,
  checks: { restaurantExists(id: string): boolean; hasPlatformKey(): boolean },
): AppSettings {
  const next: AppSettings = {
    ...current,
    ...(patch.language !== undefined ? { language: patch.language } : {}),
    ...(patch.theme !== undefined ? { theme: patch.theme } : {}),
    ...(patch.sound !== undefined ? { sound: patch.sound } : {}),
    thresholds: { ...current.thresholds, ...patch.thresholds },
    http: { ...current.http, ...patch.http },
    restaurant_id: patch.restaurant_id === undefined ? current.restaurant_id : patch.restaurant_id?.toLowerCase() ?? null,
    connection: { ...current.connection, ...patch.connection },
  };
  if (next.thresholds.warn_minutes >= next.thresholds.late_minutes) {
    throw invalidRequest('thresholds.warn_minutes must be less than thresholds.late_minutes');
  }
  if (next.restaurant_id !== null && !checks.restaurantExists(next.restaurant_id)) {
    throw invalidRequest(`restaurant_id: unknown restaurant ${next.restaurant_id}`);
  }
  const url = next.connection.platform_url?.trim() || null;
  if (url !== null && !isHttpUrl(url)) throw invalidRequest('connection.platform_url must be an http(s) URL');
  next.connection = { ...next.connection, platform_url: url };
  if (next.connection.mode === 'connected') {
    if (url === null) throw invalidRequest('connection.platform_url is required to connect to a platform');
    if (!checks.hasPlatformKey()) throw new KitchenError('platform_key_missing', 'save the platform key before connecting');
  }
  return next;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

