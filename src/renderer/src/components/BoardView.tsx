import { startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { KitchenOrder, OrderStatus } from '../../../shared/screen-contract/kitchen.ts';
import { useApp, useBoard, useClock, usePreferences, useT } from '../app-context.tsx';
import { byTimer, COLUMNS, FREEZE_MS, isColumnStatus, lateKey, layoutBoard, recalledKey, ticketBlocks, type BoardLayout, type ShownTicket, type TicketBlock } from '../board-logic.ts';
import { boardMetrics, estimateTicket, flowLane, headHeight, planBoard, ticketsNearView, viewLane, type BoardPlan, type LaneFlow, type LanePlan, type LaneView, type TicketHeights } from '../board-plan.ts';
import { shownTickets } from '../state/board-state.ts';
import { ScreenMenu } from './ScreenMenu.tsx';
import { TicketCard, type TicketFragmentProps } from './TicketCard.tsx';

/** Above this many tickets in the lanes, the automatic density turns compact. */
const AUTO_COMPACT_ABOVE = 24;
/** Below this width, px, a lane's header is drawn tighter (styles.css, .lane.narrow) so its name, count and pager stay whole. */
const NARROW_LANE = 260;
/** A lane's coloured top border, px (styles.css: .lane): the lane's body is what is left under it and its header. */
const LANE_BORDER = 4;

/**
 * Each ticket's estimates, once per version of it and of what shapes it, at each card width asked
 * for: a plan asks for two (the narrowest card, to share the columns, then the card's own width),
 * and one entry per ticket made the two evict each other, so every plan estimated every ticket twice.
 */
const estimateCache = new WeakMap<ShownTicket, Map<string, TicketHeights>>();
/** Card widths a ticket's estimates are kept for: the two of a plan, and those of a resize or two. */
const ESTIMATES_PER_TICKET = 4;
/**
 * Each ticket's blocks as drawn, measured, by order and by what each block says: they replace the
 * estimate at that card width, type size and shape (`key`), and outlive a new version of the order
 * whose blocks read the same (a move confirmed by the engine does not make the board measure, and
 * shift, again). A block known here is not read again when a new element draws it (the ticket
 * moved lanes, or came into view): reading it would force a layout in the frame of a change.
 */
const measuredCache = new Map<string, { key: string; blocks: Map<string, number>; version: number }>();
/**
 * Columns after a lane's view whose tickets are measured ahead, between changes: a ticket leaving
 * the lane pulls the next ones into view, and planned on estimates they were drawn, measured,
 * found different and planned again before paint (7 of 8 transitions of bench row 5 planned twice).
 */
const MEASURE_AHEAD_COLUMNS = 2;
/** At most this many tickets per lane, and for the whole board, measured ahead in one pass. */
const MEASURE_AHEAD_PER_LANE = 16;
const MEASURE_AHEAD_MAX = 40;
/**
 * Each ticket's heights at the card width, from its measured blocks, while neither they nor the
 * ticket changed: a plan asks for every ticket's, and building each block's signature for it, 500
 * tickets on every change, was a tenth of the change's work.
 */
const heightsCache = new WeakMap<ShownTicket, { key: string; measured: object; version: number; heights: TicketHeights }>();
const blockSignature = (block: TicketBlock) => `${block.kind}:${block.index ?? ''}:${block.lines}:${block.texts.join('|')}`;
const blocksCache = new WeakMap<ShownTicket, { key: string; blocks: TicketBlock[] }>();

/**
 * The element's inner size, followed as it changes (the element comes and goes: a callback ref).
 * It is read as the element is attached, so the render that follows is at the real size: before,
 * the first plan was made at a guessed width, and its cards drawn and measured only to be thrown away.
 */
function useElementSize(): [(element: HTMLElement | null) => void, { width: number; height: number }] {
  const [element, setElementState] = useState<HTMLElement | null>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const setElement = useCallback((attached: HTMLElement | null) => {
    setElementState(attached);
    if (attached) setSize((old) => (old.width === attached.clientWidth && old.height === attached.clientHeight ? old : { width: attached.clientWidth, height: attached.clientHeight }));
  }, []);
  useLayoutEffect(() => {
    if (!element) return;
    const measure = () => setSize((old) => (old.width === element.clientWidth && old.height === element.clientHeight ? old : { width: element.clientWidth, height: element.clientHeight }));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [setElement, size];
}

/** A fragment as drawn: which ticket, which of its blocks, how tall. */
interface DrawnFragment {
  orderId: string;
  from: number;
  to: number;
  part: number;
  parts: number;
  height: number;
}

/** A lane as drawn: its plan, the columns in view and what they hold. */
interface DrawnLane {
  id: string;
  plan: LanePlan;
  view: LaneView;
  count: number;
  columns: DrawnFragment[][];
  /** Tickets wholly in view. */
  inView: string[];
}

interface DrawnBoard {
  plan: BoardPlan;
  lanes: DrawnLane[];
  /** Tickets near the view (drawn, or next to come into it) with a block not measured yet: measured ahead. */
  unmeasured: string[];
  /** What shaped the tickets' blocks (density, station, layout): a frozen board of another shape is let go. */
  shape: string;
}

export function BoardView({ onCancel }: { onCancel(order: KitchenOrder): void }) {
  const t = useT();
  const { board } = useApp();
  // A stable callback, so the memoized cards do not re-render when the parent makes a new one.
  const latestCancel = useRef(onCancel);
  latestCancel.current = onCancel;
  const cancel = useCallback((order: KitchenOrder) => latestCancel.current(order), []);
  const tickets = useBoard((s) => s.tickets);
  const pending = useBoard((s) => s.pending);
  const flashes = useBoard((s) => s.flashes);
  const loaded = useBoard((s) => s.loaded);
  const loadError = useBoard((s) => s.loadError);
  const locations = useBoard((s) => s.locations);
  const stations = useBoard((s) => s.stations);
  const printers = useBoard((s) => s.printerCount);
  const filter = useBoard((s) => s.locationFilter);
  const stationFilter = useBoard((s) => s.stationFilter);
  const clockOffset = useBoard((s) => s.clockOffset);
  const recallOpen = useBoard((s) => s.recallOpen);
  const focusRequest = useBoard((s) => s.focusRequest);
  const density = usePreferences((s) => s.density);
  const layoutKind = usePreferences((s) => s.layout);
  const [lanesRef, size] = useElementSize();
  const [page, setPage] = useState(0);
  /** Each lane's first column in view. */
  const [starts, setStarts] = useState<Record<string, number>>({});
  /** A ticket to bring into view, with the request it answers. */
  const [reveal, setReveal] = useState<{ orderId: string; seq: number } | null>(null);
  const [measuredVersion, setMeasuredVersion] = useState(0);
  /** Tickets drawn out of sight for one commit, to be measured before a change brings them into view. */
  const [measuring, setMeasuring] = useState<string[]>([]);

  const shown = useMemo(() => shownTickets({ tickets, pending, flashes }), [tickets, pending, flashes]);
  const byId = useMemo(() => new Map(shown.map((x) => [x.order.id, x])), [shown]);
  const recalledIds = useClock((now) => recalledKey(tickets, now + clockOffset));
  const lateOnly = useBoard((s) => s.lateOnly);
  const lateIds = useClock((now) => (lateOnly ? lateKey(shown, now + clockOffset) : null));
  const layout = useMemo(
    () =>
      layoutBoard(shown, filter, {
        recalled: new Set(recalledIds.split(',').filter(Boolean)),
        stationId: stationFilter,
        lateOnly: lateIds === null ? null : new Set(lateIds.split(',').filter(Boolean)),
      }),
    [shown, filter, recalledIds, stationFilter, lateIds],
  );
  const inLanes = COLUMNS.reduce((n, c) => n + layout.columns[c].length, 0);
  const compact = density === 'compact' || (density === 'auto' && inLanes > AUTO_COMPACT_ABOVE);
  const flow = layoutKind === 'flow';
  const metrics = boardMetrics({ width: window.innerWidth, height: window.innerHeight }, compact ? 'compact' : 'comfortable');
  const bodyHeight = Math.max(120, size.height - metrics.laneHead - LANE_BORDER);

  // A ticket's body, block by block: what the card draws and what the plan estimates.
  const blockKey = `${compact}:${stationFilter}:${stations.length}:${flow}:${printers > 0}:${metrics.buttonsInHead}`;
  const blocksOf = useCallback(
    (x: ShownTicket): TicketBlock[] => {
      const known = blocksCache.get(x);
      if (known && known.key === blockKey) return known.blocks;
      const managed = x.kitchen.managed_by !== null || x.order.managed_by_integrator;
      const actions = stationFilter === null && ((!managed && isColumnStatus(x.shownStatus)) || printers > 0);
      // Buttons in the header (a phone) take no row of the body.
      const blocks = ticketBlocks(x, { compact, stationId: stationFilter, withStations: stations.length > 0, showState: flow, actions: actions && !metrics.buttonsInHead });
      blocksCache.set(x, { key: blockKey, blocks });
      return blocks;
    },
    [blockKey, compact, stationFilter, stations.length, flow, printers, metrics.buttonsInHead],
  );

  const live: DrawnBoard = useMemo(() => {
    // Not laid out yet (the lanes' element is being attached): nothing to plan or draw.
    if (size.width === 0) return { plan: { cardWidth: 0, lanes: [], paged: false, pages: 1, page: 0, inView: 0 }, lanes: [], unmeasured: [], shape: blockKey };
    const laneTickets: { id: string; tickets: ShownTicket[] }[] = flow
      ? [{ id: 'flow', tickets: COLUMNS.flatMap((c) => layout.columns[c]).sort(byTimer) }]
      : COLUMNS.map((c) => ({ id: c, tickets: layout.columns[c] }));
    const estimateKey = `${blockKey}:${metrics.fontSize}`;
    const estimate = (x: ShownTicket, width: number): TicketHeights => {
      const key = `${estimateKey}:${width}`;
      let known = estimateCache.get(x);
      const heights = known?.get(key);
      if (heights) return heights;
      if (!known || known.size >= ESTIMATES_PER_TICKET) estimateCache.set(x, (known = new Map()));
      const fresh = estimateTicket({ blocks: blocksOf(x) }, width, metrics.fontSize);
      known.set(key, fresh);
      return fresh;
    };
    // Columns are shared among lanes on estimates at the narrowest card (stable: drawing a ticket
    // does not change how many columns a lane gets); the tickets then flow at the card's width,
    // on their measured blocks where they were drawn.
    const plan = planBoard({
      width: Math.max(200, size.width),
      height: bodyHeight,
      metrics,
      lanes: laneTickets.map((lane) => ({ id: lane.id, tickets: lane.tickets.map((x) => estimate(x, metrics.minCardWidth)) })),
      page,
    });
    const head = headHeight(metrics.fontSize);
    const key = `${estimateKey}:${plan.cardWidth}`;
    const heightsAt = (x: ShownTicket): TicketHeights => {
      const guess = estimate(x, plan.cardWidth);
      const measured = measuredCache.get(x.order.id);
      if (!measured || measured.key !== key) return guess;
      const known = heightsCache.get(x);
      if (known && known.key === key && known.measured === measured && known.version === measured.version) return known.heights;
      const blocks = blocksOf(x);
      const heights = { head, blocks: guess.blocks.map((h, i) => measured.blocks.get(blockSignature(blocks[i]!)) ?? h) };
      heightsCache.set(x, { key, measured, version: measured.version, heights });
      return heights;
    };
    const unmeasured: string[] = [];
    const lanes = laneTickets.map((lane, index): DrawnLane => {
      const lanePlan = plan.lanes[index]!;
      const laneFlow: LaneFlow = lanePlan.columns > 0 ? flowLane(lane.tickets.map(heightsAt), bodyHeight, metrics.gap) : { columns: [], spans: [] };
      const revealIndex = reveal ? lane.tickets.findIndex((x) => x.order.id === reveal.orderId) : -1;
      const view = viewLane(laneFlow, lanePlan.columns, starts[lane.id] ?? 0, revealIndex >= 0 ? revealIndex : null);
      const columns = laneFlow.columns.slice(view.start, view.start + view.count).map((column) =>
        column.map((f) => ({ orderId: lane.tickets[f.ticket]!.order.id, from: f.from, to: f.to, part: f.part, parts: f.parts, height: f.height })),
      );
      const inView = lane.tickets.filter((_, i) => {
        const span = laneFlow.spans[i];
        return span !== undefined && span[0] >= view.start && span[1] < view.start + view.count;
      });
      for (const i of ticketsNearView(laneFlow, view.start, view.count, MEASURE_AHEAD_COLUMNS, MEASURE_AHEAD_PER_LANE)) {
        const x = lane.tickets[i]!;
        const measured = measuredCache.get(x.order.id);
        const known = measured !== undefined && measured.key === key && blocksOf(x).every((b) => measured.blocks.has(blockSignature(b)));
        if (!known && unmeasured.length < MEASURE_AHEAD_MAX) unmeasured.push(x.order.id);
      }
      return { id: lane.id, plan: lanePlan, view, count: lane.tickets.length, columns, inView: inView.map((x) => x.order.id) };
    });
    return { plan, lanes, unmeasured, shape: blockKey };
    // measuredVersion: measured blocks came in (measuredCache is read, not watched).
  }, [layout, flow, blockKey, blocksOf, metrics.fontSize, metrics.minCardWidth, metrics.gap, size.width, bodyHeight, page, starts, reveal, measuredVersion]);

  // Nothing moves under a finger: from a touch until FREEZE_MS after the last one, the board is
  // drawn as it was at the first touch (each card shows its ticket's current state in place).
  const [frozen, setFrozen] = useState<DrawnBoard | null>(null);
  const liveRef = useRef(live);
  liveRef.current = live;
  const frozenRef = useRef<DrawnBoard | null>(null);
  const releaseTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onTouch = useCallback((event: { target: EventTarget | null }) => {
    // The pager and the new-orders indicator move the view on purpose.
    if (event.target instanceof Element && event.target.closest('[data-moves-view]')) return;
    // A touch elsewhere ends a reveal: from now the lane keeps the start it has.
    setReveal(null);
    if (frozenRef.current === null) {
      frozenRef.current = liveRef.current;
      setFrozen(liveRef.current);
    }
    if (releaseTimer.current !== null) clearTimeout(releaseTimer.current);
    releaseTimer.current = setTimeout(() => {
      releaseTimer.current = null;
      frozenRef.current = null;
      setFrozen(null);
    }, FREEZE_MS);
  }, []);
  const unfreeze = useCallback(() => {
    if (releaseTimer.current !== null) clearTimeout(releaseTimer.current);
    releaseTimer.current = null;
    frozenRef.current = null;
    setFrozen(null);
  }, []);
  useEffect(() => () => {
    if (releaseTimer.current !== null) clearTimeout(releaseTimer.current);
  }, []);
  const drawn = frozen !== null && frozen.shape === live.shape && frozen.plan.cardWidth === live.plan.cardWidth ? frozen : live;

  // Drawn blocks are measured; where they differ from what was planned, the plan is made again
  // (before the frame is painted: useLayoutEffect), so a fragment always holds what it shows.
  // Only blocks not measured before are read: a commit that draws no new kind of block (a ticket
  // measured ahead comes into view, one moves lanes) forces no layout of its own.
  const boardRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    // The cards measured ahead are drawn for this commit only: gone before the frame, and before
    // anything else (a test, a tap) can see them.
    if (measuring.length > 0) setMeasuring([]);
    if (drawn !== live || !boardRef.current) return;
    const key = `${blockKey}:${metrics.fontSize}:${live.plan.cardWidth}`;
    let changedInView = false;
    let changedAhead = false;
    for (const element of boardRef.current.querySelectorAll<HTMLElement>('.lanes article[data-order-id]')) {
      const ticket = byId.get(element.dataset.orderId!);
      if (!ticket) continue;
      const ahead = element.closest('.measure-ahead') !== null;
      const blocks = blocksOf(ticket);
      let entry = measuredCache.get(ticket.order.id);
      if (!entry || entry.key !== key) measuredCache.set(ticket.order.id, (entry = { key, blocks: new Map(), version: 0 }));
      for (const drawn of element.querySelectorAll<HTMLElement>('[data-block]')) {
        const block = blocks[Number(drawn.dataset.block)];
        if (!block) continue;
        const signature = blockSignature(block);
        if (entry.blocks.has(signature)) continue;
        entry.blocks.set(signature, Math.ceil(drawn.getBoundingClientRect().height));
        entry.version++;
        if (ahead) changedAhead = true;
        else changedInView = true;
      }
    }
    // Bounded: orders that left the board are forgotten.
    if (measuredCache.size > byId.size * 2 + 64) for (const id of measuredCache.keys()) if (!byId.has(id)) measuredCache.delete(id);
    // A drawn fragment must hold what it shows: planned again before paint. Tickets measured ahead
    // are out of view: their plan can wait for an idle moment.
    if (changedInView) setMeasuredVersion((v) => v + 1);
    else if (changedAhead) startTransition(() => setMeasuredVersion((v) => v + 1));
  });
  // Between changes (after the frame is painted): the tickets a change may bring into view are drawn
  // out of sight and measured, in one task of their own.
  useEffect(() => {
    if (drawn !== live || live.unmeasured.length === 0) return;
    const ids = live.unmeasured;
    const timer = setTimeout(() => flushSync(() => setMeasuring(ids)), 0);
    return () => clearTimeout(timer);
  }, [drawn, live]);

  const locationName = (ticket: ShownTicket) =>
    filter === null && locations.length > 1 ? locations.find((l) => l.location_id === ticket.order.location_id)?.name : undefined;

  // A ticket to bring into view (keyboard, bump bar, the new-orders indicator): its page of lanes,
  // its lane's columns, or the menu's lists.
  useEffect(() => {
    if (!focusRequest) return;
    const { plan } = liveRef.current;
    const index = liveRef.current.lanes.findIndex((lane) => lane.id === 'flow' || (layout.columns[lane.id as keyof BoardLayout['columns']] ?? []).some((x) => x.order.id === focusRequest.orderId));
    if (index >= 0 && liveRef.current.lanes[index]!.id !== 'flow' || (index >= 0 && flow)) {
      if (plan.paged && !plan.lanes[index]!.shown) {
        const perPage = plan.lanes.filter((l) => l.shown).length || 1;
        setPage(Math.floor(index / perPage));
      }
      unfreeze();
      setReveal({ orderId: focusRequest.orderId, seq: focusRequest.seq });
    } else if ([...layout.scheduled, ...layout.awaitingPayment].some((x) => x.order.id === focusRequest.orderId)) {
      board.getState().setMenuOpen(true);
    }
  }, [focusRequest, board, layout, flow, unfreeze]);
  // A revealed ticket's columns become the lane's own start: it stays in view as the lane grows.
  // The reveal holds until the next touch or page turn, not one plan: the tickets it brings into
  // view are drawn for the first time and measured, and the plan made again from their real heights
  // may move the revealed ticket; held, each new plan starts where it is wholly in view again.
  useEffect(() => {
    if (!reveal) return;
    const lane = live.lanes.find((l) => l.inView.includes(reveal.orderId));
    if (!lane) return;
    setStarts((old) => (old[lane.id] === lane.view.start ? old : { ...old, [lane.id]: lane.view.start }));
  }, [reveal, live]);

  const inView = useMemo(() => new Set(drawn.lanes.flatMap((l) => l.inView)), [drawn]);

  // Each drawn fragment keeps its props object while it reads the same, so a memoized card whose
  // ticket did not change skips re-rendering when the board is planned again (one change, one card).
  const fragmentProps = useRef(new Map<string, TicketFragmentProps>());
  const fragmentOf = (f: DrawnFragment): TicketFragmentProps => {
    const key = `${f.orderId}:${f.part}`;
    const known = fragmentProps.current.get(key);
    if (known && known.from === f.from && known.to === f.to && known.parts === f.parts && known.height === f.height) return known;
    const fresh = { from: f.from, to: f.to, part: f.part, parts: f.parts, height: f.height };
    fragmentProps.current.set(key, fresh);
    return fresh;
  };
  // Bounded: fragments no longer drawn are forgotten.
  useEffect(() => {
    const map = fragmentProps.current;
    if (map.size <= 256) return;
    const drawnKeys = new Set(drawn.lanes.flatMap((lane) => lane.columns.flatMap((column) => column.map((f) => `${f.orderId}:${f.part}`))));
    for (const key of map.keys()) if (!drawnKeys.has(key)) map.delete(key);
  }, [drawn]);

  if (!loaded) {
    return (
      <div className="board-loading">
        {loadError ? t('common.error', { message: loadError }) : t('board.loading')}
        {loadError && (
          <button type="button" className="btn btn-secondary" onClick={() => void board.getState().load()}>
            {t('common.retry')}
          </button>
        )}
      </div>
    );
  }

  const { plan } = drawn;
  return (
    <div
      ref={boardRef}
      className={`board layout-${layoutKind} ${compact ? 'density-compact' : 'density-comfortable'} ${plan.paged ? 'paged' : ''}`}
      data-testid="board"
      data-density={compact ? 'compact' : 'comfortable'}
      data-layout={layoutKind}
      data-active={inLanes}
      data-planned-in-view={inView.size}
      data-frozen={drawn === frozen ? 'true' : 'false'}
      style={{
        ['--ticket-font' as string]: `${metrics.fontSize}px`,
        ['--lane-head' as string]: `${metrics.laneHead}px`,
        ['--ticket-head' as string]: `${headHeight(metrics.fontSize)}px`,
      }}
    >
      {plan.paged && !flow && (
        <div className="column-tabs" role="tablist">
          {COLUMNS.map((status, index) => (
            <button
              key={status}
              type="button"
              role="tab"
              className={`btn column-tab column-tab-${status} ${plan.lanes[index]!.shown ? 'active' : ''}`}
              aria-selected={plan.lanes[index]!.shown}
              data-testid="column-tab"
              data-column-tab={status}
              data-moves-view=""
              onClick={() => {
                const perPage = plan.lanes.filter((l) => l.shown).length || 1;
                unfreeze();
                setPage(Math.floor(index / perPage));
              }}
            >
              <span className="column-tab-name">{t(`board.tab_${status}`)}</span> <span className="count">{layout.columns[status].length}</span>
            </button>
          ))}
        </div>
      )}
      <div className="lanes" ref={lanesRef} onPointerDownCapture={onTouch}>
        {/* Nothing in any lane (a first start, a quiet hour): said in words over the lanes' strips. */}
        {inLanes === 0 && (
          <div className="board-empty" data-testid="board-empty" role="status">
            <strong>{t('board.empty_title')}</strong>
            <span>{t('board.empty_next')}</span>
          </div>
        )}
        {measuring.length > 0 && drawn === live && (
          <div className="measure-ahead" aria-hidden="true">
            {measuring.map((id) => {
              const ticket = byId.get(id);
              if (!ticket) return null;
              const blocks = blocksOf(ticket);
              return (
                <div key={id} className="fragment-slot" style={{ width: plan.cardWidth }}>
                  <TicketCard
                    ticket={ticket}
                    blocks={blocks}
                    fragment={{ from: 0, to: blocks.length, part: 0, parts: 1, height: 0 }}
                    compact={compact}
                    buttonsInHead={metrics.buttonsInHead}
                    showState={flow}
                    locationName={locationName(ticket)}
                    onCancel={cancel}
                    measuring
                  />
                </div>
              );
            })}
          </div>
        )}
        {drawn.lanes.map((lane) => {
          if (!lane.plan.shown) return null;
          if (lane.plan.collapsed) return <CollapsedLane key={lane.id} status={lane.id as OrderStatus} />;
          return (
            <section
              key={lane.id}
              className={`column lane column-${lane.id} ${lane.plan.width < NARROW_LANE ? 'narrow' : ''}`}
              data-column={lane.id}
              data-count={lane.count}
              data-hidden={lane.view.hidden}
              data-lane-columns={lane.plan.columns}
              data-page={lane.view.page}
              data-pages={lane.view.pages}
              style={{ width: lane.plan.width, flex: `0 0 ${lane.plan.width}px` }}
            >
              <h2 className="column-title">
                <span className="column-name">
                  {lane.id === 'flow' ? t('board.layout_flow') : lane.plan.columns === 1 ? t(`board.tab_${lane.id as (typeof COLUMNS)[number]}`) : t(`status.${lane.id as OrderStatus}`)}
                </span>{' '}
                <span className="count">{lane.count}</span>
                {(lane.id === 'recibido' || lane.id === 'flow') && <NewOrdersIndicator layout={layout} inView={inView} />}
                {lane.view.pages > 1 && (
                  <button
                    type="button"
                    className="btn column-hidden lane-pager"
                    data-testid="hidden-count"
                    data-moves-view=""
                    data-hidden={lane.view.hidden}
                    aria-label={t('board.lane_pager', { hidden: lane.view.hidden, page: lane.view.page, pages: lane.view.pages })}
                    onClick={() => {
                      unfreeze();
                      setReveal(null);
                      const next = lane.view.start + lane.view.count >= lane.view.total ? 0 : lane.view.start + lane.view.count;
                      setStarts((old) => ({ ...old, [lane.id]: next }));
                    }}
                  >
                    +{lane.view.hidden} · {lane.view.page}/{lane.view.pages}
                  </button>
                )}
              </h2>
              {/* Every fragment of the lane is a child of its body, placed by the plan: a ticket whose
                  fragment moves to another column keeps its card (no new elements to draw and
                  measure when a ticket ahead of it leaves); the columns are drawn behind them. */}
              <div className="lane-body" style={{ height: bodyHeight }}>
                {lane.count === 0 && <div className="empty">{t('board.empty')}</div>}
                {lane.columns.map((_, c) => (
                  <div key={c} className="lane-column" aria-hidden="true" style={{ left: c * (plan.cardWidth + metrics.gap), width: plan.cardWidth }} />
                ))}
                {lane.columns.flatMap((column, c) => {
                  let top = 0;
                  return column.map((f) => {
                    const at = top;
                    top += f.height + metrics.gap;
                    const ticket = byId.get(f.orderId);
                    return (
                      <div key={`${f.orderId}:${f.part}`} className="fragment-slot" style={{ left: c * (plan.cardWidth + metrics.gap), top: at, width: plan.cardWidth, height: f.height }}>
                        {ticket ? (
                          <TicketCard
                            ticket={ticket}
                            blocks={blocksOf(ticket)}
                            fragment={fragmentOf(f)}
                            compact={compact}
                            buttonsInHead={metrics.buttonsInHead}
                            showState={flow}
                            locationName={locationName(ticket)}
                            onCancel={cancel}
                          />
                        ) : (
                          <div className="ticket-gone" style={{ height: f.height }} />
                        )}
                      </div>
                    );
                  });
                })}
              </div>
            </section>
          );
        })}
      </div>
      <ScreenMenu layout={layout} shown={shown} compact={compact} onCancel={cancel} />
      {recallOpen && <RecallDrawer layout={layout} recalledIds={recalledIds} />}
    </div>
  );
}

/** A lane with nothing in it: a narrow header with its name and count. */
function CollapsedLane({ status }: { status: OrderStatus }) {
  const t = useT();
  return (
    <section className={`column lane collapsed column-${status}`} data-column={status} data-count={0} data-hidden={0}>
      <h2 className="lane-name-vertical">
        <span className="count">0</span> <span className="column-name">{t(`status.${status}`)}</span>
      </h2>
    </section>
  );
}

/** New orders out of view are announced here; a tap brings the latest of them into view. */
function NewOrdersIndicator({ layout, inView }: { layout: BoardLayout; inView: ReadonlySet<string> }) {
  const t = useT();
  const { board } = useApp();
  const ringing = useBoard((s) => s.ringing);
  const hidden = layout.columns.recibido.filter((x) => ringing[x.order.id] && !inView.has(x.order.id)).map((x) => x.order.id);
  if (hidden.length === 0) return null;
  // The latest to arrive (the one the chime just announced); the next tap shows the one before.
  const latest = hidden[hidden.length - 1]!;
  const ticket = layout.columns.recibido.find((x) => x.order.id === latest);
  return (
    <button
      type="button"
      className="btn new-orders-indicator"
      data-testid="new-orders-indicator"
      data-count={hidden.length}
      data-moves-view=""
      onClick={() => board.getState().reveal(latest)}
    >
      {t('board.new_orders', { count: hidden.length, number: ticket?.order.number ?? '' })}
    </button>
  );
}

/** The latest delivered and cancelled tickets, each can be brought back on the board. */
function RecallDrawer({ layout, recalledIds }: { layout: BoardLayout; recalledIds: string }) {
  const t = useT();
  const { board } = useApp();
  return (
    <div className="drawer-backdrop" onClick={() => board.getState().setRecallOpen(false)}>
      <aside className="drawer" data-testid="recall" onClick={(e) => e.stopPropagation()}>
        <header className="drawer-head">
          <h2>{t('board.recall_title')}</h2>
          <button type="button" className="btn btn-secondary" onClick={() => board.getState().setRecallOpen(false)}>
            {t('board.close')}
          </button>
        </header>
        <div className="drawer-tickets">
          {layout.recall.map((ticket) => (
            <div key={ticket.order.id} className="recall-entry">
              <TicketCard ticket={ticket} blocks={readOnlyBlocks(ticket)} readOnly />
              {!recalledIds.split(',').includes(ticket.order.id) && (
                <button
                  type="button"
                  className="btn btn-primary recall-back"
                  data-testid="recall-back"
                  data-order-id={ticket.order.id}
                  onClick={() => {
                    board.getState().recall(ticket.order.id);
                    board.getState().setRecallOpen(false);
                  }}
                >
                  {t('board.recall_back')}
                </button>
              )}
            </div>
          ))}
        </div>
      </aside>
    </div>
  );
}

/** A finished ticket's body in the recall drawer: its items and who it was for. */
function readOnlyBlocks(ticket: ShownTicket): TicketBlock[] {
  return ticketBlocks(ticket, { compact: false, stationId: null, withStations: false, showState: false, actions: false });
}
