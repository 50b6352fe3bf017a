// A stand-in for the `electron` module, so the built main process (out/main/index.js) runs in plain
// Node: small fakes of app, session, BrowserWindow, ipcMain, dialog, safeStorage, shell and
// nativeTheme that do what main asks of them and tell the test about it over the process's IPC
// channel. The test drives it back: it invokes a channel as the window's page would, or quits.
// Loaded in place of `electron` by use-stand-in-electron.ts.
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What the stand-in tells the test. */
export type StandInReport =
  | { type: 'window'; options: Record<string, any> }
  | { type: 'load'; url: string }
  | { type: 'send'; channel: string; payload: unknown }
  | { type: 'handle'; channel: string }
  | { type: 'error-box'; title: string; content: string }
  | { type: 'reply'; id: number; result: unknown }
  | { type: 'exit'; code: number };

/** What the test asks, expecting a reply. */
export type StandInQuestion =
  | { cmd: 'invoke'; channel: string; request: unknown; senderUrl?: string }
  | { cmd: 'permission'; permission: string };

/** What the test sends: a question with its id, or quit. */
export type StandInCommand = (StandInQuestion & { id: number }) | { cmd: 'quit' };

function report(message: StandInReport): void {
  process.send?.(message);
}

class StandInApp extends EventEmitter {
  readonly paths = new Map<string, string>();
  readonly switches: string[][] = [];
  readonly commandLine = { appendSwitch: (...args: string[]) => void this.switches.push(args) };
  readonly isPackaged = false;
  private name = 'Electron';

  setName(name: string): void {
    this.name = name;
  }
  getName(): string {
    return this.name;
  }
  setPath(name: string, path: string): void {
    this.paths.set(name, path);
  }
  getPath(name: string): string {
    return this.paths.get(name) ?? join(tmpdir(), `stand-in-${name}`);
  }
  getVersion(): string {
    return '0.0.0-stand-in';
  }
  requestSingleInstanceLock(): boolean {
    return true;
  }
  whenReady(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }
  relaunch(): void {}
  /** As Electron does: `before-quit` may be prevented; otherwise the app exits. */
  quit(): void {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) this.exit(0);
  }
  exit(code = 0): void {
    report({ type: 'exit', code });
    // Let the report reach the test before the process goes.
    setTimeout(() => process.exit(code), 50);
  }
}

class StandInWebContents extends EventEmitter {
  url = '';
  windowOpenHandler: ((details: { url: string }) => unknown) | null = null;

  send(channel: string, payload: unknown): void {
    report({ type: 'send', channel, payload });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => unknown): void {
    this.windowOpenHandler = handler;
  }
  getURL(): string {
    return this.url;
  }
  isDestroyed(): boolean {
    return false;
  }
}

// Exported by name: the built main imports `{ BrowserWindow, app, … } from 'electron'` (a dead-export
// scan of the sources cannot see that reader).
export class BrowserWindow extends EventEmitter {
  static readonly all: BrowserWindow[] = [];
  readonly webContents = new StandInWebContents();
  private destroyed = false;

  constructor(readonly options: Record<string, any>) {
    super();
    BrowserWindow.all.push(this);
    report({ type: 'window', options });
  }
  async loadFile(file: string): Promise<void> {
    await this.loadURL(pathToFileURL(file).href);
  }
  async loadURL(url: string): Promise<void> {
    this.webContents.url = url;
    report({ type: 'load', url });
    setImmediate(() => this.emit('ready-to-show'));
  }
  show(): void {}
  focus(): void {}
  restore(): void {}
  isMinimized(): boolean {
    return false;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  close(): void {
    this.destroyed = true;
    this.emit('closed');
  }
}

type InvokeHandler = (event: unknown, request: unknown) => unknown;

class StandInIpcMain extends EventEmitter {
  readonly handlers = new Map<string, InvokeHandler>();

  handle(channel: string, handler: InvokeHandler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
    report({ type: 'handle', channel });
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
}

type PermissionCheck = (contents: unknown, permission: string) => boolean;

const defaultSession = {
  permissionCheck: null as PermissionCheck | null,
  headersListener: null as unknown,
  webRequest: {
    onHeadersReceived(listener: unknown) {
      defaultSession.headersListener = listener;
    },
  },
  setPermissionRequestHandler(_handler: unknown) {},
  setPermissionCheckHandler(handler: PermissionCheck) {
    defaultSession.permissionCheck = handler;
  },
};

export const app = new StandInApp();
export const ipcMain = new StandInIpcMain();
export const session = { defaultSession };
export const nativeTheme = { themeSource: 'system' };
export const shell = { openExternal: async (_url: string) => {} };
export const dialog = {
  showErrorBox(title: string, content: string) {
    report({ type: 'error-box', title, content });
  },
};
// Reversible, and plainly not the text: enough to see that main stores only what it encrypted.
export const safeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (text: string) => Buffer.from(`stand-in:${Buffer.from(text, 'utf8').toString('base64')}`),
  decryptString: (cipher: Buffer) => Buffer.from(cipher.toString('utf8').replace(/^stand-in:/, ''), 'base64').toString('utf8'),
};

process.on('message', async (command: StandInCommand) => {
  if (command.cmd === 'quit') {
    app.quit();
    return;
  }
  if (command.cmd === 'permission') {
    const allowed = defaultSession.permissionCheck?.(null, command.permission) ?? null;
    report({ type: 'reply', id: command.id, result: allowed });
    return;
  }
  const window = BrowserWindow.all[0];
  const handler = ipcMain.handlers.get(command.channel);
  if (!window || !handler) {
    report({ type: 'reply', id: command.id, result: { ok: false, error: { code: 'no_handler', message: command.channel } } });
    return;
  }
  // What Electron hands a handler: the sending page's contents and its (top) frame.
  const event = { sender: window.webContents, senderFrame: { url: command.senderUrl ?? window.webContents.url, parent: null } };
  try {
    report({ type: 'reply', id: command.id, result: await handler(event, command.request) });
  } catch (error) {
    report({ type: 'reply', id: command.id, result: { ok: false, error: { code: 'thrown', message: String(error) } } });
  }
});

export default { app, BrowserWindow, dialog, ipcMain, nativeTheme, safeStorage, session, shell };
