// The app's handlers around a started engine host: every channel of the contract (kitchen and
// desktop), with the host's answers about itself. One wiring for the two ways the app runs: the
// Electron window (index.ts, over IPC) and the browser mode (browser-host.ts, over HTTP to a browser
// on the same machine). Plain Node: no Electron import.
import { join } from 'node:path';
import { createScreenHandlers } from './channel-handlers.ts';
import type { ScreenHandlers } from '../engine/screen/dispatch.ts';
import type { HostPort, MailSettingsPort, OnlinePaymentsPort, PlatformKeyPort, SettingsPort } from './desktop-ports.ts';
import type { SmtpSettings } from '../engine/mail/smtp-sender.ts';
import type { PaymentCredentialsSource } from '../engine/payments/payment-credentials-source.ts';
import type { AppSettings } from '../shared/screen-contract/settings.ts';
import type { EngineHost } from './engine-host.ts';

/** Where the app keeps its settings and secrets: electron-store + safeStorage, or files (browser mode). */
export interface AppSettingsFiles {
  settings: SettingsPort;
  platformKey: PlatformKeyPort & { readSecret(): string | null };
  mail: MailSettingsPort & { readSecret(): SmtpSettings | null };
  onlinePayments: OnlinePaymentsPort;
}

/** Connected mode at boot: the platform and its key, when both are there. */
export function bootConnection(settings: AppSettings, settingsFiles: AppSettingsFiles): { platformUrl: string; apiKey: string } | null {
  const platformKey = settingsFiles.platformKey.readSecret();
  return settings.connection.mode === 'connected' && settings.connection.platform_url && platformKey
    ? { platformUrl: settings.connection.platform_url, apiKey: platformKey }
    : null;
}

/**
 * The restaurants' payment credentials the app keeps, as the engine reads them (on every order
 * and webhook, so Ajustes → Pagos en línea takes effect at once). Asked before the database's table.
 * The app keeps one account per restaurant, under its provider's name: asked for another provider, none.
 */
export function appPaymentCredentials(settingsFiles: AppSettingsFiles): PaymentCredentialsSource {
  return (restaurantId, provider) => {
    const kept = settingsFiles.onlinePayments.read(restaurantId);
    return kept?.provider === provider ? kept.credentials : null;
  };
}

export interface AppHandlerOptions {
  hosted: EngineHost;
  settingsFiles: AppSettingsFiles;
  bootSettings: AppSettings;
  dataDir: string;
  version: string;
  /** Relaunches the app; absent where it cannot restart itself (the browser mode). */
  restart?: () => void;
  log: (error: unknown) => void;
}

export function createAppHandlers(options: AppHandlerOptions): { handlers: ScreenHandlers; connectionStatus: HostPort['connectionStatus'] } {
  const { hosted, settingsFiles, dataDir, log } = options;
  const connectionStatus: HostPort['connectionStatus'] = async () => await hosted.connectionStatus();
  // Standalone, this engine mails the customers; connected, the platform does.
  const configureMail = (smtp: SmtpSettings | null) => {
    if (hosted.server.engine.role === 'replica') return;
    try {
      hosted.server.configureMail(smtp);
    } catch (error) {
      log(error);
    }
  };
  configureMail(settingsFiles.mail.readSecret());
  const restaurant = hosted.restaurants.find((r) => r.id === hosted.restaurantId)!;
  const handlers = createScreenHandlers({
    engine: hosted.server.engine,
    commands: hosted.server.commands,
    restaurantId: hosted.restaurantId,
    printers: hosted.server.providers.printers,
    settings: settingsFiles.settings,
    platformKey: settingsFiles.platformKey,
    mail: settingsFiles.mail,
    onlinePayments: settingsFiles.onlinePayments,
    bootSettings: options.bootSettings,
    log,
    host: {
      appInfo: () => ({
        version: options.version,
        restaurant,
        restaurants: hosted.restaurants,
        api_base_url: hosted.server.baseUrl,
        lan_urls: hosted.lanUrls(),
        data_dir: dataDir,
      }),
      ...(options.restart ? { restart: options.restart } : {}),
      connectionStatus,
      syncStatus: async () => await hosted.syncStatus(),
      backupFolder: () => join(dataDir, 'backups'),
      configureMail,
      pairingOrigin: () => hosted.pairingOrigin(),
    },
  });
  return { handlers, connectionStatus };
}
