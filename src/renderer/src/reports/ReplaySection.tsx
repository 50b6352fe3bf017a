// The replay of a past service (issue 33): the day's timeline read once (reports:replay), then each
// frame computed on the page (shared/kitchen-replay.ts): a scrubber with play at 1×, 10× and 60×, the
// board at that instant, each station's cooks as lanes of the items they had (SVG), the queue, and
// each order's promise beside when it was ready. Played, a frame redraws only what moved (the
// clock, the lanes' slide, the queues): the board and each station's bars keep what was drawn until
// an order moves or a line starts or ends (at 60× a frame is a second of service; redrawing every
// card and bar each frame gave frames over 50 ms).
import { memo, useEffect, useId, useMemo, useRef, useState } from 'react';
import { REPLAY_COLUMNS, replayFrame, sameBars, sameBoard, shownReady, steadyBars, type BoardCard, type KitchenReplay, type ReplayColumn, type SteadyBar } from '../../../shared/kitchen-replay.ts';
import { LOCALE_OF, type Language } from '../../../shared/locale.ts';
import { errorMessage } from '../api.ts';
import { useApp } from '../app-context.tsx';
import type { InformesText } from './informes-text.ts';

const SPEEDS = [1, 10, 60] as const;
/** The lanes show the last half hour up to the instant. */
const LANE_WINDOW_MS = 30 * 60_000;
const LANE_WIDTH = 600;
const LANE_HEIGHT = 18;

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
  const [at, setAt] = useState(0);
  const [speed, setSpeed] = useState<number>(0);
  const atRef = useRef(0);
  atRef.current = at;

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
        setAt(answer.start);
      })
      .catch((e: unknown) => current && setError(errorMessage(e)));
    return () => {
      current = false;
    };
  }, [api, location, day]);

  // Playing: the instant moves `speed` times as fast as this screen's clock, one step per frame.
  useEffect(() => {
    if (!replay || speed === 0) return;
    let last = performance.now();
    let handle = requestAnimationFrame(function step(now) {
      const next = Math.min(replay.end, atRef.current + (now - last) * speed);
      last = now;
      setAt(next);
      if (next >= replay.end) setSpeed(0);
      else handle = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(handle);
  }, [replay, speed]);

  const frame = useMemo(() => (replay ? replayFrame(replay, at, LANE_WINDOW_MS) : null), [replay, at]);
  // What was drawn last, kept while a frame would draw the same (sameBoard, sameBars).
  const drawn = useRef<{ replay: KitchenReplay | null; board: { columns: Record<ReplayColumn, BoardCard[]>; at: number } | null; bars: Map<string, SteadyBar[]> }>({ replay: null, board: null, bars: new Map() });
  if (drawn.current.replay !== replay) drawn.current = { replay, board: null, bars: new Map() };
  if (frame && !(drawn.current.board && sameBoard(drawn.current.board.columns, frame.columns, drawn.current.board.at, at))) drawn.current.board = { columns: frame.columns, at };
  const barsOf = (stationId: string, bars: SteadyBar[]) => {
    const before = drawn.current.bars.get(stationId);
    if (before && sameBars(before, bars)) return before;
    drawn.current.bars.set(stationId, bars);
    return bars;
  };
  if (error) return <p className="notice notice-error" role="alert">{text('error', { message: error })}</p>;
  if (!replay || !frame) return <p className="muted">{text('loading')}</p>;
  if (replay.orders.length === 0) return <p className="muted" data-testid="replay-empty">{text('replay_empty')}</p>;
  const zone = replay.time_zone;
  return (
    <div className="replay" data-testid="replay" data-at={at}>
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
              if (atRef.current >= replay.end) setAt(replay.start);
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
          value={at}
          onChange={(e) => setAt(Number(e.target.value))}
        />
        <output className="replay-clock" data-testid="replay-clock">
          {clock(at, zone, language)}
        </output>
      </div>
      <p className="figure-big" data-testid="replay-queue">
        {text('replay_queue', { lines: frame.queue })}
      </p>
      <ReplayBoard columns={drawn.current.board!.columns} text={text} zone={zone} language={language} at={drawn.current.board!.at} />
      <div className="replay-stations">
        {frame.stations.map((station) => (
          <StationLanes
            key={station.station_id}
            stationId={station.station_id}
            lanes={station.lanes}
            queue={station.queue}
            bars={barsOf(station.station_id, steadyBars(station))}
            name={stationName(station.station_id)}
            at={at}
            start={replay.start}
            end={replay.end}
            text={text}
          />
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

/** Milliseconds of service to the lanes' pixels (the window fills LANE_WIDTH). */
const LANE_SCALE = LANE_WIDTH / LANE_WINDOW_MS;

/**
 * A station's cook lanes: the bars sit on the lanes' own time axis (from the service's start) and
 * slide under a clip that shows the window up to the instant, so a frame moves one transform; a bar
 * still cooking runs on past the instant, where the clip ends it.
 */
function StationLanes({ stationId, lanes: cooks, queue, bars, name, at, start, end, text }: { stationId: string; lanes: number; queue: number; bars: SteadyBar[]; name: string; at: number; start: number; end: number; text: InformesText }) {
  const clip = useId();
  const lanes = Math.max(cooks, ...bars.map((b) => b.lane + 1));
  const height = lanes * (LANE_HEIGHT + 4);
  return (
    <figure className="replay-station" data-testid="replay-station" data-station={stationId}>
      <figcaption>
        {name} · {text('replay_station_queue', { lines: queue })}
      </figcaption>
      <svg viewBox={`0 0 ${LANE_WIDTH + 70} ${height}`} width="100%" role="img" aria-label={text('replay_lanes_of', { station: name })}>
        <defs>
          <clipPath id={clip}>
            <rect x={70} y={0} width={LANE_WIDTH} height={height} />
          </clipPath>
        </defs>
        {Array.from({ length: lanes }, (_, lane) => (
          <g key={lane}>
            <text x={0} y={lane * (LANE_HEIGHT + 4) + 13} className="lane-label">
              {text('replay_cook', { n: lane + 1 })}
            </text>
            <rect x={70} y={lane * (LANE_HEIGHT + 4)} width={LANE_WIDTH} height={LANE_HEIGHT} className="lane-bg" />
          </g>
        ))}
        <g clipPath={`url(#${clip})`}>
          <g transform={`translate(${70 + LANE_WIDTH - (at - start) * LANE_SCALE} 0)`}>
            <LaneBars bars={bars} start={start} end={end} />
          </g>
        </g>
      </svg>
    </figure>
  );
}

/** The bars on the lanes' time axis; drawn again only when the bars change (memo: the same list is kept while they do not). */
const LaneBars = memo(function LaneBars({ bars, start, end }: { bars: SteadyBar[]; start: number; end: number }) {
  const x = (ms: number) => (ms - start) * LANE_SCALE;
  return (
    <>
      {bars.map((bar) => {
        // A bar still cooking runs past the service's end (so past any instant): the clip ends it at the instant.
        const width = Math.max(2, x(bar.done ?? end) - x(bar.from) + (bar.done === null ? LANE_WIDTH : 0));
        return (
          <g key={`${bar.number}-${bar.from}-${bar.lane}`} data-testid="replay-bar" className={bar.done === null ? 'bar-cooking' : 'bar-done'}>
            <rect x={x(bar.from)} y={bar.lane * (LANE_HEIGHT + 4)} width={width} height={LANE_HEIGHT} rx={3} />
            <title>{`#${bar.number} ${bar.product}`}</title>
            {width > 40 && (
              <text x={x(bar.from) + 3} y={bar.lane * (LANE_HEIGHT + 4) + 13} className="bar-label">
                #{bar.number}
              </text>
            )}
          </g>
        );
      })}
    </>
  );
});
