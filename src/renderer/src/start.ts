// The page's first script, kept tiny: the board's snapshot is asked for (early-board.ts) before the
// app's script, loaded next, has been fetched and run: through the preload's bridge in the desktop
// app, over HTTP (with the question of what this browser is) on a tablet. The stylesheet is linked
// from here so it still loads with the page, not with the app's script.
import { kitchenBase, startEarlyBoard, startEarlyBrowserBoard } from './early-board.ts';
import './styles.css';

if (typeof window.comanda === 'object' && window.comanda !== null) startEarlyBoard(window.comanda);
else startEarlyBrowserBoard(kitchenBase(window.location));
void import('./main.tsx');
