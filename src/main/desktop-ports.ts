// What the desktop handlers need from their host besides the engine. Main implements these with
// electron-store and safeStorage (src/main/settings-file.ts); tests use test/main/support/memory-ports.ts.
import type { ConnectionStatus } from '../shared/screen-contract/kitchen.ts';
import type { SyncStatus } from '../shared/sync-status.ts';
import type { AppInfo, AppSettings, MailInfo, PlatformKeyInfo, SecureStorageInfo } from '../shared/screen-contract/settings.ts';
import type { SmtpSettings } from '../engine/mail/smtp-sender.ts';
import type { PaymentCredentials } from '../engine/payments/payment-credentials-source.ts';

export interface SettingsPort {
  read(): AppSettings;
  write(settings: AppSettings): void;
}

/** Where the key for the remote platform is kept. It goes in and never comes back out to the screen. */
export interface PlatformKeyPort {
  storage(): SecureStorageInfo;
  info(): PlatformKeyInfo;
  /** Throws when secure storage is unavailable: the key is never kept in clear. */
  save(key: string, label: string | null): void;
  clear(): void;
}

/** Where the SMTP settings are kept: the URL carries a password, so it is stored like the key. */
export interface MailSettingsPort {
  info(): MailInfo;
  /** Throws when secure storage is unavailable. */
  save(settings: SmtpSettings): void;
  clear(): void;
}

/** A restaurant's account with one payment provider, named as the registry names it (payments/payment-providers.ts). */
export interface KeptPaymentAccount {
  provider: string;
  credentials: PaymentCredentials;
}

/**
 * Where restaurants' payment accounts are kept (safeStorage, like the SMTP password): one per
 * restaurant, with its provider's name. The engine reads them through `read` on every use
 * (host/start-engine-server.ts `paymentCredentials`, app-handlers.ts `appPaymentCredentials`).
 */
export interface OnlinePaymentsPort {
  /** What may be shown: the provider, never the token nor the secret, only their last 4 characters. */
  info(restaurantId: string): { provider: string; api_base: string; access_token_last4: string; webhook_secret_last4: string } | null;
  /** Throws secure_storage_unavailable when there is no protected storage: never kept in clear. Replaces the account kept. */
  save(restaurantId: string, account: KeptPaymentAccount): void;
  clear(restaurantId: string): void;
  /** Decrypted, for the engine and Probar conexión only; null when none is kept (or it cannot be read). */
  read(restaurantId: string): KeptPaymentAccount | null;
}

/** The host around the engine: what it reports about itself and what it can do to itself. */
export interface HostPort {
  appInfo(): AppInfo;
  /** Relaunches the app (settings that need a restart). Absent where that makes no sense. */
  restart?(): void;
  connectionStatus(): ConnectionStatus | Promise<ConnectionStatus>;
  /** The replica's full sync status (with its conflicts) in connected mode; null when standalone. */
  syncStatus(): Promise<SyncStatus | null>;
  /** Where "back up now" writes its copies; null where the host keeps none. */
  backupFolder(): string | null;
  /** Sends customers' mails through this server from now on (null: keep them queued). */
  configureMail?(settings: SmtpSettings | null): void;
  /**
   * The origin a tablet opens the pairing URL on (the LAN address when LAN access is on, loopback
   * otherwise) and whether a tablet can reach it at all. Absent where no kitchen screen is served.
   */
  pairingOrigin?(): { origin: string; lan: boolean };
}
