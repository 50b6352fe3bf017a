// How the board fits the screen it is on: four columns side by side on a landscape tablet or a TV,
// paged two by two on a portrait tablet, one at a time on a phone; side panels inline only where
// there is room, else in a drawer.
import { useEffect, useState } from 'react';

export interface BoardFit {
  /** Columns shown side by side; the others are one tap away on the column tabs. */
  columnsPerPage: 1 | 2 | 4;
  /** Today, all-day, scheduled and awaiting payment beside the columns (else in a drawer). */
  sideInline: boolean;
}

export function boardFit(width: number): BoardFit {
  return {
    columnsPerPage: width >= 1100 ? 4 : width >= 700 ? 2 : 1,
    sideInline: width >= 1600,
  };
}

/** Above this many tickets in the columns, the automatic density turns compact. */
export const AUTO_COMPACT_ABOVE = 24;

/**
 * Tickets a column renders at first; more come in pages as the cook asks (or a ticket is revealed).
 * 16 is more than a TV column shows at once; measured in bench row 5 (quick runs, 500 tickets):
 * 30 gave 23-27 ms per change, 16 gives 18-23 ms.
 */
export const COLUMN_WINDOW = 16;

export function useViewportWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}
