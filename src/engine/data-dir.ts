import { homedir } from 'node:os';
import { join } from 'node:path';

const APP_NAME = 'Comanda';

/** The folder Electron's `app.getPath('userData')` gives for this app, so CLI and app share a database. */
export function defaultDataDir(): string {
  if (process.env.COMANDA_DATA_DIR) return process.env.COMANDA_DATA_DIR;
  switch (process.platform) {
    case 'win32':
      return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
    case 'darwin':
      return join(homedir(), 'Library', 'Application Support', APP_NAME);
    default:
      return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
  }
}

export function defaultDatabasePath(): string {
  return join(defaultDataDir(), 'comanda.db');
}
