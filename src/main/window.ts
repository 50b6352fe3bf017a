// The kitchen window: sandboxed, isolated, no Node in the page; the preload is the only bridge.
import { BrowserWindow, nativeTheme } from 'electron';
import { join } from 'node:path';
import { guardNavigation } from './security.ts';

export interface KitchenWindowOptions {
  preloadPath: string;
  /** The dev server's URL (electron-vite dev) or the built index.html's file URL. */
  rendererUrl: string;
  devServer: boolean;
  rendererDir: string;
  iconPath?: string;
}

export function createKitchenWindow(options: KitchenWindowOptions): BrowserWindow {
  nativeTheme.themeSource = 'dark';
  const window = new BrowserWindow({
    width: 1366,
    height: 900,
    minWidth: 1024,
    minHeight: 700,
    show: false,
    backgroundColor: '#0b0d10',
    title: 'Comanda',
    autoHideMenuBar: true,
    ...(options.iconPath ? { icon: options.iconPath } : {}),
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
      // The kitchen keeps its timers and sound going when the window is behind another one.
      backgroundThrottling: false,
    },
  });
  guardNavigation(window.webContents, options.rendererUrl);
  window.once('ready-to-show', () => window.show());
  if (options.devServer) void window.loadURL(options.rendererUrl);
  else void window.loadFile(join(options.rendererDir, 'index.html'));
  return window;
}
