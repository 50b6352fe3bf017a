import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from './api.ts';
import { App } from './App.tsx';
import { AppContext, type AppStores } from './app-context.tsx';
import { createBoardStore } from './stores/board-store.ts';
import { createKeysStore } from './stores/keys-store.ts';
import { createLocationsStore } from './stores/locations-store.ts';
import { createSettingsStore } from './stores/settings-store.ts';
import { createStockStore } from './stores/stock-store.ts';
import './styles.css';

const api = createApi(window.comanda);
const stores: AppStores = {
  api,
  board: createBoardStore({ api }),
  settings: createSettingsStore({ api }),
  stock: createStockStore({ api }),
  locations: createLocationsStore({ api }),
  keys: createKeysStore({ api }),
};

// Every live push goes to each store that shows something it may change.
api.onLive((push) => {
  stores.board.getState().receive(push);
  stores.stock.getState().receive(push);
  stores.locations.getState().receive(push);
});
void stores.settings.getState().load();
void stores.board.getState().load();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppContext.Provider value={stores}>
      <App />
    </AppContext.Provider>
  </StrictMode>,
);
