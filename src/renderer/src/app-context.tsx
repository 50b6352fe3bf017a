import { createContext, useContext, useEffect, useState } from 'react';
import { createStore, useStore } from 'zustand';
import type { KitchenApi } from './api.ts';
import { translate, type TextKey, type Translate } from './i18n.ts';
import type { BoardState, BoardStore } from './stores/board-store.ts';
import type { KeysState, KeysStore } from './stores/keys-store.ts';
import type { LocationsState, LocationsStore } from './stores/locations-store.ts';
import type { SettingsState, SettingsStore } from './stores/settings-store.ts';
import type { StockState, StockStore } from './stores/stock-store.ts';

export interface AppStores {
  api: KitchenApi;
  board: BoardStore;
  settings: SettingsStore;
  stock: StockStore;
  locations: LocationsStore;
  keys: KeysStore;
}

export const AppContext = createContext<AppStores | null>(null);

export function useApp(): AppStores {
  const stores = useContext(AppContext);
  if (!stores) throw new Error('AppContext missing');
  return stores;
}

export const useBoard = <T,>(selector: (s: BoardState) => T): T => useStore(useApp().board, selector);
export const useSettings = <T,>(selector: (s: SettingsState) => T): T => useStore(useApp().settings, selector);
export const useStock = <T,>(selector: (s: StockState) => T): T => useStore(useApp().stock, selector);
export const useLocations = <T,>(selector: (s: LocationsState) => T): T => useStore(useApp().locations, selector);
export const useKeys = <T,>(selector: (s: KeysState) => T): T => useStore(useApp().keys, selector);

export function useT(): Translate {
  const language = useSettings((s) => s.settings.language);
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
  return useStore(screenClock, (s) => select(s.now));
}

/** The engine's clock: the screen's plus the offset the last message carried. */
export function useEngineNow(intervalMs = 500): number {
  const now = useNow(intervalMs);
  const offset = useBoard((s) => s.clockOffset);
  return now + offset;
}
