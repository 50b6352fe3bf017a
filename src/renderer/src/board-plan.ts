// How the board spends the screen on tickets, decided apart from React. Each state lane takes ticket
// columns in proportion to the work it holds (an empty lane shrinks to a narrow header with its
// count). Within a lane tickets flow like a newspaper: down a column and on into the next; a ticket
// that does not fit what is left of a column continues at the top of the next one as a fragment,
// so no column has a hole while tickets of its lane wait out of view. Every fragment carries the
// ticket's header (number, type, state colour, timer and its bump target). What does not fit is
// paged by whole columns. Pure: the geometry in, the plan out; the DOM draws the fragments as they
// are planned (BoardView.tsx).
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
  /** A lane's header (its name, count and pager), px high: thinner on a phone, where every row counts. */
  laneHead: number;
  /** A ticket's own buttons (cancel, reprint) sit in its header beside the bump, not in a row of their own (a phone). */
  buttonsInHead: boolean;
}

/** Below this width the screen is a phone: one lane per page, and the thinnest chrome (styles.css, max-width: 599px). */
export const PHONE_MAX_WIDTH = 599;

export type BoardDensity = 'comfortable' | 'compact';

export function boardMetrics(viewport: { width: number; height: number }, density: BoardDensity): BoardMetrics {
  const tv = viewport.width >= 1800 && viewport.height >= 900;
  const fontSize = tv ? 19 : density === 'compact' ? 14 : 15;
  const minCardWidth = tv ? (density === 'compact' ? 256 : 296) : density === 'compact' ? 220 : 246;
  const phone = viewport.width <= PHONE_MAX_WIDTH;
  return { fontSize, minCardWidth, gap: 8, collapsedWidth: 52, laneHead: phone ? 36 : 40, buttonsInHead: phone };
}

export type BoardLayoutKind = 'lanes' | 'flow';
export const BOARD_LAYOUTS: readonly BoardLayoutKind[] = ['lanes', 'flow'];

/** A ticket as the plan sees it: its header and its body's blocks (items, notes, facts…), px at the card width. */
export interface TicketHeights {
  head: number;
  blocks: number[];
}

export interface LaneInput {
  id: string;
  /** Its tickets in lane order (oldest first). */
  tickets: TicketHeights[];
}

/** Part of a ticket drawn in one column: its header and blocks [from, to) of its body. */
export interface Fragment {
  /** The ticket's index in its lane. */
  ticket: number;
  from: number;
  to: number;
  /** 0-based; `parts` in all. */
  part: number;
  parts: number;
  /** Its drawn height, px (padding included). */
  height: number;
}

export interface LaneFlow {
  /** Every column of the lane, in order, each with its fragments top to bottom. */
  columns: Fragment[][];
  /** Each ticket's first and last column. */
  spans: [number, number][];
}

/** A fragment's padding and borders, px, above and below its header and blocks. */
export const FRAGMENT_PAD = 8;

/**
 * Newspaper flow at a column height: a ticket goes where the last one ended; what does not fit
 * what is left of the column continues at the top of the next one, each part under its own header.
 * A ticket moves whole to the next column only when not even its header and first block fit
 * (a hole smaller than that); a block taller than a whole column is drawn alone and clipped.
 */
export function flowLane(tickets: readonly TicketHeights[], columnHeight: number, gap: number, pad = FRAGMENT_PAD): LaneFlow {
  const columns: Fragment[][] = [];
  const spans: [number, number][] = [];
  let column: Fragment[] = [];
  let used = 0;
  const nextColumn = () => {
    columns.push(column);
    column = [];
    used = 0;
  };
  tickets.forEach((ticket, index) => {
    const parts: Fragment[] = [];
    let from = 0;
    let first = -1;
    for (;;) {
      const space = columnHeight - used - (used > 0 ? gap : 0);
      let to = from;
      let height = ticket.head + pad;
      while (to < ticket.blocks.length && height + ticket.blocks[to]! <= space) height += ticket.blocks[to++]!;
      const fitsHead = height <= space;
      const done = to === ticket.blocks.length;
      // Nothing of the body fits (and some is left): a fresh column, unless this one is already fresh.
      if ((!fitsHead || (to === from && !done)) && used > 0) {
        nextColumn();
        continue;
      }
      if (to === from && !done) height += ticket.blocks[to++]!; // alone in a column and still too tall
      if (first < 0) first = columns.length;
      const fragment: Fragment = { ticket: index, from, to, part: parts.length, parts: 0, height: Math.min(height, columnHeight) };
      parts.push(fragment);
      column.push(fragment);
      used += (used > 0 ? gap : 0) + fragment.height;
      from = to;
      if (from >= ticket.blocks.length) break;
      nextColumn();
    }
    for (const part of parts) part.parts = parts.length;
    spans.push([first, columns.length]);
  });
  if (column.length > 0) columns.push(column);
  return { columns, spans };
}

/** Tickets wholly inside columns [start, start + count). */
export function ticketsInView(flow: LaneFlow, start: number, count: number): number {
  return flow.spans.reduce((n, [first, last]) => n + (first >= start && last < start + count ? 1 : 0), 0);
}

/**
 * The tickets a change may bring into a lane's view, by index: those drawn now (in part or whole)
 * and those of the `ahead` columns after the view, at most `max`. A ticket leaving the lane pulls
 * the rest up by its height, and a ticket is rarely taller than two columns: measured before the
 * change (BoardView.tsx, measured ahead), they make its plan the last, with no second plan before paint.
 */
export function ticketsNearView(flow: LaneFlow, start: number, count: number, ahead: number, max: number): number[] {
  const end = start + count + ahead;
  const near: number[] = [];
  for (let i = 0; i < flow.spans.length && near.length < max; i++) {
    const [first, last] = flow.spans[i]!;
    if (first >= end) break;
    if (last >= start) near.push(i);
  }
  return near;
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

export interface BoardPlanInput {
  /** The board's inner width and the height of a lane's ticket area, px. */
  width: number;
  height: number;
  metrics: BoardMetrics;
  /** Each lane's tickets as estimated at the narrowest card: they decide how columns are shared. */
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
  /** How many of its tickets are wholly in view on its first page, as planned. */
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

const columnsIn = (width: number, m: BoardMetrics) => Math.max(1, Math.floor((width + m.gap) / (m.minCardWidth + m.gap)));

/** Which lanes are shown, how many columns each gets and how wide a card is. */
export function planBoard(input: BoardPlanInput): BoardPlan {
  const { width, height, metrics: m, lanes } = input;
  const flows = lanes.map((lane) => flowLane(lane.tickets, height, m.gap));
  const busy = lanes.map((lane) => lane.tickets.length > 0);
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
  const needed = shownBusy.map((i) => Math.max(1, flows[i]!.columns.length));
  const neededSum = needed.reduce((a, b) => a + b, 0);
  // Enough room: each lane what it needs, the rest by how many tickets each holds (where the next
  // ones will come). Not enough: one column each, then each next column, one at a time, to the lane
  // with the most tickets per column it would then have (D'Hondt), among lanes that still hide some.
  let given: number[];
  if (neededSum <= total) {
    given = share(total - neededSum, shownBusy.map((i) => lanes[i]!.tickets.length), 0).map((extra, k) => needed[k]! + extra);
  } else {
    given = shownBusy.map(() => 1);
    for (let left = total - shownBusy.length; left > 0; left--) {
      let best = 0;
      let bestQuotient = -1;
      shownBusy.forEach((i, k) => {
        const count = lanes[i]!.tickets.length;
        const quotient = ticketsInView(flows[i]!, 0, given[k]!) < count ? count / (given[k]! + 1) : -1;
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
      needed: flows[i]!.columns.length,
      width: !shown ? 0 : collapsed ? m.collapsedWidth : columns * cardWidth + (columns - 1) * m.gap,
      collapsed,
      shown,
      inView: columns > 0 ? ticketsInView(flows[i]!, 0, columns) : 0,
    };
  });
  return { cardWidth, lanes: planned, paged, pages, page, inView: planned.reduce((n, l) => n + l.inView, 0) };
}

export interface LaneView {
  /** The first column in view. */
  start: number;
  /** Columns in view at once. */
  count: number;
  /** The lane's columns in all, and its pages of `count` columns ("2/3"). */
  total: number;
  page: number;
  pages: number;
  /** Tickets wholly in view, and the rest (counted in the lane's header). */
  inView: number;
  hidden: number;
}

/**
 * Which of a lane's columns are in view: from `start` (moved back to a whole page when the lane
 * shrank), or from the column where `reveal` (a ticket's index) begins when it is not wholly in view.
 */
export function viewLane(flow: LaneFlow, count: number, start: number, reveal: number | null = null): LaneView {
  const total = flow.columns.length;
  const pages = Math.max(1, Math.ceil(total / Math.max(1, count)));
  let first = Math.max(0, Math.min(start, (pages - 1) * count));
  if (reveal !== null && flow.spans[reveal]) {
    const [from, to] = flow.spans[reveal];
    if (from < first || to >= first + count) first = to - from < count ? Math.min(from, Math.max(0, total - count)) : from;
  }
  const inView = ticketsInView(flow, first, count);
  return { start: first, count, total, page: Math.min(pages, Math.ceil(first / Math.max(1, count)) + 1), pages, inView, hidden: flow.spans.length - inView };
}

/** What a ticket holds, for its height before it is drawn: its header and each block of its body. */
export interface TicketShape {
  /** Body blocks in order: lines of text each (wrapped at the card width), extra px for its own padding. */
  blocks: { texts: string[]; lines: number; extra: number }[];
}

/** The header of every fragment, px: the number, type and timer beside a bump target as high as it, never under 48 px. */
export function headHeight(fontSize: number): number {
  return Math.max(48, Math.round(fontSize * 2.9));
}

/**
 * A ticket's heights before it is drawn, from its lines at the card width (an average glyph is
 * about 0.55 em wide). Erring tall: a drawn block is measured and replaces its estimate.
 */
export function estimateTicket(shape: TicketShape, cardWidth: number, fontSize: number): TicketHeights {
  const line = Math.round(fontSize * 1.3);
  const perLine = Math.max(8, Math.floor((cardWidth - 28) / (fontSize * 0.56)));
  const wrapped = (text: string) => Math.max(1, Math.ceil(text.length / perLine));
  return {
    head: headHeight(fontSize),
    blocks: shape.blocks.map((block) => block.texts.reduce((h, text) => h + wrapped(text) * line, 0) + block.lines * line + block.extra),
  };
}
