// The screen's start: inside the desktop app the preload's bridge is there (window.comanda); in a
// browser it is not, and the same app talks HTTP + live stream to the engine that served it, after
// asking what this browser is: the manager's on the machine that runs Comanda (`npm start` without
// Electron: every screen), a paired tablet (the kitchen's), or neither (the pairing page).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createStore } from 'zustand/vanilla';
import type { ComandaBridge } from '../../shared/screen-contract/contract.ts';
import type { LivePush } from '../../shared/screen-contract/kitchen.ts';
import { createBridge } from '../../preload/bridge.ts';
import { answerOf, createApi } from './api.ts';
import { Root, type PairingState } from './Root.tsx';
import { AppContext, type AppStores, type ScreenMode } from './app-context.tsx';
import { createBoardStore } from './state/board-state.ts';
import { takeEarlyBoard, type EarlyBoard } from './early-board.ts';
import { storagePending } from './state/board/pending-slice.ts';
import { createDevicesStore } from './state/devices-state.ts';
import { createKeysStore } from './state/keys-state.ts';
import { createLocationsStore } from './state/locations-state.ts';
import { browserStorage, createScreenPreferencesStore } from './state/screen-preferences-state.ts';
import { createSettingsStore } from './state/settings-state.ts';
import { createStockStore } from './state/stock-state.ts';
import { createHttpTransport } from './transport/http-transport.ts';
import { PickupScreen } from './views/PickupScreen.tsx';

const preferences = createScreenPreferencesStore(browserStorage());
const pairing = createStore<{ state: PairingState }>()(() => ({ state: 'checking' }));

/** `early`: the board's snapshot already asked for, and the pushes kept since (start.ts). */
function startStores(bridge: ComandaBridge, mode: ScreenMode, inBrowser: boolean, early: EarlyBoard | null = null): AppStores {
  const api = createApi(bridge);
  const stores: AppStores = {
    mode,
    inBrowser,
    api,
    preferences,
    // What the cook tapped and the engine has not taken yet is kept on this screen across reloads.
    board: createBoardStore({ api, pendingStorage: storagePending(browserStorage()), firstSnapshot: early?.snapshot.then(answerOf) }),
    settings: createSettingsStore({ api }),
    stock: createStockStore({ api }),
    locations: createLocationsStore({ api }),
    keys: createKeysStore({ api }),
    devices: createDevicesStore({ api }),
  };
  stores.board.getState().setLocationFilter(preferences.getState().location_id);
  stores.board.getState().setStationFilter(preferences.getState().station_id);
  // The engine hears which station this board shows (fallback printing asks), now and on each change.
  const showStation = (stationId: string | null) => api.showStations(stationId === null ? null : [stationId]);
  showStation(preferences.getState().station_id);
  preferences.subscribe((now, before) => {
    if (now.station_id !== before.station_id) showStation(now.station_id);
  });
  // Every live push goes to each store that shows something it may change.
  const receive = (push: LivePush) => {
    stores.board.getState().receive(push);
    stores.stock.getState().receive(push);
    stores.locations.getState().receive(push);
  };
  // With an early start, the board's load (of the snapshot already asked for) comes first, so the
  // pushes kept since then wait in it for the snapshot, as any push during a load does.
  if (early === null) api.onLive(receive);
  // Settings are the desktop's own; a tablet keeps its preferences on itself.
  if (mode === 'desktop') void stores.settings.getState().load();
  void stores.board.getState().load();
  early?.listen(receive);
  void stores.locations.getState().load();
  return stores;
}

const root = createRoot(document.getElementById('root')!);
const render = (stores: AppStores | null) =>
  root.render(
    <StrictMode>
      <AppContext.Provider value={stores}>
        <Root pairing={pairing} preferences={preferences} />
      </AppContext.Provider>
    </StrictMode>,
  );

if (typeof window.comanda === 'object' && window.comanda !== null) {
  pairing.setState({ state: 'paired' });
  render(startStores(window.comanda, 'desktop', false, takeEarlyBoard()));
} else {
  const base = new URL('./', window.location.href).pathname.replace(/\/$/, '');
  const transport = createHttpTransport({
    base,
    onUnpaired: () => pairing.setState((s) => ({ state: s.state === 'paired' ? 'revoked' : 'unpaired' })),
  });
  render(null);
  void transport.session().then((session) => {
    if (session === 'unpaired') {
      pairing.setState({ state: 'unpaired' });
      return;
    }
    // A pickup screen shows the customers' numbers and nothing of the kitchen's; in this screen's own
    // language if it chose one, else in the restaurant's for its pickup screens.
    if (session === 'pickup') {
      root.render(
        <StrictMode>
          <PickupScreen api={createApi(createBridge(transport))} ownLanguage={preferences.getState().language} />
        </StrictMode>,
      );
      return;
    }
    // Paired, or the engine is out of reach for now: the board starts and says how fresh it is.
    pairing.setState({ state: 'paired' });
    // The manager's browser gets the desktop's screens; a tablet the kitchen's.
    render(startStores(createBridge(transport), session === 'admin' ? 'desktop' : 'tablet', true));
  });
}
