import { createContext, useContext, useEffect, useState } from 'react';
import { createStore, useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { KitchenApi } from './api.ts';
import { translate, type TextKey, type Translate } from './i18n.ts';
import type { BoardState, BoardStateApi } from './state/board-state.ts';
import type { KeysState, KeysStateApi } from './state/keys-state.ts';
import type { LocationsState, LocationsStateApi } from './state/locations-state.ts';
import type { SettingsState, SettingsStateApi } from './state/settings-state.ts';
import type { StockState, StockStateApi } from './state/stock-state.ts';
import type { DevicesState, DevicesStateApi } from './state/devices-state.ts';
import type { ScreenPreferencesState, ScreenPreferencesStateApi } from './state/screen-preferences-state.ts';
import type { Language, Theme } from '../../shared/screen-contract/settings.ts';

/** The desktop app's window (preload bridge, every channel) or a paired tablet's browser (kitchen channels only). */
export type ScreenMode = 'desktop' | 'tablet';

export interface ScreenStates {
  mode: ScreenMode;
  /**
   * The page runs in a browser rather than the desktop window: a tablet, or the manager's screens
   * served to a browser on the same machine (`npm start` without Electron, mode 'desktop').
   * Browsers keep sound off until the page is touched.
   */
  inBrowser?: boolean;
  api: KitchenApi;
  preferences: ScreenPreferencesStateApi;
  devices: DevicesStateApi;
  board: BoardStateApi;
  settings: SettingsStateApi;
  stock: StockStateApi;
  locations: LocationsStateApi;
  keys: KeysStateApi;
}

export const AppContext = createContext<ScreenStates | null>(null);

export function useApp(): ScreenStates {
  const states = useContext(AppContext);
  if (!states) throw new Error('AppContext missing');
  return states;
}

export function useOptionalApp(): ScreenStates | null {
  return useContext(AppContext);
}

export const useBoard = <T,>(selector: (s: BoardState) => T): T => useStore(useApp().board, selector);
export const useSettings = <T,>(selector: (s: SettingsState) => T): T => useStore(useApp().settings, selector);
export const useStock = <T,>(selector: (s: StockState) => T): T => useStore(useApp().stock, selector);
export const useLocations = <T,>(selector: (s: LocationsState) => T): T => useStore(useApp().locations, selector);
export const useKeys = <T,>(selector: (s: KeysState) => T): T => useStore(useApp().keys, selector);
export const useDevices = <T,>(selector: (s: DevicesState) => T): T => useStore(useApp().devices, selector);
export const usePreferences = <T,>(selector: (s: ScreenPreferencesState) => T): T => useStore(useApp().preferences, selector);

/** This screen's language: its own choice, else the app's setting. */
export function useLanguage(): Language {
  const own = usePreferences((s) => s.language);
  const app = useSettings((s) => s.settings.language);
  return own ?? app;
}

export function useTheme(): Theme {
  const own = usePreferences((s) => s.theme);
  const app = useSettings((s) => s.settings.theme);
  return own ?? app;
}

export function useT(): Translate {
  const language = useLanguage();
  return (key: TextKey, vars?: Record<string, string | number>) => translate(language, key, vars);
}

/** The screen's clock, re-rendering every `intervalMs`. */
export function useNow(intervalMs = 500): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * One shared ticking clock for the many things on screen that depend on time (500 ticket timers):
 * each picks what it shows from it and re-renders only when that changes, instead of the whole
 * board re-rendering on every tick.
 */
const TICK_MS = 250;
const screenClock = createStore<{ now: number }>(() => ({ now: Date.now() }));
let ticking: ReturnType<typeof setInterval> | null = null;
let subscribers = 0;

export function useClock<T>(select: (now: number) => T): T {
  useClockTicking();
  return useStore(screenClock, (s) => select(s.now));
}

/**
 * Several things picked from the clock at once, re-rendering when any of them changes (compared
 * one by one): a ticket's timer, level, promise, countdown and notices in one subscription, where
 * one `useClock` each gave every card seven subscriptions and seven effects to make and undo as it
 * came into view and left it (bench row 5: a transition mounts and drops a few cards).
 */
export function useClockFields<T extends object>(select: (now: number) => T): T {
  useClockTicking();
  return useStore(screenClock, useShallow((s: { now: number }) => select(s.now)));
}

function useClockTicking(): void {
  useEffect(() => {
    subscribers++;
    if (ticking === null) {
      screenClock.setState({ now: Date.now() });
      ticking = setInterval(() => screenClock.setState({ now: Date.now() }), TICK_MS);
    }
    return () => {
      subscribers--;
      if (subscribers === 0 && ticking !== null) {
        clearInterval(ticking);
        ticking = null;
      }
    };
  }, []);
}

/** The engine's clock: the screen's plus the offset the last message carried. */
export function useEngineNow(intervalMs = 500): number {
  const now = useNow(intervalMs);
  const offset = useBoard((s) => s.clockOffset);
  return now + offset;
}
