// Settings and secrets for the browser mode (`npm start` where Electron cannot start): no
// electron-store, no safeStorage. The settings go in the same settings.json the desktop app uses
// (its `settings` entry; what else the file holds is left as it is). The platform key and the SMTP
// URL (and the payment credentials), which the desktop app encrypts with safeStorage, are kept unencrypted in their own file,
// readable by this user only (0600), and the Settings screen says so, naming the file. API keys are
// the engine's, in the database, as always.
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeMail } from './mail-info.ts';
import { describePlatformKey } from './platform-key.ts';
import type { SmtpSettings } from '../engine/mail/smtp-sender.ts';
import type { PaymentCredentials } from '../engine/payments/payment-credentials-source.ts';
import type { KeptPaymentAccount } from './desktop-ports.ts';
import { normalizeSettings, type AppSettings, type SecureStorageInfo } from '../shared/screen-contract/settings.ts';
import type { AppSettingsFiles } from './app-handlers.ts';

export const SETTINGS_FILE = 'settings.json';
export const BROWSER_SECRETS_FILE = 'browser-mode-secrets.json';
/** Read and write for the owner, nothing for anyone else. */
const SECRET_FILE_MODE = 0o600;

interface Secrets {
  platformKey?: { key: string; label: string | null } | null;
  mail?: SmtpSettings | null;
  /** Each restaurant's payment account by restaurant id; `provider` absent in files written before issue 31 (Mercado Pago's then). */
  payments?: Record<string, PaymentCredentials & { provider?: string }>;
}

function readJson(path: string): Record<string, unknown> {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    // Missing or broken: the defaults, as electron-store's clearInvalidConfig does.
    return {};
  }
}

/** Written beside, with its mode, then renamed over: a crash leaves the old file or the new one. */
function writeJson(path: string, value: unknown, mode: number): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, '\t')}\n`, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, path);
}

export function createBrowserSettingsFiles(dataDir: string): AppSettingsFiles & { secretsFile: string } {
  const settingsFile = join(dataDir, SETTINGS_FILE);
  const secretsFile = join(dataDir, BROWSER_SECRETS_FILE);
  // A file left with wider permissions (copied, restored) is narrowed before anything is read from it.
  if (existsSync(secretsFile)) chmodSync(secretsFile, SECRET_FILE_MODE);
  const readSecrets = (): Secrets => readJson(secretsFile) as Secrets;
  const writeSecrets = (change: Partial<Secrets>) => writeJson(secretsFile, { ...readSecrets(), ...change }, SECRET_FILE_MODE);
  const keptPayment = (restaurantId: string): KeptPaymentAccount | null => {
    const payments = readSecrets().payments;
    const kept = payments && Object.hasOwn(payments, restaurantId) ? payments[restaurantId] : undefined;
    if (!kept) return null;
    const { provider, ...credentials } = kept;
    return { provider: provider ?? 'mercadopago', credentials };
  };
  const storage = (): SecureStorageInfo => ({ available: true, backend: null, clear_text_file: secretsFile });
  return {
    secretsFile,
    settings: {
      read: () => normalizeSettings(readJson(settingsFile).settings),
      write: (settings: AppSettings) => writeJson(settingsFile, { ...readJson(settingsFile), settings }, SECRET_FILE_MODE),
    },
    platformKey: {
      storage,
      info() {
        const stored = readSecrets().platformKey;
        return describePlatformKey(stored?.key ?? null, stored?.label ?? null);
      },
      save(key, label) {
        writeSecrets({ platformKey: { key, label } });
      },
      clear() {
        writeSecrets({ platformKey: null });
      },
      readSecret: () => readSecrets().platformKey?.key ?? null,
    },
    mail: {
      info: () => describeMail(readSecrets().mail ?? null),
      save(settings) {
        writeSecrets({ mail: { url: settings.url, ...(settings.from ? { from: settings.from } : {}) } });
      },
      clear() {
        writeSecrets({ mail: null });
      },
      readSecret: () => readSecrets().mail ?? null,
    },
    onlinePayments: {
      info(restaurantId) {
        const kept = keptPayment(restaurantId);
        if (!kept) return null;
        const { provider, credentials } = kept;
        return { provider, api_base: credentials.apiBase, access_token_last4: credentials.accessToken.slice(-4), webhook_secret_last4: credentials.webhookSecret.slice(-4) };
      },
      save(restaurantId, { provider, credentials }) {
        writeSecrets({ payments: { ...readSecrets().payments, [restaurantId]: { provider, ...credentials } } });
      },
      clear(restaurantId) {
        const { [restaurantId]: _removed, ...rest } = readSecrets().payments ?? {};
        writeSecrets({ payments: rest });
      },
      read: (restaurantId) => keptPayment(restaurantId),
    },
  };
}
