// How large the pickup screen's numbers can be: each list is laid out as a grid filling its column,
// and the grid (how many across) is the one that gives the largest type with every number whole.
// Few numbers come out huge; thirty still fit, read from across the room. Pure: measured sizes in,
// columns and font size out (PickupScreen.tsx measures and applies).

/** A digit's advance in ems where the font cannot be measured (bold DejaVu Sans's is 0.70). */
const DIGIT_EM = 0.72;
/** Any other character (a replica's "L12"). */
const OTHER_EM = 0.85;
/** Space around a number inside its cell, left and right together (padding and gap), in ems. */
const CELL_SIDE_EM = 0.5;
/** A number's line height, with the gap under it, in ems. */
const CELL_LINE_EM = 1.2;
/** A first name, under its number: its size and the line it takes, in the number's ems. */
export const NAME_EM = 0.3;
const NAME_LINE_EM = 0.42;
/** A name's character advance, in its own ems, where the font cannot be measured. */
const NAME_CHAR_EM = 0.7;

export interface PickupFitInput {
  /** The list's box, in CSS pixels. */
  width: number;
  height: number;
  /** The numbers it holds and, when shown, their first names. */
  numbers: { number: string; first_name?: string }[];
  /** The largest size this list may take (a short list does not fill the column with one number). */
  maxFontPx: number;
  /** The smallest: below it, numbers would clip; a list this long is rare at a counter. */
  minFontPx?: number;
  /** A text's width in ems of the numbers' font and of the names' (measured on the screen; estimated without). */
  numberEm?: (text: string) => number;
  nameEm?: (text: string) => number;
}

export interface PickupFit {
  columns: number;
  fontPx: number;
}

/** The width of a number in ems of its font, estimated: digits narrow, anything else wider. */
export function estimatedNumberEm(text: string): number {
  let em = 0;
  for (const ch of text) em += /[0-9]/.test(ch) ? DIGIT_EM : OTHER_EM;
  return em;
}

export function fitPickupNumbers(input: PickupFitInput): PickupFit {
  const { width, height, numbers, maxFontPx } = input;
  const minFontPx = input.minFontPx ?? 12;
  const count = numbers.length;
  if (count === 0 || width <= 0 || height <= 0) return { columns: 1, fontPx: maxFontPx };
  const numberEm = input.numberEm ?? estimatedNumberEm;
  const nameEm = input.nameEm ?? ((name: string) => Array.from(name).length * NAME_CHAR_EM);
  const named = numbers.some((n) => n.first_name !== undefined);
  // The widest cell any number (or its name, at its smaller size) needs, in the number's ems.
  const cellEm =
    CELL_SIDE_EM +
    Math.max(...numbers.map((n) => Math.max(numberEm(n.number), n.first_name === undefined ? 0 : nameEm(n.first_name) * NAME_EM)));
  const lineEm = CELL_LINE_EM + (named ? NAME_LINE_EM : 0);
  let best: PickupFit = { columns: 1, fontPx: 0 };
  for (let columns = 1; columns <= count; columns++) {
    const rows = Math.ceil(count / columns);
    const fontPx = Math.min(width / (columns * cellEm), height / (rows * lineEm));
    if (fontPx > best.fontPx) best = { columns, fontPx };
  }
  return { columns: best.columns, fontPx: Math.max(minFontPx, Math.min(maxFontPx, Math.floor(best.fontPx))) };
}

/** Margin on a measured width: the font's hinting at another size, subpixel rounding. */
const MEASURED_MARGIN = 1.06;

/**
 * Measures texts in ems of the screen's own font (a canvas, the same family and weight as the CSS),
 * so the numbers are as large as the font in use allows; null where a canvas cannot measure.
 */
export function canvasEm(weight: number, family: string): ((text: string) => number) | null {
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!context) return null;
  context.font = `${weight} 100px ${family}`;
  const cache = new Map<string, number>();
  return (text) => {
    let em = cache.get(text);
    if (em === undefined) {
      em = (context.measureText(text).width / 100) * MEASURED_MARGIN;
      if (cache.size > 500) cache.clear();
      cache.set(text, em);
    }
    return em;
  };
}
