// `npm start`: the desktop app (electron-vite dev) where Electron can run; where its binary cannot
// be had or it cannot open a window, the same app in this machine's browser instead. Then it says
// so in one line, starts the engine on the app's database in the app's data folder (the demo
// restaurants on a first start, as the app does), serves the whole app at /kitchen/ on the local
// HTTP port, prints a one-time link (an admin session for the manager's screens: this machine
// only, single use, 10 minutes), opens the default browser where there is one, and runs until
// Ctrl-C (SIGINT/SIGTERM close the engine cleanly).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { openRotatingLog } from '../src/host/rotating-log-file.ts';
import { defaultDataDir } from '../src/engine/data-dir.ts';
import { ensureKitchenBuilt } from '../src/cli/kitchen-build.ts';
import { stopWhenNpmEnds } from '../src/cli/stop-with-npm.ts';
import { startBrowserHost, type BrowserHost } from '../src/main/browser-host.ts';
import { checkElectron } from './ensure-electron.ts';
import { RENDERER_INPUTS } from '../renderer.vite.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** Where the page is built and served from: out/renderer, as `npm run build` leaves it (COMANDA_RENDERER_DIR: elsewhere). */
const RENDERER_DIR = process.env.COMANDA_RENDERER_DIR ? resolve(process.env.COMANDA_RENDERER_DIR) : join(ROOT, 'out/renderer');

/** Why Electron cannot open a window here, or null when it may. */
export function windowlessReason(platform: string = process.platform, env: NodeJS.ProcessEnv = process.env): string | null {
  if (platform === 'win32' || platform === 'darwin') return null;
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return null;
  return 'no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset)';
}

/** How to open a URL in the default browser here, or null where there is none to open. */
export function browserOpener(url: string, platform: string = process.platform, env: NodeJS.ProcessEnv = process.env): { command: string; args: string[] } | null {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '', url] };
  // Without a display xdg-open would try a text browser, which could spend the one-time link.
  if (windowlessReason(platform, env) !== null) return null;
  return { command: 'xdg-open', args: [url] };
}

function newestInput(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestInput(join(path, name)));
  return newest;
}

/** The built page is missing or older than its sources (RENDERER_INPUTS; a checkout moved on since `npm run build`). */
function rendererStale(): boolean {
  const index = join(RENDERER_DIR, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return RENDERER_INPUTS.some((input) => newestInput(join(ROOT, input)) > built);
}


/** electron-vite dev, as before: its exit code, and whether it was asked to stop (Ctrl-C, SIGTERM). */
function runElectron(): Promise<{ code: number | null; stopped: boolean }> {
  const bin = join(ROOT, 'node_modules/.bin', process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite');
  const child = spawn(bin, ['dev'], { stdio: 'inherit', shell: process.platform === 'win32' });
  let stopped = false;
  const forward = (signal: NodeJS.Signals) => {
    stopped = true;
    child.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  // npm's shell does not pass a SIGTERM on (src/cli/stop-with-npm.ts).
  const unwatch = stopWhenNpmEnds('start', () => forward('SIGTERM'));
  return new Promise((done) =>
    child.on('exit', (code) => {
      unwatch();
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      done({ code, stopped });
    }),
  );
}

function openBrowser(url: string): void {
  const opener = browserOpener(url);
  if (!opener) {
    console.log('  No browser to open on this machine (no display): open the link in a browser here (or through an SSH tunnel to this port).');
    return;
  }
  const child = spawn(opener.command, opener.args, { stdio: 'ignore', detached: true });
  child.on('error', (error) => console.log(`  Could not open a browser (${opener.command}: ${error.message}): open the link yourself.`));
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) console.log(`  ${opener.command} could not open a browser (exit ${code}): open the link yourself.`);
  });
  child.unref();
}

async function runInBrowser(why: string): Promise<void> {
  console.log(`Comanda: Electron cannot start here (${why}); running the whole app in this machine's browser instead.`);
  const dataDir = defaultDataDir();
  mkdirSync(dataDir, { recursive: true });
  const firstStart = !existsSync(join(dataDir, 'comanda.db'));
  // Logs go where the desktop app writes them; the terminal keeps the few lines a person reads.
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }, openRotatingLog(join(dataDir, 'comanda.log')));
  const say = { info: (m: string) => console.log(`Comanda: ${m}`), warn: (m: string) => console.error(`Comanda: ${m}`) };
  if (rendererStale()) {
    const rebuild = existsSync(join(RENDERER_DIR, 'index.html'));
    if (!(await ensureKitchenBuilt(RENDERER_DIR, say, { rebuild }))) process.exit(1);
  }
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const interactive = process.stdin.isTTY === true;
  let host: BrowserHost;
  try {
    host = await startBrowserHost({
      dataDir,
      rendererDir: RENDERER_DIR,
      version,
      logger: logger.child({ part: 'http' }),
      log: (error) => logger.error({ err: error }, 'unexpected error'),
      onLinkUsed: () =>
        console.log(`Comanda: the link was used; a browser on this machine holds the session.${interactive ? ' Press Enter here for a link for another browser.' : ''}`),
    });
  } catch (error) {
    console.error(`Comanda could not start: ${(error as Error).message}\n  Log: ${join(dataDir, 'comanda.log')}`);
    logger.flush();
    process.exit(1);
  }
  const hosted = host.hosted;
  const link = host.newLink();
  const database = hosted.databasePath;
  console.log(
    [
      `Comanda is running${firstStart ? ' on the demo restaurants' : ''} (${database}).`,
      '  Open the app in a browser on this machine (the link works once, for 10 minutes; it signs this browser in as the manager):',
      `  ${link}`,
      `  Local API for store fronts and POS: ${hosted.server.baseUrl}   Tablets: Pantallas de cocina → Añadir una pantalla.`,
      `  The platform key and SMTP URL, if you set them, are kept unencrypted in ${host.secretsFile} (0600).`,
      `  Stop: Ctrl-C.${interactive ? ' A new link: Enter.' : ''}`,
    ].join('\n'),
  );
  if (hosted.portFallback) console.log(`  (port ${hosted.portFallback.wanted} was busy: serving on ${hosted.portFallback.got})`);
  openBrowser(link);
  if (interactive) createInterface({ input: process.stdin }).on('line', () => console.log(`  ${host.newLink()}`));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    host.close().then(
      () => {
        console.log('Comanda: stopped.');
        logger.flush();
        process.exit(0);
      },
      (error: unknown) => {
        console.error(`Comanda: shutdown failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGHUP', () => stop('SIGHUP'));
  stopWhenNpmEnds('start', stop);
}

async function main(): Promise<void> {
  const electron = checkElectron(process.argv.slice(2));
  if (!electron.ok) return runInBrowser(electron.reason);
  const windowless = windowlessReason();
  if (windowless) return runInBrowser(windowless);
  const { code, stopped } = await runElectron();
  // Electron that could not open its window exits with an error: the browser takes over.
  if (!stopped && code !== 0 && code !== null) return runInBrowser(`Electron exited with code ${code}`);
  process.exit(code ?? 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`Comanda could not start: ${(error as Error).message}`);
    process.exit(1);
  });
}
