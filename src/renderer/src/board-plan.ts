// How the board spends the screen on tickets, decided apart from React: fixed-width cards flowing
// down columns; each state lane takes ticket columns in proportion to the work it holds (an empty
// lane shrinks to a narrow header with its count); a ticket taller than the screen continues in the
// next column ("sigue →"). Pure: the geometry in, the plan out. The DOM realises it with CSS columns.

/** Text and card sizes for a screen: larger type on a TV across the room, never under 14 px. */
export interface BoardMetrics {
  /** Item text, px. */
  fontSize: number;
  /** Narrowest a card may be, px. */
  minCardWidth: number;
  /** Between cards, px. */
  gap: number;
  /** An empty lane's header, px wide. */
  collapsedWidth: number;
}

export type BoardDensity = 'comfortable' | 'compact';

export function boardMetrics(viewport: { width: number; height: number }, density: BoardDensity): BoardMetrics {
  const tv = viewport.width >= 1800 && viewport.height >= 900;
  const fontSize = tv ? 19 : density === 'compact' ? 14 : 15;
  const minCardWidth = tv ? (density === 'compact' ? 270 : 296) : density === 'compact' ? 220 : 246;
  return { fontSize, minCardWidth, gap: 8, collapsedWidth: 52 };
}

export type BoardLayoutKind = 'lanes' | 'flow';
export const BOARD_LAYOUTS: readonly BoardLayoutKind[] = ['lanes', 'flow'];

export interface LaneInput {
  id: string;
  /** Each ticket's height at the card width, px, oldest first. */
  heights: number[];
}

export interface BoardPlanInput {
  /** The board's inner width and the height of a lane's ticket area, px. */
  width: number;
  height: number;
  metrics: BoardMetrics;
  lanes: LaneInput[];
  /** When not every lane with tickets fits side by side: which page of lanes is shown. */
  page?: number;
}

export interface LanePlan {
  id: string;
  /** Ticket columns given to it (0: collapsed to its header, or not on the shown page). */
  columns: number;
  /** Columns its tickets would need to be all in view at once. */
  needed: number;
  /** Its width, px (0 when not shown). */
  width: number;
  collapsed: boolean;
  shown: boolean;
  /** Indexes of its tickets taller than the screen: they continue in the next column. */
  split: number[];
  /** How many of its tickets are wholly in view, as planned. */
  inView: number;
}

export interface BoardPlan {
  cardWidth: number;
  lanes: LanePlan[];
  /** Lanes are paged (a phone, or more lanes with work than room): tabs choose the page. */
  paged: boolean;
  pages: number;
  page: number;
  /** Tickets wholly in view, as planned. */
  inView: number;
}

interface Flow {
  columns: number;
  split: number[];
  /** Tickets wholly inside the first `limit` columns. */
  inView(limit: number): number;
}

/**
 * Column-major flow at a column height: a ticket that does not fit what is left of a column starts
 * the next one; a ticket taller than a column starts a fresh one and runs over as many as it needs.
 */
export function flowColumns(heights: number[], columnHeight: number, gap: number): Flow {
  const ends: number[] = []; // the column each ticket ends in (1-based)
  const split: number[] = [];
  let column = 0;
  let used = 0;
  heights.forEach((h, index) => {
    if (column === 0) column = 1;
    if (h > columnHeight) {
      if (used > 0) column++;
      const parts = Math.ceil(h / columnHeight);
      column += parts - 1;
      used = h - (parts - 1) * columnHeight + gap;
      split.push(index);
    } else if (used > 0 && used + h > columnHeight) {
      column++;
      used = h + gap;
    } else {
      used += h + gap;
    }
    ends.push(column);
  });
  return {
    columns: column,
    split,
    inView: (limit) => ends.reduce((n, end, i) => n + (end <= limit && !split.includes(i) ? 1 : 0), 0),
  };
}

/** Shares `total` among weights, each share at least `floor`, by largest remainder (stable, sums exactly). */
export function share(total: number, weights: number[], floor: number): number[] {
  const base = weights.map(() => floor);
  let left = total - floor * weights.length;
  if (left <= 0) return base;
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return base;
  const exact = weights.map((w) => (w / sum) * left);
  const whole = exact.map(Math.floor);
  left -= whole.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0; k < left; k++) whole[order[k % order.length]!.i]!++;
  return base.map((b, i) => b + whole[i]!);
}

const columnsIn = (width: number, m: BoardMetrics) => Math.max(1, Math.floor((width + m.gap) / (m.minCardWidth + m.gap)));

export function planBoard(input: BoardPlanInput): BoardPlan {
  const { width, height, metrics: m, lanes } = input;
  const flows = lanes.map((lane) => flowColumns(lane.heights, height, m.gap));
  const busy = lanes.map((lane) => lane.heights.length > 0);
  const busyCount = busy.filter(Boolean).length;
  const empties = lanes.length - busyCount;

  // Room for every lane with work, the empty ones shrunk to their headers?
  const sideBySide = columnsIn(width - empties * (m.collapsedWidth + m.gap), m);
  const paged = busyCount > sideBySide || (lanes.length > 1 && columnsIn(width, m) < 2);
  let pageLanes: number[];
  let pages = 1;
  let page = 0;
  if (paged) {
    const perPage = Math.max(1, Math.min(lanes.length, columnsIn(width, m)));
    pages = Math.ceil(lanes.length / perPage);
    page = Math.min(Math.max(0, input.page ?? 0), pages - 1);
    pageLanes = lanes.map((_, i) => i).slice(page * perPage, (page + 1) * perPage);
  } else {
    pageLanes = lanes.map((_, i) => i);
  }
  // On a page of one lane, even an empty lane takes the whole width (it says "Sin pedidos").
  const shownBusy = pageLanes.filter((i) => busy[i] || pageLanes.length === 1);
  const collapsedCount = pageLanes.length - shownBusy.length;
  const room = width - collapsedCount * (m.collapsedWidth + m.gap);
  const total = Math.max(shownBusy.length, columnsIn(room, m));
  const needed = shownBusy.map((i) => Math.max(1, flows[i]!.columns));
  const neededSum = needed.reduce((a, b) => a + b, 0);
  // Enough room: each lane what it needs, the rest by how many tickets each holds (where the next
  // ones will come). Not enough: one column each, then each next column, one at a time, to the lane
  // with the most tickets per column it would then have (D'Hondt), among lanes that still hide some.
  let given: number[];
  if (neededSum <= total) {
    given = share(total - neededSum, shownBusy.map((i) => lanes[i]!.heights.length), 0).map((extra, k) => needed[k]! + extra);
  } else {
    given = shownBusy.map(() => 1);
    for (let left = total - shownBusy.length; left > 0; left--) {
      let best = 0;
      let bestQuotient = -1;
      shownBusy.forEach((i, k) => {
        const count = lanes[i]!.heights.length;
        const quotient = flows[i]!.inView(given[k]!) < count ? count / (given[k]! + 1) : -1;
        if (quotient > bestQuotient) [best, bestQuotient] = [k, quotient];
      });
      given[best]!++;
    }
  }
  const columnsOf = new Map(shownBusy.map((i, k) => [i, given[k]!]));
  const columnCount = given.reduce((a, b) => a + b, 0);
  const laneGaps = (shownBusy.length - 1) * m.gap;
  const cardWidth = Math.floor((room - laneGaps - (columnCount - shownBusy.length) * m.gap) / Math.max(1, columnCount));

  const planned = lanes.map((lane, i): LanePlan => {
    const shown = pageLanes.includes(i);
    const columns = columnsOf.get(i) ?? 0;
    const collapsed = shown && columns === 0;
    return {
      id: lane.id,
      columns,
      needed: flows[i]!.columns,
      width: !shown ? 0 : collapsed ? m.collapsedWidth : columns * cardWidth + (columns - 1) * m.gap,
      collapsed,
      shown,
      split: flows[i]!.split,
      inView: columns > 0 ? flows[i]!.inView(columns) : 0,
    };
  });
  return { cardWidth, lanes: planned, paged, pages, page, inView: planned.reduce((n, l) => n + l.inView, 0) };
}

/** What a ticket holds, for its height: lines of text at the card's width. */
export interface TicketShape {
  items: { text: string; modifiers: number; note: string | null }[];
  /** Lines besides the items: customer, payment, courier, scheduled time, countdown, notes… */
  extraLines: number;
  /** Free-text order note, if any. */
  note: string | null;
  hasActions: boolean;
}

/**
 * A ticket's height before it is drawn, from its lines at the card width (an average glyph is
 * about 0.55 em wide). The plan only needs it roughly: the browser lays the cards out itself.
 */
export function estimateTicketHeight(shape: TicketShape, cardWidth: number, fontSize: number): number {
  const line = Math.round(fontSize * 1.35);
  const perLine = Math.max(8, Math.floor((cardWidth - 24) / (fontSize * 0.55)));
  const lines = (text: string) => Math.max(1, Math.ceil(text.length / perLine));
  let h = 12 + Math.round(fontSize * 1.7); // padding and the header line
  for (const item of shape.items) {
    h += lines(item.text) * line + item.modifiers * Math.round(line * 0.92) + 4;
    if (item.note) h += lines(item.note) * line;
  }
  if (shape.note) h += lines(shape.note) * line + 8;
  h += shape.extraLines * Math.round(line * 0.92);
  if (shape.hasActions) h += 60;
  return h;
}
