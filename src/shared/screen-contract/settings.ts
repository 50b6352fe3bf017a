// The app's settings: what the kitchen screen may read and change. The platform key itself never
// appears here: only whether there is one, its world, label and last four characters.

import Type, { type Static } from 'typebox';
import { LANGUAGES } from '../locale.ts';
import { Uuid } from '../schemas/common.ts';
import type { World } from '../world.ts';

export { DEFAULT_SETTINGS, type AppSettings, type Language, type Theme } from './settings-defaults.ts';
import { DEFAULT_SETTINGS, type AppSettings } from './settings-defaults.ts';

export interface PlatformKeyInfo {
  present: boolean;
  world: World | null;
  label: string | null;
  last4: string | null;
}

export interface SecureStorageInfo {
  /** False where the OS offers no protected storage: the key is then refused, never kept in clear. */
  available: boolean;
  /** Electron's backend name on Linux (e.g. gnome_libsecret), null elsewhere. */
  backend: string | null;
  /**
   * Set in the browser mode (`npm start` without Electron, so without safeStorage): the file where
   * the platform key and the SMTP URL are kept unencrypted, readable by this user only (0600).
   */
  clear_text_file?: string | null;
}

/** The SMTP server for customers' "order ready" mails, without its credentials. */
export interface MailInfo {
  configured: boolean;
  /** host:port, never the user or password. */
  server: string | null;
  from: string | null;
}

export const NO_MAIL: MailInfo = { configured: false, server: null, from: null };

export interface SettingsView {
  settings: AppSettings;
  platform_key: PlatformKeyInfo;
  mail: MailInfo;
  secure_storage: SecureStorageInfo;
  /** Settings that take effect only after a restart (HTTP port and LAN, restaurant, connection). */
  restart_required: boolean;
  /** Whether the app can restart itself (the desktop app can; the browser mode is restarted from its terminal). */
  can_restart?: boolean;
}

/** A partial change; nested objects are merged one level deep. Checked by this schema on every transport. */
export const SettingsPatchSchema = Type.Object({
  language: Type.Optional(Type.Enum([...LANGUAGES])),
  theme: Type.Optional(Type.Enum(['dark', 'light'])),
  sound: Type.Optional(Type.Boolean()),
  thresholds: Type.Optional(
    Type.Object({
      warn_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 240 })),
      late_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 240 })),
    }),
  ),
  http: Type.Optional(
    Type.Object({
      port: Type.Optional(Type.Integer({ minimum: 1024, maximum: 65535 })),
      lan: Type.Optional(Type.Boolean()),
    }),
  ),
  restaurant_id: Type.Optional(Type.Union([Uuid(), Type.Null()])),
  connection: Type.Optional(
    Type.Object({
      mode: Type.Optional(Type.Enum(['standalone', 'connected'])),
      platform_url: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 500 }), Type.Null()])),
    }),
  ),
});

export type SettingsPatch = Static<typeof SettingsPatchSchema>;

export interface AppInfo {
  version: string;
  restaurant: { id: string; name: string };
  restaurants: { id: string; name: string }[];
  /** The local HTTP API as bound now, e.g. http://127.0.0.1:4750/v1; null if it could not start. */
  api_base_url: string | null;
  /** Addresses store fronts on the LAN can use (empty unless LAN access is on). */
  lan_urls: string[];
  data_dir: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const pick = <T>(value: unknown, allowed: readonly T[], fallback: T): T => (allowed.includes(value as T) ? (value as T) : fallback);
const integer = (value: unknown, min: number, max: number, fallback: number): number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max ? (value as number) : fallback;

/** Settings as read from disk, with every missing or broken field back to its default. */
export function normalizeSettings(raw: unknown): AppSettings {
  const d = DEFAULT_SETTINGS;
  const r = isObject(raw) ? raw : {};
  const thresholds = isObject(r.thresholds) ? r.thresholds : {};
  const http = isObject(r.http) ? r.http : {};
  const connection = isObject(r.connection) ? r.connection : {};
  let warn = integer(thresholds.warn_minutes, 1, 240, d.thresholds.warn_minutes);
  let late = integer(thresholds.late_minutes, 1, 240, d.thresholds.late_minutes);
  if (warn >= late) [warn, late] = [d.thresholds.warn_minutes, d.thresholds.late_minutes];
  return {
    language: pick(r.language, LANGUAGES, d.language),
    theme: pick(r.theme, ['dark', 'light'] as const, d.theme),
    sound: typeof r.sound === 'boolean' ? r.sound : d.sound,
    thresholds: { warn_minutes: warn, late_minutes: late },
    http: { port: integer(http.port, 1024, 65535, d.http.port), lan: typeof http.lan === 'boolean' ? http.lan : d.http.lan },
    restaurant_id: typeof r.restaurant_id === 'string' ? r.restaurant_id : null,
    connection: {
      mode: pick(connection.mode, ['standalone', 'connected'] as const, d.connection.mode),
      platform_url: typeof connection.platform_url === 'string' ? connection.platform_url : null,
    },
  };
}
