// Runs before `npm start` and `npm run package:*`: makes sure Electron's binary is in place, with
// Electron's own installer (`install-electron`, shipped in the `electron` package), once.
//
// Why: Electron 45 has no install step; it fetches its binary the first time `require('electron')`
// runs. electron-vite reads `node_modules/electron/path.txt` before that ever happens and throws
// "Electron uninstall" after a long start, so without this step the README's first command fails on
// every fresh machine. When the download cannot happen we stop at once and say what to do instead.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

interface ElectronPackage {
  dir: string;
  version: string;
}

const DEFAULT_MIRROR = 'https://github.com/electron/electron/releases/download/';

/** The platform's executable inside `dist/`, as Electron's installer writes it into path.txt. */
export function platformExecutable(platform: string = process.platform): string {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

/** The same test Electron's installer makes: the version, path.txt and the executable all agree. */
export function electronInstalled(pkg: ElectronPackage): boolean {
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
    '  Without the desktop app, the kitchen screen runs headless in any browser:',
    '    npm run serve -- --demo        then open the printed kitchen_pairing_url on a tablet.',
  ].join('\n');
}

/** The installer's own words, made plainer where they are only "fetch failed". */
function installerReason(text: string): string {
  const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
  const errorLine = lines.find((line) => /error|fail|refused|ENOTFOUND|EAI_AGAIN|ECONN|HTTPError/i.test(line));
  const reason = errorLine ?? lines.at(-1) ?? 'the installer exited without saying why';
  return /fetch failed/i.test(reason) ? `no connection to the download server (${reason})` : reason;
}

export function ensureElectron(args: string[]): number {
  const pkg = findElectron(args);
  if (electronInstalled(pkg)) return 0;
  console.error(`Comanda: fetching Electron ${pkg.version} with its installer (once)…`);
  const result = spawnSync(process.execPath, [join(pkg.dir, 'install.js')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    // The installer has no timeout of its own; a silent network must not stall `npm start` forever.
    timeout: 10 * 60_000,
  });
  if (result.status === 0 && electronInstalled(pkg)) return 0;
  const reason = result.error
    ? result.error.message
    : installerReason(`${result.stderr ?? ''}\n${result.stdout ?? ''}`);
  console.error(failureMessage(pkg, reason));
  return 1;
}

process.exitCode = ensureElectron(process.argv.slice(2));
