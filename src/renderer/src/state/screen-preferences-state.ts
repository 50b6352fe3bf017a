// What this one screen prefers, kept on the screen itself (localStorage), not in the app's settings:
// a tablet by the grill and the desktop by the counter may want different languages, themes and
// locations. `null` means "as the app says" (the desktop's settings, or the default on a tablet).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Language, Theme } from '../../../shared/screen-contract/settings.ts';
import { isLanguage } from '../../../shared/locale.ts';
import { BOARD_LAYOUTS, type BoardLayoutKind } from '../board-plan.ts';

/** How much a ticket shows: `auto` turns compact above a count of tickets (rush hour). */
export type Density = 'auto' | 'comfortable' | 'compact';
export const DENSITIES: readonly Density[] = ['auto', 'comfortable', 'compact'];

export interface ScreenPreferences {
  language: Language | null;
  theme: Theme | null;
  /** The one location this screen shows; null: all of them. */
  location_id: string | null;
  density: Density;
  /** The station this screen prepares for (its items only); null: expo, every item. */
  station_id: string | null;
  /** Lanes by state ("Carriles"), or every ticket in one grid by age ("Flujo"). */
  layout: BoardLayoutKind;
}

export interface ScreenPreferencesState extends ScreenPreferences {
  set(patch: Partial<ScreenPreferences>): void;
}

export type ScreenPreferencesStateApi = StoreApi<ScreenPreferencesState>;

/** Where they are kept; a Storage (localStorage in the page, a Map-backed one in tests), or none. */
export interface PreferencesStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const SCREEN_PREFERENCES_KEY = 'comanda.screen-preferences.v1';

const THEMES: readonly string[] = ['dark', 'light'];

/** What was kept, field by field: anything unreadable falls back to the default, never breaks the screen. */
function readScreenPreferences(storage: PreferencesStorage | null): ScreenPreferences {
  let kept: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(SCREEN_PREFERENCES_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object') kept = parsed as Record<string, unknown>;
  } catch {
    kept = {};
  }
  return {
    language: isLanguage(kept.language) ? kept.language : null,
    theme: THEMES.includes(kept.theme as string) ? (kept.theme as Theme) : null,
    location_id: typeof kept.location_id === 'string' && kept.location_id.length <= 64 ? kept.location_id : null,
    density: DENSITIES.includes(kept.density as Density) ? (kept.density as Density) : 'auto',
    station_id: typeof kept.station_id === 'string' && kept.station_id.length <= 64 ? kept.station_id : null,
    layout: BOARD_LAYOUTS.includes(kept.layout as BoardLayoutKind) ? (kept.layout as BoardLayoutKind) : 'lanes',
  };
}

export function createScreenPreferencesState(storage: PreferencesStorage | null): ScreenPreferencesStateApi {
  return createStore<ScreenPreferencesState>()((set, get) => ({
    ...readScreenPreferences(storage),
    set(patch) {
      set(patch);
      const { set: _set, ...kept } = get();
      try {
        storage?.setItem(SCREEN_PREFERENCES_KEY, JSON.stringify(kept));
      } catch {
        // Private mode or a full storage: the choice holds until the page reloads.
      }
    },
  }));
}

/** localStorage when the page may use it. */
export function browserStorage(): PreferencesStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
