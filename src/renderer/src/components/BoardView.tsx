import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { KitchenOrder } from '../../../shared/ipc/kitchen.ts';
import type { AppSettings } from '../../../shared/ipc/settings.ts';
import { useApp, useBoard, useClock, useEngineNow, usePreferences, useSettings, useT } from '../app-context.tsx';
import { allDayCounts, COLUMNS, layoutBoard, recalledKey, todayStats, type BoardLayout, type ColumnStatus, type ShownTicket } from '../board-logic.ts';
import { formatMinutes } from '../format.ts';
import { AUTO_COMPACT_ABOVE, boardFit, COLUMN_WINDOW, useViewportWidth } from '../layout.ts';
import { shownTickets } from '../stores/board-store.ts';
import { DENSITIES, type Density } from '../stores/screen-preferences.ts';
import { useVisibleIds } from '../visibility.ts';
import { TicketCard } from './TicketCard.tsx';

export function BoardView({ onCancel }: { onCancel(order: KitchenOrder): void }) {
  const t = useT();
  const { board } = useApp();
  // A stable callback, so the memoized cards do not re-render when the parent makes a new one.
  const latestCancel = useRef(onCancel);
  latestCancel.current = onCancel;
  const cancel = useCallback((order: KitchenOrder) => latestCancel.current(order), []);
  const tickets = useBoard((s) => s.tickets);
  const moves = useBoard((s) => s.moves);
  const flashes = useBoard((s) => s.flashes);
  const loaded = useBoard((s) => s.loaded);
  const loadError = useBoard((s) => s.loadError);
  const locations = useBoard((s) => s.locations);
  const filter = useBoard((s) => s.locationFilter);
  const stationFilter = useBoard((s) => s.stationFilter);
  const clockOffset = useBoard((s) => s.clockOffset);
  const recallOpen = useBoard((s) => s.recallOpen);
  const dayStart = useBoard((s) => s.dayStart);
  const focusRequest = useBoard((s) => s.focusRequest);
  const thresholds = useSettings((s) => s.settings.thresholds);
  const density = usePreferences((s) => s.density);
  const fit = boardFit(useViewportWidth());
  const [page, setPage] = useState(0);
  const [panelsOpen, setPanelsOpen] = useState(false);

  const shown = useMemo(() => shownTickets({ tickets, moves, flashes }), [tickets, moves, flashes]);
  // Which recalled tickets are back on the board: a key that changes only when one comes or goes.
  const recalledIds = useClock((now) => recalledKey(tickets, now + clockOffset));
  const layout = useMemo(
    () => layoutBoard(shown, filter, { recalled: new Set(recalledIds.split(',').filter(Boolean)), stationId: stationFilter }),
    [shown, filter, recalledIds, stationFilter],
  );
  const inColumns = COLUMNS.reduce((n, c) => n + layout.columns[c].length, 0);
  const compact = density === 'compact' || (density === 'auto' && inColumns > AUTO_COMPACT_ABOVE);
  const pages = Math.ceil(COLUMNS.length / fit.columnsPerPage);
  const shownPage = Math.min(page, pages - 1);
  const pageColumns = COLUMNS.slice(shownPage * fit.columnsPerPage, (shownPage + 1) * fit.columnsPerPage);
  const locationName = (ticket: ShownTicket) =>
    filter === null && locations.length > 1 ? locations.find((l) => l.location_id === ticket.order.location_id)?.name : undefined;

  // A ticket to bring into view may be on another page of columns or in the side drawer.
  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  useEffect(() => {
    if (!focusRequest) return;
    const current = layoutRef.current;
    const column = COLUMNS.findIndex((c) => current.columns[c].some((x) => x.order.id === focusRequest.orderId));
    if (column >= 0) setPage(Math.floor(column / fit.columnsPerPage));
    else if (!fit.sideInline && [...current.scheduled, ...current.awaitingPayment].some((x) => x.order.id === focusRequest.orderId)) setPanelsOpen(true);
  }, [focusRequest, fit.columnsPerPage, fit.sideInline]);

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

  const side = (
    <SidePanels layout={layout} shown={shown} dayStart={dayStart} thresholds={thresholds} filter={filter} compact={compact} withRecall={fit.sideInline || fit.columnsPerPage === 1} withFilter={fit.columnsPerPage === 1} onCancel={cancel} />
  );
  const sideCount = layout.scheduled.length + layout.awaitingPayment.length;

  return (
    <div
      className={`board per-page-${fit.columnsPerPage} ${fit.sideInline ? 'side-inline' : 'side-drawer'} ${compact ? 'density-compact' : 'density-comfortable'}`}
      data-testid="board"
      data-density={compact ? 'compact' : 'comfortable'}
      data-active={inColumns}
    >
      <nav className="board-toolbar">
          {fit.columnsPerPage < 4 && (
            <div className="column-tabs" role="tablist">
              {COLUMNS.map((status, index) => (
                <button
                  key={status}
                  type="button"
                  role="tab"
                  className={`btn column-tab column-tab-${status} ${pageColumns.includes(status) ? 'active' : ''}`}
                  aria-selected={pageColumns.includes(status)}
                  data-testid="column-tab"
                  data-column-tab={status}
                  onClick={() => setPage(Math.floor(index / fit.columnsPerPage))}
                >
                  <span className="column-tab-name">{t(`status.${status}`)}</span> <span className="count">{layout.columns[status].length}</span>
                </button>
              ))}
            </div>
          )}
          <div className="toolbar-row">
          <div className="indicator-slot">
            <NewOrdersIndicator layout={layout} />
          </div>
          <div className="toolbar-buttons">
            {fit.columnsPerPage > 1 && <StationSelect />}
            {fit.columnsPerPage > 1 && <DensitySelect />}
            {!fit.sideInline && (
              <button type="button" className="btn btn-secondary panels-button" data-testid="panels-open" onClick={() => setPanelsOpen(true)}>
                {t('board.panels')}
                {sideCount > 0 && <span className="count">{sideCount}</span>}
              </button>
            )}
            {!fit.sideInline && fit.columnsPerPage > 1 && <RecallButton count={layout.recall.length} />}
          </div>
          </div>
        </nav>
      <div className="columns">
        {pageColumns.map((status) => (
          <Column key={status} status={status} tickets={layout.columns[status]} compact={compact} locationName={locationName} onCancel={cancel} />
        ))}
      </div>
      {fit.sideInline && <aside className="side">{side}</aside>}
      {!fit.sideInline && panelsOpen && (
        <div className="drawer-backdrop" onClick={() => setPanelsOpen(false)}>
          <aside className="drawer side" data-testid="panels" onClick={(e) => e.stopPropagation()}>
            <header className="drawer-head">
              <h2>{t('board.panels')}</h2>
              <button type="button" className="btn btn-secondary" onClick={() => setPanelsOpen(false)}>
                {t('board.close')}
              </button>
            </header>
            {side}
          </aside>
        </div>
      )}
      {recallOpen && (
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
      )}
    </div>
  );
}

/** A column of the flow: renders a window of its tickets and always says how many are out of view. */
function Column(props: {
  status: ColumnStatus;
  tickets: ShownTicket[];
  compact: boolean;
  locationName(ticket: ShownTicket): string | undefined;
  onCancel(order: KitchenOrder): void;
}) {
  const t = useT();
  const { status, tickets } = props;
  const listRef = useRef<HTMLDivElement>(null);
  const [limit, setLimit] = useState(COLUMN_WINDOW);
  const focusId = useBoard((s) => s.focusRequest?.orderId ?? null);
  const focusIndex = focusId === null ? -1 : tickets.findIndex((x) => x.order.id === focusId);
  const rendered = tickets.slice(0, Math.max(limit, focusIndex + 1));
  // Only a rendered ticket can be in view: counting over the window, not the whole column (250
  // tickets at rush hour), keeps this off every change's bill.
  const inView = useVisibleIds((ids) => rendered.reduce((n, x) => n + (ids[x.order.id] ? 1 : 0), 0));
  const hidden = tickets.length - inView;
  const showMore = () => {
    if (rendered.length < tickets.length) setLimit(rendered.length + COLUMN_WINDOW);
    const list = listRef.current;
    if (list) list.scrollBy({ top: list.clientHeight * 0.8 });
  };
  return (
    <section className={`column column-${status}`} data-column={status} data-count={tickets.length} data-hidden={hidden}>
      <h2 className="column-title">
        <span className="column-name">{t(`status.${status}`)}</span> <span className="count">{tickets.length}</span>
      </h2>
      <div className="column-tickets" ref={listRef}>
        {tickets.length === 0 && <div className="empty">{t('board.empty')}</div>}
        {rendered.map((ticket) => (
          <TicketCard key={ticket.order.id} ticket={ticket} compact={props.compact} locationName={props.locationName(ticket)} onCancel={props.onCancel} />
        ))}
      </div>
      {hidden > 0 && (
        <button type="button" className="btn column-hidden" data-testid="hidden-count" data-hidden={hidden} onClick={showMore}>
          {t('board.hidden', { count: hidden })} ↓
        </button>
      )}
    </section>
  );
}

/** New orders out of view are announced here; a tap brings the oldest of them into view. */
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

function SidePanels(props: {
  layout: BoardLayout;
  shown: ShownTicket[];
  dayStart: number;
  thresholds: AppSettings['thresholds'];
  filter: string | null;
  compact: boolean;
  withRecall: boolean;
  withFilter: boolean;
  onCancel(order: KitchenOrder): void;
}) {
  const t = useT();
  const allDay = useMemo(() => allDayCounts(props.shown, props.filter), [props.shown, props.filter]);
  return (
    <>
      {props.withFilter && <LocationFilter />}
      {props.withFilter && <StationSelect />}
      {props.withFilter && <DensitySelect />}
      {props.withRecall && <RecallButton count={props.layout.recall.length} />}
      <TodayPanel shown={props.shown} dayStart={props.dayStart} thresholds={props.thresholds} filter={props.filter} />
      <SideList title={t('board.scheduled')} tickets={props.layout.scheduled} testId="scheduled" compact={props.compact} onCancel={props.onCancel} />
      <SideList title={t('board.awaiting_payment')} tickets={props.layout.awaitingPayment} testId="awaiting-payment" compact={props.compact} onCancel={props.onCancel} />
      <section className="panel all-day" data-testid="all-day">
        <h3>{t('board.all_day')}</h3>
        {allDay.length === 0 ? (
          <p className="muted">{t('board.all_day_empty')}</p>
        ) : (
          <ul>
            {allDay.map((line) => (
              <li key={line.name} data-item={line.name}>
                <span className="all-day-qty">{line.quantity}</span> {line.name}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/** How much each ticket shows on this screen (kept on the screen). */
function DensitySelect() {
  const t = useT();
  const { preferences } = useApp();
  const density = usePreferences((s) => s.density);
  return (
    <select
      className="density-select"
      data-testid="density"
      aria-label={t('board.density')}
      value={density}
      onChange={(e) => preferences.getState().set({ density: e.target.value as Density })}
    >
      {DENSITIES.map((d) => (
        <option key={d} value={d}>
          {t('board.density')}: {t(`board.density_${d}`)}
        </option>
      ))}
    </select>
  );
}

/** Which station this screen prepares for, or expo (every item, each station's progress). */
function StationSelect() {
  const t = useT();
  const { board, preferences } = useApp();
  const stations = useBoard((s) => s.stations);
  const stationFilter = useBoard((s) => s.stationFilter);
  if (stations.length === 0) return null;
  const choose = (stationId: string | null) => {
    board.getState().setStationFilter(stationId);
    preferences.getState().set({ station_id: stationId });
  };
  return (
    <select className="station-select" data-testid="station" aria-label={t('board.screen')} value={stationFilter ?? ''} onChange={(e) => choose(e.target.value || null)}>
      <option value="">
        {t('board.screen')}: {t('board.screen_expo')}
      </option>
      {stations.map((station) => (
        <option key={station.id} value={station.id}>
          {t('board.screen')}: {station.name}
        </option>
      ))}
    </select>
  );
}

/** Which location the board shows (in the header, or in the drawer on a phone). */
export function LocationFilter() {
  const t = useT();
  const { board, preferences, mode } = useApp();
  const locations = useBoard((s) => s.locations);
  const filter = useBoard((s) => s.locationFilter);
  // A tablet chooses its location once, in "Esta pantalla".
  if (locations.length < 2 || mode !== 'desktop') return null;
  const choose = (chosen: string | null) => {
    board.getState().setLocationFilter(chosen);
    // Kept on this screen: it opens on the same location next time.
    preferences.getState().set({ location_id: chosen });
  };
  return (
    <select className="location-filter" data-testid="location-filter" value={filter ?? ''} onChange={(e) => choose(e.target.value || null)}>
      <option value="">{t('board.location_all')}</option>
      {locations
        .filter((l) => l.is_active)
        .map((l) => (
          <option key={l.location_id} value={l.location_id}>
            {l.name}
          </option>
        ))}
    </select>
  );
}

function RecallButton({ count }: { count: number }) {
  const t = useT();
  const { board } = useApp();
  return (
    <button type="button" className="btn btn-secondary recall-button" data-testid="recall-open" onClick={() => board.getState().setRecallOpen(true)}>
      {t('board.recall', { count })}
    </button>
  );
}

function SideList(props: { title: string; tickets: ShownTicket[]; testId: string; compact: boolean; onCancel(order: KitchenOrder): void }) {
  if (props.tickets.length === 0) return null;
  return (
    <section className="panel side-list" data-testid={props.testId}>
      <h3>
        {props.title} <span className="count">{props.tickets.length}</span>
      </h3>
      {props.tickets.map((ticket) => (
        <TicketCard key={ticket.order.id} ticket={ticket} compact={props.compact} onCancel={props.onCancel} />
      ))}
    </section>
  );
}

/** Today's figures: they depend on the time (late tickets), so they tick here, not on the board. */
function TodayPanel(props: { shown: ShownTicket[]; dayStart: number; thresholds: AppSettings['thresholds']; filter: string | null }) {
  const t = useT();
  const engineNow = useEngineNow(1000);
  const today = todayStats(props.shown, props.dayStart, engineNow, props.thresholds, props.filter);
  return (
    <section className="panel today" data-testid="today-panel">
      <h3>{t('board.today')}</h3>
      <dl>
        <div>
          <dt>{t('board.today_orders')}</dt>
          <dd data-testid="today-orders">{today.orders}</dd>
        </div>
        <div>
          <dt>{t('board.today_avg')}</dt>
          <dd data-testid="today-avg">{today.averageToReadyMs === null ? '—' : formatMinutes(today.averageToReadyMs)}</dd>
        </div>
        <div className={today.late > 0 ? 'late' : ''}>
          <dt>{t('board.today_late')}</dt>
          <dd data-testid="today-late">{today.late}</dd>
        </div>
      </dl>
      {today.testOrders > 0 && <p className="muted">{t('board.today_test', { count: today.testOrders })}</p>}
    </section>
  );
}
