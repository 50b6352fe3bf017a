// What the screen shows at the top: the app, or (a tablet without a valid device token) the
// pairing page. A screen revoked while it runs drops to the pairing page at its next message.
import type { StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { App } from './App.tsx';
import { useOptionalApp } from './app-context.tsx';
import type { ScreenPreferencesState } from './state/screen-preferences-state.ts';
import { PairingPage } from './views/PairingPage.tsx';

/** `revoked`: it was paired while this page ran, and the engine now refuses it. */
export type PairingState = 'checking' | 'paired' | 'unpaired' | 'revoked';

export function Root(props: { pairing: StoreApi<{ state: PairingState }>; preferences: StoreApi<ScreenPreferencesState> }) {
  const state = useStore(props.pairing, (s) => s.state);
  const states = useOptionalApp();
  if (state === 'unpaired' || state === 'revoked') return <PairingPage preferences={props.preferences} revoked={state === 'revoked'} />;
  if (state === 'checking' || states === null) return <div className="app-starting" data-testid="starting" />;
  return <App />;
}
