// Where a station's cook lanes draw their bars (issue 33's replay): the window up to the instant
// fills the lane area, a bar is cut at its edges, and a bar's label starts where the bar shows. A bar
// that started before the window's left edge used to keep its label at its hidden start, cut at the
// edge ("#1" of "#142"); now its label starts at the edge, and shows only where it fits whole.
import type { LaneBar } from '../../../shared/kitchen-replay.ts';

export const LANE_HEIGHT = 18;
export const LANE_GAP = 4;
/** The space before the lanes for "Cocinero 1". */
export const LANE_LABEL_WIDTH = 76;
/** Room on each side of a bar's label. */
const LABEL_PAD = 3;

export interface LaneBox {
  x: number;
  y: number;
  width: number;
  cooking: boolean;
  /** The order's number where it fits whole inside the visible bar, else null. */
  label: { x: number; text: string } | null;
}

/**
 * The boxes of an instant's bars on a lane area `width` px wide showing [at - window, at]; x is from
 * the area's left edge. `measure` gives a label's width in px (the canvas's measureText).
 */
export function laneBoxes(bars: readonly LaneBar[], at: number, window: number, width: number, measure: (text: string) => number): LaneBox[] {
  const left = at - window;
  const scale = width / window;
  return bars.map((bar) => {
    const from = Math.max(0, (bar.from - left) * scale);
    const to = Math.min(width, (bar.to - left) * scale);
    const shown = Math.max(2, to - from);
    const text = `#${bar.number}`;
    return {
      x: from,
      y: bar.lane * (LANE_HEIGHT + LANE_GAP),
      width: shown,
      cooking: bar.cooking,
      label: measure(text) + 2 * LABEL_PAD <= shown ? { x: from + LABEL_PAD, text } : null,
    };
  });
}

/**
 * The instant a played canvas paints for `at`: the latest at or before it at which the window has
 * slid a whole number of device pixels (`devicePixels`: the lane area's width in them). Between two
 * such instants every bar's edge moves by less than a pixel, so a played frame that stays between
 * them has nothing new to paint: at 60× on a lane area of 500 px a pixel is 3.6 s of service, about
 * 3.6 frames, so the lanes are painted in about one frame of 3.6 instead of each one.
 */
export function pixelInstant(at: number, window: number, devicePixels: number): number {
  if (devicePixels <= 0) return at;
  const perPixel = window / devicePixels;
  return Math.floor(at / perPixel) * perPixel;
}

/** How far (px) a touch may land from a bar and still take it: a finger is broader than a mouse's point. */
export const TOUCH_SLOP = 8;

/**
 * The bar under a point of the lane area (x from the area's left edge, y from the canvas's top), as
 * laneBoxes placed them: the index into `boxes`, or -1. A point in a lane's row takes that lane's bar
 * under it or, within `slop` px, the nearest one (a tap on a 2 px bar); the gap between lanes belongs
 * to the lane above it only with slop.
 */
export function boxAt(boxes: readonly LaneBox[], x: number, y: number, slop = 0): number {
  const row = Math.floor(y / (LANE_HEIGHT + LANE_GAP));
  if (row < 0 || y - row * (LANE_HEIGHT + LANE_GAP) > LANE_HEIGHT + slop) return -1;
  let found = -1;
  let nearest = slop;
  boxes.forEach((box, i) => {
    if (box.y !== row * (LANE_HEIGHT + LANE_GAP)) return;
    const away = x < box.x ? box.x - x : x > box.x + box.width ? x - (box.x + box.width) : 0;
    if (away < nearest || (away === 0 && found === -1)) {
      found = i;
      nearest = away;
    }
  });
  return found;
}
