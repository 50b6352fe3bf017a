// Settings and the platform key on disk (electron-store in the user data folder). The key is
// encrypted with safeStorage (Keychain, DPAPI, or the Secret Service on Linux) and only ever
// decrypted here, in main, for the sync; where no protected storage exists it is refused.
import { safeStorage } from 'electron';
import Store from 'electron-store';
import type { AppSettingsFiles } from './app-handlers.ts';
import { describeMail } from './mail-info.ts';
import { secureStorageUnavailable } from '../engine/screen/screen-errors.ts';
import { worldOfKey } from '../engine/domain/api-key-format.ts';
import { describePlatformKey } from './platform-key.ts';
import { normalizeSettings, type AppSettings, type PlatformKeyInfo, type SecureStorageInfo } from '../shared/screen-contract/settings.ts';
import type { World } from '../shared/world.ts';

interface StoredKey {
  /** safeStorage ciphertext, base64. */
  cipher: string;
  label: string | null;
  world?: World | null;
  /** The same, as files written before issue 31 name it. */
  mode?: World | null;
  last4: string;
}

interface StoredMail {
  /** safeStorage ciphertext of the SMTP URL (it carries the password), base64. */
  cipher: string;
  from: string | null;
}

interface StoredPaymentCredentials {
  /** The provider's name in the registry; absent in files written before issue 31, which held Mercado Pago's only. */
  provider?: string;
  /** safeStorage ciphertext of `{"accessToken","webhookSecret"}`, base64. */
  cipher: string;
  api_base: string;
  access_token_last4: string;
  webhook_secret_last4: string;
}

interface SettingsFileShape extends Record<string, unknown> {
  settings?: unknown;
  platformKey?: StoredKey | null;
  mail?: StoredMail | null;
  /** Each restaurant's payment account, by restaurant id (Ajustes → Pagos en línea). */
  payments?: Record<string, StoredPaymentCredentials>;
}

export type { AppSettingsFiles };

/** The provider of an account kept before accounts named theirs: the only one there was. */
const LEGACY_PAYMENT_PROVIDER = 'mercadopago';

function secureStorage(): SecureStorageInfo {
  const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : null;
  // On Linux without a keyring Electron falls back to a hard-coded password ("basic_text"):
  // that is clear text in all but name, so it counts as unavailable.
  const available = safeStorage.isEncryptionAvailable() && backend !== 'basic_text' && backend !== 'unknown';
  return { available, backend };
}

export function createSettingsFiles(cwd: string): AppSettingsFiles {
  const file = new Store<SettingsFileShape>({ name: 'settings', cwd, clearInvalidConfig: true });
  const keptPayments = (): Record<string, StoredPaymentCredentials> => {
    const kept = file.get('payments');
    return kept && typeof kept === 'object' && !Array.isArray(kept) ? kept : {};
  };
  const keptPayment = (restaurantId: string): StoredPaymentCredentials | undefined =>
    Object.hasOwn(keptPayments(), restaurantId) ? keptPayments()[restaurantId] : undefined;
  return {
    settings: {
      read: () => normalizeSettings(file.get('settings')),
      write: (settings: AppSettings) => file.set('settings', settings),
    },
    platformKey: {
      storage: secureStorage,
      info(): PlatformKeyInfo {
        const stored = file.get('platformKey');
        if (!stored) return describePlatformKey(null, null);
        return { present: true, world: stored.world ?? stored.mode ?? null, label: stored.label, last4: stored.last4 };
      },
      save(key, label) {
        if (!secureStorage().available) throw secureStorageUnavailable();
        const cipher = safeStorage.encryptString(key).toString('base64');
        file.set('platformKey', { cipher, label, world: worldOfKey(key), last4: key.slice(-4) } satisfies StoredKey);
      },
      clear() {
        file.delete('platformKey');
      },
      readSecret() {
        const stored = file.get('platformKey');
        if (!stored || !secureStorage().available) return null;
        return safeStorage.decryptString(Buffer.from(stored.cipher, 'base64'));
      },
    },
    mail: {
      info() {
        const stored = file.get('mail');
        if (!stored) return describeMail(null);
        const secret = secureStorage().available ? safeStorage.decryptString(Buffer.from(stored.cipher, 'base64')) : null;
        return secret === null ? { configured: true, server: null, from: stored.from } : describeMail({ url: secret, ...(stored.from ? { from: stored.from } : {}) });
      },
      save(settings) {
        if (!secureStorage().available) throw secureStorageUnavailable('the SMTP password');
        const cipher = safeStorage.encryptString(settings.url).toString('base64');
        file.set('mail', { cipher, from: settings.from ?? null } satisfies StoredMail);
      },
      clear() {
        file.delete('mail');
      },
      readSecret() {
        const stored = file.get('mail');
        if (!stored || !secureStorage().available) return null;
        const url = safeStorage.decryptString(Buffer.from(stored.cipher, 'base64'));
        return { url, ...(stored.from ? { from: stored.from } : {}) };
      },
    },
    onlinePayments: {
      info(restaurantId) {
        const stored = keptPayment(restaurantId);
        return stored ? { provider: stored.provider ?? LEGACY_PAYMENT_PROVIDER, api_base: stored.api_base, access_token_last4: stored.access_token_last4, webhook_secret_last4: stored.webhook_secret_last4 } : null;
      },
      save(restaurantId, { provider, credentials }) {
        if (!secureStorage().available) throw secureStorageUnavailable('the payment credentials');
        const secrets = JSON.stringify({ accessToken: credentials.accessToken, webhookSecret: credentials.webhookSecret });
        const stored: StoredPaymentCredentials = {
          provider,
          cipher: safeStorage.encryptString(secrets).toString('base64'),
          api_base: credentials.apiBase,
          access_token_last4: credentials.accessToken.slice(-4),
          webhook_secret_last4: credentials.webhookSecret.slice(-4),
        };
        file.set('payments', { ...keptPayments(), [restaurantId]: stored });
      },
      clear(restaurantId) {
        const { [restaurantId]: _removed, ...rest } = keptPayments();
        file.set('payments', rest);
      },
      read(restaurantId) {
        const stored = keptPayment(restaurantId);
        if (!stored || !secureStorage().available) return null;
        try {
          const secrets = JSON.parse(safeStorage.decryptString(Buffer.from(stored.cipher, 'base64'))) as { accessToken: string; webhookSecret: string };
          const credentials = { accessToken: secrets.accessToken, webhookSecret: secrets.webhookSecret, apiBase: stored.api_base };
          return { provider: stored.provider ?? LEGACY_PAYMENT_PROVIDER, credentials };
        } catch {
          // Unreadable (the keyring changed, the file was copied from another machine): as if not configured.
          return null;
        }
      },
    },
  };
}
