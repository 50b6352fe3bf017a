import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { KitchenOrder, OrderStatus } from '../../../shared/ipc/kitchen.ts';
import { useApp, useBoard, useClock, usePreferences, useT } from '../app-context.tsx';
import { byTimer, COLUMNS, layoutBoard, recalledKey, ticketShape, type BoardLayout, type ShownTicket } from '../board-logic.ts';
import { boardMetrics, estimateTicketHeight, planBoard, type BoardPlan, type LaneInput } from '../board-plan.ts';
import { shownTickets } from '../state/board-state.ts';
import { placedStatusOf, settlingKey } from '../state/board/shown.ts';
import { useVisibleIds } from '../visibility.ts';
import { ScreenMenu } from './ScreenMenu.tsx';
import { TicketCard } from './TicketCard.tsx';

/** Above this many tickets in the lanes, the automatic density turns compact. */
const AUTO_COMPACT_ABOVE = 24;
/** A lane's header, px (styles.css: --lane-head). */
const LANE_HEAD = 36;
/** Room kept under a lane's tickets for the undo tray's edge, px (styles.css: --lane-foot). */
const LANE_FOOT = 14;

const heightCache = new WeakMap<ShownTicket, { key: string; height: number }>();

/** The element's inner size, followed as it changes (the element comes and goes: a callback ref). */
function useElementSize(): [(element: HTMLElement | null) => void, { width: number; height: number }] {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
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
  const filter = useBoard((s) => s.locationFilter);
  const stationFilter = useBoard((s) => s.stationFilter);
  const clockOffset = useBoard((s) => s.clockOffset);
  const recallOpen = useBoard((s) => s.recallOpen);
  const focusRequest = useBoard((s) => s.focusRequest);
  const density = usePreferences((s) => s.density);
  const layoutKind = usePreferences((s) => s.layout);
  const [lanesRef, size] = useElementSize();
  const [page, setPage] = useState(0);

  const shown = useMemo(() => shownTickets({ tickets, pending, flashes }), [tickets, pending, flashes]);
  // Which recalled tickets are back on the board, and which were just tapped (they stay put a
  // moment): keys that change only when one comes or goes.
  const recalledIds = useClock((now) => recalledKey(tickets, now + clockOffset));
  const settling = useClock((now) => settlingKey(pending, now));
  const layout = useMemo(() => {
    const placed = new Map<string, OrderStatus>();
    const now = Date.now();
    for (const id of settling.split(',').filter(Boolean)) {
      const ticket = shown.find((x) => x.order.id === id);
      if (ticket) placed.set(id, placedStatusOf(ticket, pending[id], now));
    }
    return layoutBoard(shown, filter, { recalled: new Set(recalledIds.split(',').filter(Boolean)), stationId: stationFilter, placed });
  }, [shown, filter, recalledIds, stationFilter, settling, pending]);
  const inLanes = COLUMNS.reduce((n, c) => n + layout.columns[c].length, 0);
  const compact = density === 'compact' || (density === 'auto' && inLanes > AUTO_COMPACT_ABOVE);
  const flow = layoutKind === 'flow';

  // The lanes as the plan sees them: each ticket's height at the card width, estimated.
  const metrics = boardMetrics({ width: window.innerWidth, height: window.innerHeight }, compact ? 'compact' : 'comfortable');
  const laneTickets: { id: string; tickets: ShownTicket[] }[] = flow
    ? [{ id: 'flow', tickets: COLUMNS.flatMap((c) => layout.columns[c]).sort(byTimer) }]
    : COLUMNS.map((c) => ({ id: c, tickets: layout.columns[c] }));
  const bodyHeight = Math.max(120, size.height - LANE_HEAD - LANE_FOOT);
  const plan: BoardPlan = useMemo(() => {
    const guessWidth = metrics.minCardWidth;
    const shapeOptions = { compact, stationId: stationFilter, withStations: stations.length > 0, showState: flow };
    // A ticket's height is estimated once per version of it and of the screen's metrics (a change
    // re-plans 500 tickets, it does not re-measure them).
    const sizeKey = `${guessWidth}:${metrics.fontSize}:${compact}:${stationFilter}:${stations.length}:${flow}`;
    const heightOf = (x: ShownTicket) => {
      const known = heightCache.get(x);
      if (known && known.key === sizeKey) return known.height;
      const height = estimateTicketHeight(ticketShape(x, shapeOptions), guessWidth, metrics.fontSize);
      heightCache.set(x, { key: sizeKey, height });
      return height;
    };
    const lanes: LaneInput[] = laneTickets.map((lane) => ({ id: lane.id, heights: lane.tickets.map(heightOf) }));
    return planBoard({ width: Math.max(200, size.width), height: bodyHeight, metrics, lanes, page });
    // laneTickets follows layout; the metrics follow the window, compact and the layout kind.
  }, [layout, size.width, bodyHeight, metrics.fontSize, metrics.minCardWidth, compact, flow, stationFilter, stations.length, page]);

  const locationName = (ticket: ShownTicket) =>
    filter === null && locations.length > 1 ? locations.find((l) => l.location_id === ticket.order.location_id)?.name : undefined;

  // A ticket to bring into view may be on another page of lanes, or in the menu's lists.
  const planRef = useRef({ plan, laneTickets });
  planRef.current = { plan, laneTickets };
  useEffect(() => {
    if (!focusRequest) return;
    const { plan: current, laneTickets: lanes } = planRef.current;
    const index = lanes.findIndex((lane) => lane.tickets.some((x) => x.order.id === focusRequest.orderId));
    if (index >= 0 && current.paged && !current.lanes[index]!.shown) {
      const perPage = current.lanes.filter((l) => l.shown).length || 1;
      setPage(Math.floor(index / perPage));
    } else if (index < 0 && [...layout.scheduled, ...layout.awaitingPayment].some((x) => x.order.id === focusRequest.orderId)) {
      board.getState().setMenuOpen(true);
    }
  }, [focusRequest, board, layout]);

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

  return (
    <div
      className={`board layout-${layoutKind} ${compact ? 'density-compact' : 'density-comfortable'} ${plan.paged ? 'paged' : ''}`}
      data-testid="board"
      data-density={compact ? 'compact' : 'comfortable'}
      data-layout={layoutKind}
      data-active={inLanes}
      data-planned-in-view={plan.inView}
      style={{ ['--ticket-font' as string]: `${metrics.fontSize}px`, ['--lane-head' as string]: `${LANE_HEAD}px`, ['--lane-foot' as string]: `${LANE_FOOT}px` }}
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
              onClick={() => {
                const perPage = plan.lanes.filter((l) => l.shown).length || 1;
                setPage(Math.floor(index / perPage));
              }}
            >
              <span className="column-tab-name">{t(`board.tab_${status}`)}</span> <span className="count">{layout.columns[status].length}</span>
            </button>
          ))}
        </div>
      )}
      <div className="lanes" ref={lanesRef}>
        {plan.lanes.map((lanePlan, index) => {
          if (!lanePlan.shown) return null;
          const lane = laneTickets[index]!;
          if (lanePlan.collapsed) return <CollapsedLane key={lane.id} status={lane.id as OrderStatus} />;
          return (
            <Lane
              key={lane.id}
              id={lane.id}
              tickets={lane.tickets}
              columns={lanePlan.columns}
              width={lanePlan.width}
              cardWidth={plan.cardWidth}
              height={bodyHeight}
              gap={metrics.gap}
              split={lanePlan.split}
              compact={compact}
              flow={flow}
              locationName={locationName}
              onCancel={cancel}
              // New orders out of view are announced in their own lane's header: over nothing.
              indicator={lane.id === 'recibido' || lane.id === 'flow' ? <NewOrdersIndicator layout={layout} /> : null}
            />
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

/**
 * A lane of the board: its tickets flow down its columns (CSS columns, so a ticket taller than a
 * column runs on into the next one); beyond what it has room for they continue to the right, and
 * the header says how many are out of view. Only a window of its tickets is drawn.
 */
function Lane(props: {
  id: string;
  tickets: ShownTicket[];
  columns: number;
  width: number;
  cardWidth: number;
  /** Its ticket area's height, px: the CSS columns fill to it, then run on to the right. */
  height: number;
  gap: number;
  split: number[];
  compact: boolean;
  flow: boolean;
  locationName(ticket: ShownTicket): string | undefined;
  onCancel(order: KitchenOrder): void;
  indicator: ReactNode;
}) {
  const t = useT();
  const { id, tickets, columns } = props;
  const bodyRef = useRef<HTMLDivElement>(null);
  // What a lane draws: a screen of its tickets and more (a TV column holds about 4); the rest is
  // counted in its header and drawn as the cook asks.
  const windowSize = Math.max(16, columns * 8);
  const [limit, setLimit] = useState(windowSize);
  const focusId = useBoard((s) => s.focusRequest?.orderId ?? null);
  const focusIndex = focusId === null ? -1 : tickets.findIndex((x) => x.order.id === focusId);
  const rendered = tickets.slice(0, Math.max(limit, windowSize, focusIndex + 1));
  // Only a drawn ticket can be in view: counting over the window, not the whole lane (250 tickets
  // at rush hour), keeps this off every change's bill.
  const inView = useVisibleIds((ids) => rendered.reduce((n, x) => n + (ids[x.order.id] ? 1 : 0), 0));
  const hidden = tickets.length - inView;
  const vertical = columns === 1;
  const showMore = () => {
    if (rendered.length < tickets.length) setLimit(rendered.length + windowSize);
    const body = bodyRef.current;
    if (!body) return;
    if (vertical) body.scrollBy({ top: body.clientHeight * 0.8 });
    else body.scrollBy({ left: body.clientWidth });
  };
  const splitIds = new Set(props.split.map((i) => tickets[i]?.order.id));
  const status = id as OrderStatus;
  return (
    <section
      className={`column lane column-${status} ${vertical ? 'lane-vertical' : 'lane-columns'}`}
      data-column={id}
      data-count={tickets.length}
      data-hidden={hidden}
      data-lane-columns={columns}
      style={{ width: props.width, flex: `0 0 ${props.width}px` }}
    >
      <h2 className="column-title">
        <span className="column-name">{id === 'flow' ? t('board.layout_flow') : t(`status.${status}`)}</span> <span className="count">{tickets.length}</span>
        {props.indicator}
        {hidden > 0 && (
          <button type="button" className="btn column-hidden" data-testid="hidden-count" data-hidden={hidden} aria-label={t('board.hidden', { count: hidden })} onClick={showMore}>
            +{hidden} <span className="hidden-word">{t('board.hidden_word')}</span> {vertical ? '↓' : '→'}
          </button>
        )}
      </h2>
      <div
        className="column-tickets"
        ref={bodyRef}
        style={vertical ? undefined : { columnCount: columns, columnGap: props.gap, height: props.height }}
      >
        {tickets.length === 0 && <div className="empty">{t('board.empty')}</div>}
        {rendered.map((ticket) => (
          <TicketCard
            key={ticket.order.id}
            ticket={ticket}
            compact={props.compact}
            split={splitIds.has(ticket.order.id) && !vertical}
            showState={props.flow}
            locationName={props.locationName(ticket)}
            onCancel={props.onCancel}
          />
        ))}
      </div>
    </section>
  );
}

/** New orders out of view are announced here; a tap brings the latest of them into view. */
function NewOrdersIndicator({ layout }: { layout: BoardLayout }) {
  const t = useT();
  const { board } = useApp();
  const ringing = useBoard((s) => s.ringing);
  const waiting = layout.columns.recibido.filter((x) => ringing[x.order.id]).map((x) => x.order.id);
  const hiddenKey = useVisibleIds((ids) => waiting.filter((id) => !ids[id]).join(','));
  if (hiddenKey === '') return null;
  const hidden = hiddenKey.split(',');
  // The latest to arrive (the one the chime just announced); the next tap shows the one before.
  const latest = hidden[hidden.length - 1]!;
  const ticket = layout.columns.recibido.find((x) => x.order.id === latest);
  return (
    <button
      type="button"
      className="btn new-orders-indicator"
      data-testid="new-orders-indicator"
      data-count={hidden.length}
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
              <TicketCard ticket={ticket} readOnly />
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
