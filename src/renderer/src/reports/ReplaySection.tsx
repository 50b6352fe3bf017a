// The replay of a past service (issue 33): the day's timeline read once (reports:replay), then each
// instant computed on the page (shared/kitchen-replay.ts): a scrubber with play at 1×, 10× and 60×,
// the board at that instant, each station's cooks as lanes of the items they had, the queue, and
// each order's promise beside when it was ready.
//
// Played, a frame is one second of service at 60×. Measured in Chromium (CDP trace), a frame that
// went through React spent most of its time outside the script: laying the page out again, a hit
// test for the resting mouse after each layout, painting and committing. So a frame only repaints the
// lanes' canvases (no DOM change, so no layout), their bars found by a binary search over an index
// built once (laneIndex, barsAt); React draws the clock, the scrubber, the queues and the board at
// most every SHOWN_EVERY_MS and SHOWN_EVERY_FRAMES while playing (a 60× step of 6 s of service), and at once when paused or
// scrubbed. The board keeps the cards it drew while no order moves (sameBoard, memo'd cards).
//
// The cursor (the clock, the scrubber's thumb and data-at) is written by hand, not by React: while
// playing, React draws only when the instant crossed one of the day's change instants
// (changeInstants, computed once: an order moved, was ready or late, a line was fired, taken, done or
// left the lanes), since between two of them the board, the queues and the lanes' bars are the same
// and only the bars' lengths grow, which the canvases paint. A tooltip over the lanes follows the
// instant from the lanes' painter.
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { barsAt, changeInstants, changeKey, laneIndex, REPLAY_COLUMNS, replayFrame, sameBoard, shownReady, type BoardCard, type KitchenReplay, type LaneBar, type ReplayColumn, type StationLaneIndex } from '../../../shared/kitchen-replay.ts';
import { LOCALE_OF, type Language } from '../../../shared/locale.ts';
import { errorMessage } from '../api.ts';
import { useApp } from '../app-context.tsx';
import type { InformesText } from './informes-text.ts';
import { boxAt, LANE_GAP, LANE_HEIGHT, LANE_LABEL_WIDTH, laneBoxes, pixelInstant, TOUCH_SLOP } from './lane-layout.ts';

const SPEEDS = [1, 10, 60] as const;
/** The lanes show the last half hour up to the instant. */
const LANE_WINDOW_MS = 30 * 60_000;
/** While playing, React draws the clock, the scrubber, the queues and the board at most this often (ms of this screen)… */
const SHOWN_EVERY_MS = 100;
/**
 * …and at most once in this many frames: on a loaded machine, once frames come over 100 ms apart
 * every frame would do that step's work too and come later still (measured: 5 ms of the main
 * thread a frame instead of 2, and a quarter of the frames over 50 ms; docs/informes.md, round 10).
 */
const SHOWN_EVERY_FRAMES = 4;

/** A bar's number, dark on the bars' light fills in both themes. */
const BAR_LABEL_INK = '#111';

/**
 * Repaints a station's lanes at an instant (a frame's only work while playing). Played, the canvas
 * paints only when the window slid a whole device pixel (pixelInstant): a frame in between paints nothing.
 */
type LanePainter = (at: number, played?: boolean) => void;

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** "21:30:05" in the restaurant's zone (one formatter per zone and language: a frame writes dozens). */
function clock(ms: number, zone: string, language: Language): string {
  const key = `${zone}\u001f${language}`;
  let format = clockFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALE_OF[language], { timeZone: zone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    clockFormats.set(key, format);
  }
  return format.format(ms);
}

/** Memo'd: drawn again only when its own props change (not when the screen around it does). */
export const ReplaySection = memo(function ReplaySection({ location, day, text, language, stationName }: { location: string; day: string; text: InformesText; language: Language; stationName: (id: string) => string }) {
  const { api } = useApp();
  const [replay, setReplay] = useState<KitchenReplay | null>(null);
  const [error, setError] = useState<string | null>(null);
  // `at` is the instant React last drew; atRef the instant itself (ahead of `at` while playing).
  const [at, setAt] = useState(0);
  const [speed, setSpeed] = useState<number>(0);
  const atRef = useRef(0);
  const painters = useRef(new Set<LanePainter>());
  const moveTo = (instant: number) => {
    atRef.current = instant;
    setAt(instant);
  };
  const lanes = useMemo(() => (replay ? laneIndex(replay) : []), [replay]);
  const changes = useMemo(() => (replay ? changeInstants(replay, LANE_WINDOW_MS) : []), [replay]);
  /** The change key of the instant React drew last (changeKey). */
  const drawnKey = useRef(Number.NaN);
  const root = useRef<HTMLDivElement | null>(null);
  const scrubber = useRef<HTMLInputElement | null>(null);
  const clockOutput = useRef<HTMLOutputElement | null>(null);
  const zoneRef = useRef('UTC');
  zoneRef.current = replay?.time_zone ?? 'UTC';
  const languageRef = useRef(language);
  languageRef.current = language;
  /** Writes the cursor (clock, scrubber, data-at) for an instant, with no React render. */
  const showCursor = useCallback((instant: number) => {
    if (root.current) root.current.dataset['at'] = String(instant);
    if (scrubber.current) scrubber.current.value = String(instant);
    if (clockOutput.current) clockOutput.current.textContent = clock(instant, zoneRef.current, languageRef.current);
  }, []);

  useEffect(() => {
    let current = true;
    setReplay(null);
    setError(null);
    setSpeed(0);
    api
      .kitchenReplay({ location_id: location, day })
      .then((answer) => {
        if (!current) return;
        setReplay(answer);
        moveTo(answer.start);
      })
      .catch((e: unknown) => current && setError(errorMessage(e)));
    return () => {
      current = false;
    };
  }, [api, location, day]);

  // Playing: the instant moves `speed` times as fast as this screen's clock, one step per frame; each
  // frame repaints the lanes, and React draws the rest every SHOWN_EVERY_MS (and where it stops).
  useEffect(() => {
    if (!replay || speed === 0) return;
    let last = performance.now();
    let shown = last;
    let framesSinceShown = 0;

    let handle = requestAnimationFrame(function step(now) {
      const next = Math.min(replay.end, atRef.current + (now - last) * speed);
      last = now;
      atRef.current = next;
      for (const paint of painters.current) paint(next, true);
      if (next >= replay.end) {
        setAt(next);
        setSpeed(0);
        return;
      }
      framesSinceShown++;
      if (now - shown >= SHOWN_EVERY_MS && framesSinceShown >= SHOWN_EVERY_FRAMES) {
        shown = now;
        framesSinceShown = 0;
        const key = changeKey(changes, next);
        // Drawn now, inside this frame: its DOM changes are laid out and painted with the lanes in
        // this frame's one pass (setAt alone renders in a task after it, so a second frame's pass).
        if (key !== drawnKey.current) {
          flushSync(() => setAt(next));
        } else showCursor(next);
      }
      handle = requestAnimationFrame(step);
    });
    return () => {
      cancelAnimationFrame(handle);
      setAt(atRef.current);
    };
  }, [replay, speed, changes, showCursor]);

  // The cursor of the instant React drew (scrubbed, paused, or a change while playing), and its change key.
  useLayoutEffect(() => {
    drawnKey.current = changeKey(changes, at);
    showCursor(at);
  }, [at, changes, language, showCursor]);

  const frame = useMemo(() => (replay ? replayFrame(replay, at, LANE_WINDOW_MS) : null), [replay, at]);
  // The board drawn last, kept while an instant would draw the same (sameBoard).
  const drawn = useRef<{ replay: KitchenReplay | null; board: { columns: Record<ReplayColumn, BoardCard[]>; at: number } | null }>({ replay: null, board: null });
  if (drawn.current.replay !== replay) drawn.current = { replay, board: null };
  if (frame && !(drawn.current.board && sameBoard(drawn.current.board.columns, frame.columns, drawn.current.board.at, at))) drawn.current.board = { columns: frame.columns, at };
  if (error) return <p className="notice notice-error" role="alert">{text('error', { message: error })}</p>;
  if (!replay || !frame) return <p className="muted">{text('loading')}</p>;
  if (replay.orders.length === 0) return <p className="muted" data-testid="replay-empty">{text('replay_empty')}</p>;
  const zone = replay.time_zone;
  return (
    <div className="replay" data-testid="replay" ref={root}>
      <div className="replay-controls">
        <button type="button" className={`btn ${speed === 0 ? 'btn-primary' : ''}`} data-testid="replay-pause" onClick={() => setSpeed(0)}>
          {text('replay_pause')}
        </button>
        {SPEEDS.map((s) => (
          <button
            key={s}
            type="button"
            className={`btn ${speed === s ? 'btn-primary' : ''}`}
            data-testid={`replay-play-${s}`}
            onClick={() => {
              if (atRef.current >= replay.end) moveTo(replay.start);
              setSpeed(s);
            }}
          >
            {text('replay_play', { speed: s })}
          </button>
        ))}
        <input
          type="range"
          className="replay-scrubber"
          data-testid="replay-scrubber"
          aria-label={text('replay_scrubber')}
          min={replay.start}
          max={replay.end}
          step={1000}
          ref={scrubber}
          defaultValue={replay.start}
          onChange={(e) => moveTo(Number(e.target.value))}
        />
        <output className="replay-clock" data-testid="replay-clock" ref={clockOutput} />
      </div>
      <p className="figure-big" data-testid="replay-queue">
        {text('replay_queue', { lines: frame.queue })}
      </p>
      <ReplayBoard columns={drawn.current.board!.columns} text={text} zone={zone} language={language} at={drawn.current.board!.at} />
      <div className="replay-stations">
        {frame.stations.map((station, i) => (
          <StationLanes key={station.station_id} index={lanes[i]!} queue={station.queue} bars={station.bars.length} name={stationName(station.station_id)} at={at} painters={painters.current} text={text} zone={zone} language={language} />
        ))}
      </div>
      {replay.truncated && <p className="muted">{text('list_truncated')}</p>}
    </div>
  );
});

const ReplayBoard = memo(function ReplayBoard({ columns, text, zone, language, at }: { columns: ReturnType<typeof replayFrame>['columns']; text: InformesText; zone: string; language: Language; at: number }) {
  const shown = REPLAY_COLUMNS.filter((c) => c === 'recibido' || c === 'en_preparacion' || c === 'listo' || columns[c].length > 0);
  return (
    <div className="replay-board" data-testid="replay-board">
      {shown.map((column) => (
        <section key={column} className="replay-column" data-testid={`replay-column-${column}`}>
          <h3>
            {text(`replay_state_${column}`)} ({columns[column].length})
          </h3>
          <ul>
            {columns[column].map((card) => {
              // Ready shown once the instant reached it; late when past the promise unready, or ready after it.
              const ready = shownReady(card, at);
              const late = card.late || (ready !== null && card.promised_ready_at !== null && ready > card.promised_ready_at);
              return <ReplayCard key={card.order} number={card.number} promised={card.promised_ready_at} ready={ready} late={late} text={text} zone={zone} language={language} />;
            })}
          </ul>
        </section>
      ))}
    </div>
  );
});

const ReplayCard = memo(function ReplayCard({ number, promised, ready, late, text, zone, language }: { number: string; promised: number | null; ready: number | null; late: boolean; text: InformesText; zone: string; language: Language }) {
  const hm = (ms: number) => clock(ms, zone, language).slice(0, 5);
  return (
    <li className={`replay-card ${late ? 'replay-late' : ''}`} data-testid="replay-card" data-number={number}>
      <strong>#{number}</strong>
      <span className="replay-promise">
        {promised === null ? text('replay_no_promise') : text('replay_promised', { at: hm(promised) })}
        {ready !== null && ` · ${text('replay_ready', { at: hm(ready) })}`}
        {late && ` · ${text('replay_late')}`}
      </span>
    </li>
  );
});

/** The bar a tooltip tells of, and where it stands over the canvas (CSS px from the canvas's top left). */
interface LaneTip {
  bar: LaneBar;
  x: number;
  y: number;
  /** The canvas's width then (read when hit-testing, not while rendering: no layout forced in a frame). */
  width: number;
}

/** A bar's identity across instants (its end moves while it cooks). */
const barKey = (bar: LaneBar) => `${bar.lane}:${bar.from}:${bar.number}`;

/**
 * A station's cook lanes on a canvas: "Cocinero N" and each lane, and the bars of the window up to
 * the instant (barsAt, laneBoxes). Played, the loop calls its painter each frame; React draws it again
 * only when the station or the shown instant changes. The canvas is as tall as the most lanes the
 * day needed, so the page does not move while playing.
 *
 * A canvas has no elements to hover, so the pointer is hit-tested against the bars the canvas shows
 * (boxAt): a mouse over a bar, a tap on or beside it (TOUCH_SLOP), or the arrow keys once the canvas
 * has focus, show the bar's order, item, station and cook, and its start and end, in a tooltip.
 */
const StationLanes = memo(function StationLanes({ index, queue, bars, name, at, painters, text, zone, language }: { index: StationLaneIndex; queue: number; bars: number; name: string; at: number; painters: Set<LanePainter>; text: InformesText; zone: string; language: Language }) {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const paintRef = useRef<LanePainter | null>(null);
  const lanes = useMemo(() => index.bars.reduce((most, bar) => Math.max(most, bar.lane + 1), index.lanes), [index]);
  const height = lanes * (LANE_HEIGHT + LANE_GAP);
  const atRef = useRef(at);
  atRef.current = at;
  /** The instant the canvas shows (ahead of `at` while playing): what a hit test must test against. */
  const shownAt = useRef(at);
  const [tip, setShownTip] = useState<LaneTip | null>(null);
  const tipRef = useRef<LaneTip | null>(null);
  /** Shows a tooltip, or none; followed each frame while playing, so React draws only when it changed. */
  const setTip = useCallback((next: LaneTip | null) => {
    const current = tipRef.current;
    if (next === current || (next && current && barKey(next.bar) === barKey(current.bar) && next.bar.cooking === current.bar.cooking && next.bar.to === current.bar.to && next.x === current.x && next.y === current.y && next.width === current.width)) return;
    tipRef.current = next;
    setShownTip(next);
  }, []);
  /** Moves an open tooltip with the instant the canvas shows (set once its callbacks exist). */
  const follow = useRef<() => void>(() => {});
  /** Where the pointer rests over the canvas, and its slop (a finger's is wider), while a tooltip follows it. */
  const pointer = useRef<{ x: number; y: number; slop: number } | null>(null);
  /** The bar the arrow keys chose, while the canvas has focus. */
  const chosen = useRef<string | null>(null);

  useEffect(() => {
    const element = canvas.current;
    const context = element?.getContext('2d');
    if (!element || !context) return;
    let width = 0;
    /** The lane area's width in device pixels (what a played frame must move by to paint). */
    let devicePixels = 0;
    /** Whether the lanes' names are painted at the canvas's current size (sizing a canvas clears it). */
    let labelled = false;
    let colors = { lane: '', done: '', cooking: '', text: '' };
    const labels = new Map<string, number>();
    const measure = (label: string) => {
      let w = labels.get(label);
      if (w === undefined) {
        w = context.measureText(label).width;
        labels.set(label, w);
      }
      return w;
    };
    // What the canvas shows (the instant at a width): React drawing the instant the frame loop just
    // painted repaints nothing.
    let painted = { instant: Number.NaN, width: 0 };
    const paint: LanePainter = (at, played = false) => {
      const instant = played ? pixelInstant(at, LANE_WINDOW_MS, devicePixels) : at;
      shownAt.current = instant;
      draw(instant);
      follow.current();
    };
    const draw = (instant: number) => {
      if (width === 0 || (painted.instant === instant && painted.width === width)) return;
      painted = { instant, width };
      const area = width - LANE_LABEL_WIDTH;
      context.textBaseline = 'middle';
      // "Cocinero N" stays as painted once per size (fillText was the played frame's largest script
      // cost): a frame clears and paints the lane area only.
      if (!labelled) {
        context.clearRect(0, 0, width, height);
        context.fillStyle = colors.text;
        for (let lane = 0; lane < lanes; lane++) context.fillText(text('replay_cook', { n: lane + 1 }), 0, lane * (LANE_HEIGHT + LANE_GAP) + LANE_HEIGHT / 2, LANE_LABEL_WIDTH - 4);
        labelled = true;
      } else context.clearRect(LANE_LABEL_WIDTH, 0, area, height);
      context.fillStyle = colors.lane;
      for (let lane = 0; lane < lanes; lane++) context.fillRect(LANE_LABEL_WIDTH, lane * (LANE_HEIGHT + LANE_GAP), area, LANE_HEIGHT);
      for (const box of laneBoxes(barsAt(index, instant, LANE_WINDOW_MS), instant, LANE_WINDOW_MS, area, measure)) {
        context.fillStyle = box.cooking ? colors.cooking : colors.done;
        context.fillRect(LANE_LABEL_WIDTH + box.x, box.y, box.width, LANE_HEIGHT);
        if (box.label) {
          context.fillStyle = BAR_LABEL_INK;
          context.fillText(box.label.text, LANE_LABEL_WIDTH + box.label.x, box.y + LANE_HEIGHT / 2);
        }
      }
    };
    // Sized to its box in device pixels (sharp on any screen), its colours and font read from the page's CSS.
    const resize = () => {
      const scale = window.devicePixelRatio || 1;
      width = element.clientWidth;
      devicePixels = Math.round((width - LANE_LABEL_WIDTH) * scale);
      element.width = Math.round(width * scale);
      element.height = Math.round(height * scale);
      labelled = false;
      const style = getComputedStyle(element);
      const color = (name: string) => style.getPropertyValue(name).trim();
      colors = { lane: color('--surface-2'), done: color('--ready'), cooking: color('--preparing'), text: style.color };
      context.setTransform(scale, 0, 0, scale, 0, 0);
      context.font = `12px ${style.fontFamily}`;
      labels.clear();
      painted = { instant: Number.NaN, width: 0 };
      paint(atRef.current);
    };
    const observer = new ResizeObserver(resize);
    observer.observe(element);
    paintRef.current = paint;
    painters.add(paint);
    return () => {
      observer.disconnect();
      painters.delete(paint);
      paintRef.current = null;
    };
  }, [index, lanes, height, painters, text]);

  useEffect(() => paintRef.current?.(at), [at]);

  /** The bars the canvas shows now, and their boxes (as painted; labels not needed). */
  const shown = useCallback(() => {
    const width = canvas.current?.clientWidth ?? 0;
    const instant = shownAt.current;
    const found = barsAt(index, instant, LANE_WINDOW_MS);
    return { width, bars: found, boxes: laneBoxes(found, instant, LANE_WINDOW_MS, Math.max(0, width - LANE_LABEL_WIDTH), () => Number.POSITIVE_INFINITY) };
  }, [index]);

  /** The tooltip for the point (canvas CSS px), or none off the bars. */
  const tipAt = useCallback(
    (x: number, y: number, slop: number) => {
      const { width, bars: found, boxes } = shown();
      const hit = boxAt(boxes, x - LANE_LABEL_WIDTH, y, slop);
      setTip(hit === -1 ? null : { bar: found[hit]!, x, y: boxes[hit]!.y + LANE_HEIGHT, width });
    },
    [shown],
  );

  /** The tooltip of the bar the arrow keys chose (found again at a new instant), or of the first/next one. */
  const tipOfChosen = useCallback(
    (step: number) => {
      const { width, bars: found, boxes } = shown();
      if (found.length === 0) {
        chosen.current = null;
        setTip(null);
        return;
      }
      const current = found.findIndex((bar) => barKey(bar) === chosen.current);
      const next = current === -1 ? (step < 0 ? found.length - 1 : 0) : Math.min(found.length - 1, Math.max(0, current + step));
      const box = boxes[next]!;
      chosen.current = barKey(found[next]!);
      setTip({ bar: found[next]!, x: LANE_LABEL_WIDTH + box.x + box.width / 2, y: box.y + LANE_HEIGHT, width });
    },
    [shown],
  );

  // As the instant moves (played or scrubbed), an open tooltip follows what is now under the pointer,
  // or the chosen bar: the painter calls this after each paint.
  follow.current = () => {
    if (pointer.current) tipAt(pointer.current.x, pointer.current.y, pointer.current.slop);
    else if (chosen.current) tipOfChosen(0);
  };

  // A tooltip opened by a tap closes on a tap anywhere else on the page.
  useEffect(() => {
    if (!tip || pointer.current?.slop !== TOUCH_SLOP) return;
    const away = (event: PointerEvent) => {
      if (event.target === canvas.current) return;
      pointer.current = null;
      setTip(null);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [tip]);

  const point = (event: React.PointerEvent<HTMLCanvasElement>, slop: number) => {
    const box = event.currentTarget.getBoundingClientRect();
    pointer.current = { x: event.clientX - box.left, y: event.clientY - box.top, slop };
    chosen.current = null;
    tipAt(pointer.current.x, pointer.current.y, slop);
  };
  const hm = (ms: number) => clock(ms, zone, language);
  const tipId = `replay-tip-${index.station_id}`;
  return (
    <figure className="replay-station" data-testid="replay-station" data-station={index.station_id}>
      <figcaption>
        {name} · {text('replay_station_queue', { lines: queue })}
      </figcaption>
      <div className="replay-lanes-holder">
        <canvas
          ref={canvas}
          className="replay-lanes"
          data-testid="replay-lanes"
          data-bars={bars}
          style={{ height }}
          role="img"
          tabIndex={0}
          aria-label={`${text('replay_lanes_of', { station: name })}. ${text('replay_lanes_hint')}`}
          aria-describedby={tip ? tipId : undefined}
          onPointerMove={(e) => e.pointerType === 'mouse' && point(e, 0)}
          onPointerDown={(e) => e.pointerType !== 'mouse' && point(e, TOUCH_SLOP)}
          onPointerLeave={(e) => {
            if (e.pointerType !== 'mouse') return;
            pointer.current = null;
            setTip(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
              e.preventDefault();
              pointer.current = null;
              tipOfChosen(e.key === 'ArrowRight' ? 1 : -1);
            } else if (e.key === 'Escape') {
              chosen.current = null;
              setTip(null);
            }
          }}
          onBlur={() => {
            if (!chosen.current) return;
            chosen.current = null;
            setTip(null);
          }}
        />
        {tip && (
          <div
            id={tipId}
            role="tooltip"
            className="replay-tip"
            data-testid="replay-tip"
            // On the pointer's side of the lanes that has room: left of it past the middle, right of it before.
            style={tip.x > tip.width / 2 ? { right: Math.max(0, tip.width - tip.x), top: tip.y + 4 } : { left: tip.x, top: tip.y + 4 }}
          >
            <strong>{text('replay_tip_order', { number: tip.bar.number })}</strong>
            <span>{text('replay_tip_item', { quantity: tip.bar.quantity, product: tip.bar.product })}</span>
            <span>{text('replay_tip_station', { station: name, cook: text('replay_cook', { n: tip.bar.lane + 1 }) })}</span>
            <span>{tip.bar.cooking ? text('replay_tip_cooking', { from: hm(tip.bar.from) }) : text('replay_tip_done', { from: hm(tip.bar.from), to: hm(tip.bar.to) })}</span>
          </div>
        )}
      </div>
    </figure>
  );
});
