// The screen's start: inside the desktop app the preload's bridge is there (window.comanda); in a
// browser it is not, and the same app talks HTTP + live stream to the engine that served it, after
// asking what this browser is: the manager's on the machine that runs Comanda (`npm start` without
// Electron: every screen), a paired tablet (the kitchen's), or neither (the pairing page).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createStore } from 'zustand/vanilla';
import type { ComandaBridge, ScreenResult } from '../../shared/screen-contract/contract.ts';
import type { BoardSnapshot, LivePush } from '../../shared/screen-contract/kitchen.ts';
import { createBridge } from '../../preload/bridge.ts';
import { answerOf, createApi } from './api.ts';
import { Root, type PairingState } from './Root.tsx';
import { AppContext, type ScreenStates, type ScreenMode } from './app-context.tsx';
import { createBoardState } from './state/board-state.ts';
import { kitchenBase, takeEarlyBoard, takeEarlyBrowserBoard, type EarlyBoard } from './early-board.ts';
import { storagePending } from './state/board/pending-slice.ts';
import { createDevicesState } from './state/devices-state.ts';
import { createKeysState } from './state/keys-state.ts';
import { createLocationsState } from './state/locations-state.ts';
import { browserStorage, createScreenPreferencesState } from './state/screen-preferences-state.ts';
import { createSettingsState } from './state/settings-state.ts';
import { createStockState } from './state/stock-state.ts';
import { createHttpTransport, type HttpTransport } from './transport/http-transport.ts';
import { PickupScreen } from './views/PickupScreen.tsx';

// When the app's script began to run: what the page asked for before it (start.ts) is timed against
// this mark (test/renderer/tablet-early-start.e2e.test.ts, bench row 5's notes).
performance.mark('comanda:app-script');

const preferences = createScreenPreferencesState(browserStorage());
const pairing = createStore<{ state: PairingState }>()(() => ({ state: 'checking' }));

/** `early`: the board's snapshot already asked for, and the pushes kept since (start.ts). */
function startStates(bridge: ComandaBridge, mode: ScreenMode, inBrowser: boolean, early: EarlyBoard | null = null): ScreenStates {
  const api = createApi(bridge);
  const states: ScreenStates = {
    mode,
    inBrowser,
    api,
    preferences,
    // What the cook tapped and the engine has not taken yet is kept on this screen across reloads.
    board: createBoardState({ api, pendingStorage: storagePending(browserStorage()), firstSnapshot: early?.snapshot.then(answerOf) }),
    settings: createSettingsState({ api }),
    stock: createStockState({ api }),
    locations: createLocationsState({ api }),
    keys: createKeysState({ api }),
    devices: createDevicesState({ api }),
  };
  states.board.getState().setLocationFilter(preferences.getState().location_id);
  states.board.getState().setStationFilter(preferences.getState().station_id);
  // The engine hears which station this board shows (fallback printing asks), now and on each change.
  const showStation = (stationId: string | null) => api.showStations(stationId === null ? null : [stationId]);
  showStation(preferences.getState().station_id);
  preferences.subscribe((now, before) => {
    if (now.station_id !== before.station_id) showStation(now.station_id);
  });
  // Every live push goes to each screen state that shows something it may change.
  const receive = (push: LivePush) => {
    states.board.getState().receive(push);
    states.stock.getState().receive(push);
    states.locations.getState().receive(push);
  };
  // With an early start, the board's load (of the snapshot already asked for) comes first, so the
  // pushes kept since then wait in it for the snapshot, as any push during a load does.
  if (early === null) api.onLive(receive);
  // Settings are the desktop's own; a tablet keeps its preferences on itself.
  if (mode === 'desktop') void states.settings.getState().load();
  void states.board.getState().load();
  early?.listen(receive);
  void states.locations.getState().load();
  return states;
}

/**
 * A browser's early start (the snapshot asked for over HTTP as the page started) as the board takes
 * it: the snapshot's answer, and the live stream opened once it is in, resuming after its cursor (a
 * change made between the snapshot's read and the stream's opening still reaches the board).
 */
function earlyOverHttp(transport: HttpTransport, bridge: ComandaBridge, asked: Promise<Response>): EarlyBoard {
  const snapshot = transport.answer(asked) as Promise<ScreenResult<BoardSnapshot>>;
  return {
    snapshot,
    listen(listener) {
      let unsubscribe: (() => void) | null = null;
      let stopped = false;
      void snapshot.then((answer) => {
        if (stopped) return;
        // Refused or unreachable: the stream starts where the engine is, and its first heartbeat loads the board.
        if (answer.ok) transport.resumeAfter(answer.value.cursor);
        unsubscribe = bridge.onLive(listener);
      });
      return () => {
        stopped = true;
        unsubscribe?.();
      };
    },
  };
}

const root = createRoot(document.getElementById('root')!);
const render = (states: ScreenStates | null) =>
  root.render(
    <StrictMode>
      <AppContext.Provider value={states}>
        <Root pairing={pairing} preferences={preferences} />
      </AppContext.Provider>
    </StrictMode>,
  );

if (typeof window.comanda === 'object' && window.comanda !== null) {
  pairing.setState({ state: 'paired' });
  render(startStates(window.comanda, 'desktop', false, takeEarlyBoard()));
} else {
  const base = kitchenBase(window.location);
  // What start.ts asked for as the page started: what this browser is, and the board.
  const early = takeEarlyBrowserBoard();
  const transport = createHttpTransport({
    base,
    onUnpaired: () => pairing.setState((s) => ({ state: s.state === 'paired' ? 'revoked' : 'unpaired' })),
  });
  render(null);
  void transport.session(early?.session).then((session) => {
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
    const bridge = createBridge(transport);
    render(startStates(bridge, session === 'admin' ? 'desktop' : 'tablet', true, early ? earlyOverHttp(transport, bridge, early.snapshot) : null));
  });
}
