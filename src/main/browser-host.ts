// The app without Electron (`npm start` where Electron's binary cannot be had or cannot open a
// window): the same engine host on the same database in the same data folder (the demo restaurants
// on a first start), the same handlers, and the whole app (the board and every manager screen)
// served to a browser on this machine at /kitchen/. The manager's channels need an admin session,
// which a one-time link gives (src/engine/http/kitchen/admin-session.ts); paired tablets keep
// exactly the kitchen channels. Plain Node: no Electron import.
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../engine/clock.ts';
import { createAdminSessions } from '../engine/http/kitchen/admin-session.ts';
import type { ScreenHandlers } from '../engine/screen/dispatch.ts';
import { appPaymentCredentials, bootConnection, createAppHandlers } from './app-handlers.ts';
import { startEngineHost, type EngineHost } from './engine-host.ts';
import { createBrowserSettingsFiles } from './browser-settings-files.ts';

export interface BrowserHostOptions {
  dataDir: string;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  version: string;
  logger?: FastifyBaseLogger | boolean;
  clock?: Clock;
  log?: (error: unknown) => void;
  /** Told when a one-time link was spent. */
  onLinkUsed?: () => void;
}

export interface BrowserHost {
  hosted: EngineHost;
  /** http://127.0.0.1:PORT: the app's own origin (loopback, whatever the LAN setting). */
  origin: string;
  /** Where the app lives: origin + /kitchen/ */
  appUrl: string;
  /** A new one-time link (single use, 10 minutes) that opens the whole app in a browser on this machine. */
  newLink(): string;
  /** Where the platform key and the SMTP URL are kept unencrypted (0600). */
  secretsFile: string;
  close(): Promise<void>;
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const settingsFiles = createBrowserSettingsFiles(options.dataDir);
  const bootSettings = settingsFiles.settings.read();
  const sessions = createAdminSessions(options.clock ? () => options.clock!.now() : Date.now);
  let current: { handlers: ScreenHandlers; restaurantId: string } | null = null;
  const hosted = await startEngineHost({
    dataDir: options.dataDir,
    settings: bootSettings,
    connection: bootConnection(bootSettings, settingsFiles),
    paymentCredentials: appPaymentCredentials(settingsFiles),
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    kitchen: {
      rendererDir: options.rendererDir,
      admin: { sessions, current: () => current, ...(options.onLinkUsed ? { onRedeemed: options.onLinkUsed } : {}) },
    },
  });
  const { handlers } = createAppHandlers({
    hosted,
    settingsFiles,
    bootSettings,
    dataDir: options.dataDir,
    version: options.version,
    log: options.log ?? (() => {}),
  });
  current = { handlers, restaurantId: hosted.restaurantId };
  const origin = `http://127.0.0.1:${hosted.server.port}`;
  return {
    hosted,
    origin,
    appUrl: `${origin}/kitchen/`,
    newLink: () => sessions.issueLink(origin),
    secretsFile: settingsFiles.secretsFile,
    close: () => hosted.close(),
  };
}
