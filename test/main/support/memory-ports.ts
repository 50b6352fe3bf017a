// In-memory ports: for tests, and for running the handlers anywhere without Electron.
import { DEFAULT_SETTINGS, type AppSettings, type PlatformKeyInfo } from '../../../src/shared/screen-contract/settings.ts';
import { secureStorageUnavailable } from '../../../src/engine/screen/screen-errors.ts';
import { describePlatformKey } from '../../../src/main/platform-key.ts';
import type { KeptPaymentAccount, MailSettingsPort, OnlinePaymentsPort, PlatformKeyPort, SettingsPort } from '../../../src/main/desktop-ports.ts';
import { describeMail } from '../../../src/main/mail-info.ts';
import type { SmtpSettings } from '../../../src/engine/mail/smtp-sender.ts';

export function memorySettings(initial: AppSettings = DEFAULT_SETTINGS): SettingsPort & { current: AppSettings } {
  const port = {
    current: structuredClone(initial),
    read: () => structuredClone(port.current),
    write: (settings: AppSettings) => {
      port.current = structuredClone(settings);
    },
  };
  return port;
}

/** A key store that keeps the key in memory; `available: false` imitates a machine without protected storage. */
export function memoryPlatformKey(
  options: { available?: boolean } = {},
): PlatformKeyPort & { secret(): string | null; setAvailable(available: boolean): void } {
  let available = options.available ?? true;
  let stored: { key: string; label: string | null } | null = null;
  return {
    storage: () => ({ available, backend: available ? 'memory' : null }),
    info: (): PlatformKeyInfo => describePlatformKey(stored?.key ?? null, stored?.label ?? null),
    save(key, label) {
      if (!available) throw secureStorageUnavailable();
      stored = { key, label };
    },
    clear() {
      stored = null;
    },
    secret: () => stored?.key ?? null,
    setAvailable(value) {
      available = value;
    },
  };
}

/** SMTP settings kept in memory, described like the real store describes them. */
export function memoryMail(options: { available?: boolean } = {}): MailSettingsPort & { secret(): SmtpSettings | null } {
  let stored: SmtpSettings | null = null;
  return {
    info: () => describeMail(stored),
    save(settings) {
      if (!(options.available ?? true)) throw secureStorageUnavailable();
      stored = { ...settings };
    },
    clear() {
      stored = null;
    },
    secret: () => stored,
  };
}

/** Payment credentials kept in memory; `available: false` imitates a machine without protected storage. */
export function memoryOnlinePayments(options: { available?: boolean } = {}): OnlinePaymentsPort & { kept: Map<string, KeptPaymentAccount> } {
  const kept = new Map<string, KeptPaymentAccount>();
  return {
    kept,
    info(restaurantId) {
      const stored = kept.get(restaurantId);
      if (!stored) return null;
      const { provider, credentials } = stored;
      return { provider, api_base: credentials.apiBase, access_token_last4: credentials.accessToken.slice(-4), webhook_secret_last4: credentials.webhookSecret.slice(-4) };
    },
    save(restaurantId, account) {
      if (!(options.available ?? true)) throw secureStorageUnavailable('the payment credentials');
      kept.set(restaurantId, { provider: account.provider, credentials: { ...account.credentials } });
    },
    clear(restaurantId) {
      kept.delete(restaurantId);
    },
    read: (restaurantId) => kept.get(restaurantId) ?? null,
  };
}
