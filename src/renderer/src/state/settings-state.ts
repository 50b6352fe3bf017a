// Settings and what the app says about itself. The platform key goes in through here and never
// comes back: the view only has its world, label and last four characters.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { DEFAULT_SETTINGS } from '../../../shared/screen-contract/settings-defaults.ts';
import type { AppInfo, AppSettings, SettingsPatch, SettingsView } from '../../../shared/screen-contract/settings.ts';

function mergeSettings(current: AppSettings, patch: SettingsPatch): AppSettings {
  return {
    ...current,
    ...(patch.language !== undefined ? { language: patch.language } : {}),
    ...(patch.theme !== undefined ? { theme: patch.theme } : {}),
    ...(patch.sound !== undefined ? { sound: patch.sound } : {}),
    ...(patch.restaurant_id !== undefined ? { restaurant_id: patch.restaurant_id } : {}),
    thresholds: { ...current.thresholds, ...patch.thresholds },
    http: { ...current.http, ...patch.http },
    connection: { ...current.connection, ...patch.connection },
  };
}
import type { KitchenApi } from '../api.ts';
import { ScreenCallError, errorMessage } from '../api.ts';

export interface SettingsState {
  view: SettingsView | null;
  info: AppInfo | null;
  /** The settings in force (defaults until loaded). */
  settings: AppSettings;
  saving: boolean;
  error: { code: string; message: string } | null;
  savedAt: number | null;
  load(): Promise<void>;
  update(patch: SettingsPatch): Promise<boolean>;
  savePlatformKey(key: string, label: string | null): Promise<boolean>;
  clearPlatformKey(): Promise<boolean>;
  saveSmtp(url: string, from: string | null): Promise<boolean>;
  clearSmtp(): Promise<boolean>;
  restart(): Promise<void>;
  clearError(): void;
}

export type SettingsStateApi = StoreApi<SettingsState>;

export function createSettingsState(deps: {
  api: Pick<KitchenApi, 'getSettings' | 'updateSettings' | 'setPlatformKey' | 'clearPlatformKey' | 'setSmtp' | 'clearSmtp' | 'appInfo' | 'restartApp'>;
  now?: () => number;
}): SettingsStateApi {
  const now = deps.now ?? (() => Date.now());
  return createStore<SettingsState>()((set, get) => {
    const run = async (work: () => Promise<SettingsView>): Promise<boolean> => {
      set({ saving: true, error: null });
      try {
        const view = await work();
        set({ view, settings: view.settings, saving: false, savedAt: now() });
        return true;
      } catch (error) {
        set({
          saving: false,
          error: { code: error instanceof ScreenCallError ? error.code : 'internal_error', message: errorMessage(error) },
        });
        return false;
      }
    };
    return {
      view: null,
      info: null,
      settings: DEFAULT_SETTINGS,
      saving: false,
      error: null,
      savedAt: null,
      async load() {
        try {
          const [view, info] = await Promise.all([deps.api.getSettings({}), deps.api.appInfo({})]);
          set({ view, info, settings: view.settings });
        } catch (error) {
          set({ error: { code: 'internal_error', message: errorMessage(error) } });
        }
      },
      async update(patch) {
        // Shown at once (a toggle must not lag behind the finger); the answer confirms or reverts it.
        const before = get().settings;
        set({ settings: mergeSettings(before, patch) });
        const ok = await run(() => deps.api.updateSettings(patch));
        if (!ok) set({ settings: get().view?.settings ?? before });
        return ok;
      },
      savePlatformKey: (key, label) => run(() => deps.api.setPlatformKey({ key, label })),
      clearPlatformKey: () => run(() => deps.api.clearPlatformKey({})),
      saveSmtp: (url, from) => run(() => deps.api.setSmtp({ url, from })),
      clearSmtp: () => run(() => deps.api.clearSmtp({})),
      async restart() {
        await deps.api.restartApp({});
      },
      clearError() {
        set({ error: null });
      },
    };
  });
}
