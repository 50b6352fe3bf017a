// A line started at its station (issue 32): "▶ en curso · 3 min" laid over the line's own box, so
// that starting it moves nothing (its height was planned without the mark). It goes where the line's
// text leaves room for it, at its top right or its bottom right, else in its short form ("▶ 3 min");
// where neither form has room it is not drawn (the line's stripe and tint still say it is started)
// rather than hide a word of the dish. Its own component: the minutes change once a minute, and
// only this span re-renders for them.
import { memo, useLayoutEffect, useRef, useState } from 'react';
import { useClock, useT } from '../app-context.tsx';

type Place = 'top' | 'bottom' | 'none';

/** How far a word's box may reach into the mark's band, px: the room above its letters. */
const OVERLAP_PX = 4;
type Placement = { place: Place; short: boolean };

/** The rectangles of `line`'s own words (not the mark's). */
function wordRects(line: HTMLElement, mark: HTMLElement): DOMRect[] {
  const texts: DOMRect[] = [];
  const range = document.createRange();
  const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (mark.contains(node) || !node.textContent?.trim()) continue;
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) if (rect.width > 0) texts.push(rect);
  }
  return texts;
}

/** Where a mark of `width` × `height` px fits in `line` without covering its words. */
function placeFor(box: DOMRect, words: DOMRect[], width: number, height: number): Place {
  // The rightmost word within a band of the mark's height: the mark fits right of it, with a gap. A
  // word's box reaches above its letters (the font's ascent): one that enters the band by less than
  // OVERLAP_PX is not covered, which lets a one-line row at its least height take the mark on top.
  const fits = (top: number) =>
    box.right - words.filter((r) => Math.min(r.bottom, top + height) - Math.max(r.top, top) > OVERLAP_PX).reduce((max, r) => Math.max(max, r.right), box.left) >= width + 4;
  if (fits(box.top)) return 'top';
  if (fits(box.bottom - height)) return 'bottom';
  return 'none';
}

/** The long form where it fits, else the short one, else none. */
export function markPlacement(line: HTMLElement, mark: HTMLElement, long: HTMLElement, short: HTMLElement): Placement {
  const box = line.getBoundingClientRect();
  const words = wordRects(line, mark);
  const height = mark.getBoundingClientRect().height;
  // The mark's padding around either form.
  const padding = mark.getBoundingClientRect().width - (mark.classList.contains('short') ? short : long).getBoundingClientRect().width;
  const inLong = placeFor(box, words, long.getBoundingClientRect().width + padding, height);
  if (inLong !== 'none') return { place: inLong, short: false };
  return { place: placeFor(box, words, short.getBoundingClientRect().width + padding, height), short: true };
}

/** `since`: when it was started, on the screen's clock (null: not known yet, said without minutes). */
export const StartedMark = memo(function StartedMark({ since }: { since: number | null }) {
  const t = useT();
  const minutes = useClock((now) => (since === null ? 0 : Math.max(0, Math.floor((now - since) / 60_000))));
  const longText = minutes > 0 ? t('ticket.started_for', { minutes }) : t('ticket.started');
  const shortText = minutes > 0 ? t('ticket.started_short', { minutes }) : '▶';
  const ref = useRef<HTMLSpanElement>(null);
  const longRef = useRef<HTMLSpanElement>(null);
  const shortRef = useRef<HTMLSpanElement>(null);
  const [placement, setPlacement] = useState<Placement>({ place: 'top', short: false });
  // Placed before paint, again when its text or its line's size changes (a new width of card).
  useLayoutEffect(() => {
    const [mark, long, short] = [ref.current, longRef.current, shortRef.current];
    const line = mark?.parentElement;
    if (!mark || !line || !long || !short) return;
    const update = () => {
      const next = markPlacement(line, mark, long, short);
      setPlacement((old) => (old.place === next.place && old.short === next.short ? old : next));
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(line);
    return () => observer.disconnect();
  }, [longText, shortText]);
  const { place, short } = placement;
  return (
    <span
      ref={ref}
      className={`item-started place-${place} ${short ? 'short' : ''}`}
      data-testid="started-mark"
      data-minutes={minutes}
      data-place={place}
      data-form={short ? 'short' : 'long'}
      aria-hidden={place === 'none' || undefined}
      title={longText}
    >
      <span ref={longRef} className="mark-long">
        {longText}
      </span>
      <span ref={shortRef} className="mark-short">
        {shortText}
      </span>
    </span>
  );
});
