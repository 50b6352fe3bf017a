// Comanda's main process: the engine (in this process; docs/desktop.md says why and shows the
// measurements), the local HTTP API, the IPC handlers and the live push to the kitchen window.
import { app, dialog, session, type BrowserWindow } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pino from 'pino';
import { openRotatingLog } from '../host/rotating-log-file.ts';
import { defaultDataDir } from '../engine/data-dir.ts';
import { startLiveFeed, type LiveFeed } from '../engine/screen/live-feed.ts';
import { screenStations } from '../engine/services/kitchen/screen-stations.ts';
import { LIVE_CHANNEL } from '../shared/screen-contract/contract.ts';
import type { LivePush } from '../shared/screen-contract/kitchen.ts';
import { appPaymentCredentials, bootConnection, createAppHandlers } from './app-handlers.ts';
import { startEngineHost, type EngineHost } from './engine-host.ts';
import { registerIpcHandlers, registerLiveStations } from './ipc-main.ts';
import { hardenSession } from './security.ts';
import { createSettingsFiles } from './settings-file.ts';
import { createKitchenWindow } from './window.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const devServerUrl = process.env.ELECTRON_RENDERER_URL;
const rendererDir = join(here, '../renderer');
const rendererUrl = devServerUrl ?? pathToFileURL(join(rendererDir, 'index.html')).href;
const iconPath = join(here, '../../resources/icons/icon.png');

// One folder for the database, the settings and the logs, shared with `npm run serve`.
const dataDir = defaultDataDir();
app.setName('Comanda');
app.setPath('userData', dataDir);
// A new order must ring even if nobody has touched the screen since it opened.
app.commandLine.appendSwitch('autoplay-policy', 'no-user-gesture-required');

const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }, openRotatingLog(join(dataDir, 'comanda.log')));
const logError = (error: unknown) => logger.error({ err: error }, 'unexpected error');

let engineHost: EngineHost | null = null;
let liveFeed: LiveFeed | null = null;
let kitchenWindow: BrowserWindow | null = null;
let unregisterIpc: (() => void) | null = null;
let unregisterStations: (() => void) | null = null;

async function boot(): Promise<void> {
  hardenSession(session.defaultSession, devServerUrl);
  const settingsFiles = createSettingsFiles(dataDir);
  const bootSettings = settingsFiles.settings.read();
  // The same page the window shows is served to paired tablets at /kitchen/ (built once: out/renderer).
  engineHost = await startEngineHost({
    dataDir,
    settings: bootSettings,
    connection: bootConnection(bootSettings, settingsFiles),
    paymentCredentials: appPaymentCredentials(settingsFiles),
    logger: logger.child({ part: 'http' }),
    kitchen: { rendererDir: devServerUrl === undefined ? rendererDir : null },
  });
  const hosted = engineHost;
  if (hosted.portFallback) logger.warn(hosted.portFallback, 'configured HTTP port was busy; using another one');

  const { handlers, connectionStatus } = createAppHandlers({
    hosted,
    settingsFiles,
    bootSettings,
    dataDir,
    version: app.getVersion(),
    restart: () => {
      app.relaunch();
      app.quit();
    },
    log: logError,
  });
  unregisterIpc = registerIpcHandlers(handlers, () => ({ contents: kitchenWindow?.webContents ?? null, rendererUrl }), logError);

  kitchenWindow = createKitchenWindow({
    preloadPath: join(here, '../preload/index.cjs'),
    rendererUrl,
    devServer: devServerUrl !== undefined,
    rendererDir,
    ...(existsSync(iconPath) ? { iconPath } : {}),
  });
  kitchenWindow.on('closed', () => {
    kitchenWindow = null;
  });
  const send = (push: LivePush) => {
    if (kitchenWindow && !kitchenWindow.isDestroyed()) kitchenWindow.webContents.send(LIVE_CHANNEL, push);
  };
  liveFeed = await startLiveFeed({ engine: hosted.server.engine, restaurantId: hosted.restaurantId, send, connectionStatus });
  // The board's station (a grill screen, or every station as expo): fallback printing asks about it.
  unregisterStations = registerLiveStations(
    async (said) => liveFeed?.showStations(await screenStations(hosted.server.engine, hosted.restaurantId, said)),
    () => ({ contents: kitchenWindow?.webContents ?? null, rendererUrl }),
    logError,
  );
}

async function shutdown(): Promise<void> {
  liveFeed?.stop();
  unregisterIpc?.();
  unregisterStations?.();
  const hosted = engineHost;
  engineHost = null;
  await hosted?.close();
  logger.flush();
}

if (!app.requestSingleInstanceLock()) {
  // Two apps on one database and one port would fight: the second one hands over to the first.
  app.quit();
} else {
  app.on('second-instance', () => {
    if (kitchenWindow) {
      if (kitchenWindow.isMinimized()) kitchenWindow.restore();
      kitchenWindow.focus();
    }
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
  app
    .whenReady()
    .then(boot)
    .catch((error: unknown) => {
      // The engine could not start (a database newer than this app, a broken file): say why.
      logError(error);
      dialog.showErrorBox('Comanda', `Comanda could not start: ${(error as Error).message}\n\nLog: ${join(dataDir, 'comanda.log')}`);
      app.exit(1);
    });
  app.on('window-all-closed', () => app.quit());
  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    void shutdown().finally(() => app.exit(0));
  });
}
