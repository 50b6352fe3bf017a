// The page's first script, kept tiny: the board's snapshot is asked for (early-board.ts) before the
// app's script, loaded next, has been fetched and run. The stylesheet is linked from here so it
// still loads with the page, not with the app's script.
import { startEarlyBoard } from './early-board.ts';
import './styles.css';

startEarlyBoard(window.comanda);
void import('./main.tsx');
