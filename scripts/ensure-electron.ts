// Runs before `npm run package:*` (and inside `npm start`, scripts/start.ts): makes sure Electron's binary is in place, with
// Electron's own installer (`install-electron`, shipped in the `electron` package), once.
//
// Why: Electron 45 has no install step; it fetches its binary the first time `require('electron')`
// runs. electron-vite reads `node_modules/electron/path.txt` before that ever happens and throws
// "Electron uninstall" after a long start, so without this step the README's first command fails on
// every fresh machine. When the download cannot happen, packaging stops at once and says what to do
// instead; `npm start` runs the app in this machine's browser (scripts/start.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ElectronPackage {
  dir: string;
  version: string;
}

const DEFAULT_MIRROR = 'https://github.com/electron/electron/releases/download/';

/** The platform's executable inside `dist/`, as Electron's installer writes it into path.txt. */
function platformExecutable(platform: string = process.platform): string {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

/** The same test Electron's installer makes: the version, path.txt and the executable all agree. */
function electronInstalled(pkg: ElectronPackage): boolean {
  if (process.env.ELECTRON_EXEC_PATH) return existsSync(process.env.ELECTRON_EXEC_PATH);
  try {
    const distVersion = readFileSync(join(pkg.dir, 'dist', 'version'), 'utf8').trim().replace(/^v/, '');
    const pathTxt = readFileSync(join(pkg.dir, 'path.txt'), 'utf8');
    if (distVersion !== pkg.version || pathTxt !== platformExecutable()) return false;
    return existsSync(join(pkg.dir, 'dist', pathTxt));
  } catch {
    return false;
  }
}

function findElectron(args: string[]): ElectronPackage {
  const flag = args.indexOf('--electron-dir');
  const dir =
    flag >= 0 && args[flag + 1]
      ? args[flag + 1]!
      : dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  return { dir, version };
}

function failureMessage(pkg: ElectronPackage, reason: string): string {
  const mirror = process.env.ELECTRON_MIRROR || process.env.npm_config_electron_mirror || DEFAULT_MIRROR;
  return [
    `Comanda: could not download Electron ${pkg.version} (${process.platform}-${process.arch}) from ${mirror}: ${reason}`,
    '  The desktop app needs Electron\'s binary once; nothing else was changed.',
    '  To retry: run the same command again when this machine reaches the internet',
    '  (or set ELECTRON_MIRROR to a mirror you can reach, e.g. ELECTRON_MIRROR=https://mirror.example/electron/).',
    '  Without the desktop app, `npm start` runs the whole app in this machine\'s browser, and the kitchen',
    '  screen runs headless in any browser: npm run serve -- --demo, then open the printed kitchen_pairing_url on a tablet.',
  ].join('\n');
}

/** The installer's own words, made plainer where they are only "fetch failed". */
function installerReason(text: string): string {
  const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
  const errorLine = lines.find((line) => /error|fail|refused|ENOTFOUND|EAI_AGAIN|ECONN|HTTPError/i.test(line));
  const reason = errorLine ?? lines.at(-1) ?? 'the installer exited without saying why';
  return /fetch failed/i.test(reason) ? `no connection to the download server (${reason})` : reason;
}

export type ElectronCheck = { ok: true } | { ok: false; version: string; reason: string; message: string };

/**
 * Electron's binary in place (fetched by its own installer when missing), or why it cannot be had:
 * `reason` in a few words, `message` with how to retry. Says nothing when there is nothing to do.
 */
export function checkElectron(args: string[]): ElectronCheck {
  const pkg = findElectron(args);
  if (electronInstalled(pkg)) return { ok: true };
  console.error(`Comanda: fetching Electron ${pkg.version} with its installer (once)…`);
  const result = spawnSync(process.execPath, [join(pkg.dir, 'install.js')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    // The installer has no timeout of its own; a silent network must not stall `npm start` forever.
    timeout: 10 * 60_000,
  });
  if (result.status === 0 && electronInstalled(pkg)) return { ok: true };
  const reason = result.error
    ? result.error.message
    : installerReason(`${result.stderr ?? ''}\n${result.stdout ?? ''}`);
  const mirror = process.env.ELECTRON_MIRROR || process.env.npm_config_electron_mirror || DEFAULT_MIRROR;
  return { ok: false, version: pkg.version, reason: `could not download Electron ${pkg.version} from ${mirror}: ${reason}`, message: failureMessage(pkg, reason) };
}

/** `npm run package:*`'s first step: 0 when Electron is there, 1 (with what failed and what to do) when not. */
function ensureElectron(args: string[]): number {
  const check = checkElectron(args);
  if (check.ok) return 0;
  console.error(check.message);
  return 1;
}

// Run as a script (package:*), not when start.ts imports it.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = ensureElectron(process.argv.slice(2));
