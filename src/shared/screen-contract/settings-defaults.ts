// The app's settings and their defaults, apart from the settings' request schema (settings.ts): the
// screen reads the defaults before its first load, and the schema's typebox does not belong in the
// screen's first chunk (bench row 5, issue 28).
import { DEFAULT_LANGUAGE, type Language } from '../locale.ts';

export type { Language };
export type Theme = 'dark' | 'light';

export interface AppSettings {
  language: Language;
  theme: Theme;
  sound: boolean;
  /** Timer colours: amber from `warn_minutes`, red (late) from `late_minutes`. */
  thresholds: { warn_minutes: number; late_minutes: number };
  /** The local HTTP API: 127.0.0.1 unless `lan` is on (then every interface). */
  http: { port: number; lan: boolean };
  /** The restaurant this screen shows; null picks the first one. */
  restaurant_id: string | null;
  connection: { mode: 'standalone' | 'connected'; platform_url: string | null };
}

export const DEFAULT_SETTINGS: AppSettings = {
  language: DEFAULT_LANGUAGE,
  theme: 'dark',
  sound: true,
  thresholds: { warn_minutes: 10, late_minutes: 20 },
  http: { port: 4750, lan: false },
  restaurant_id: null,
  connection: { mode: 'standalone', platform_url: null },
};
