// The screen's one menu: which station it prepares for (or expo), density, layout, location, the
// day's panels (today, scheduled, awaiting payment, all-day) and recall. Kept off the board so the
// board's room goes to tickets.
import { useEffect, useMemo, useState } from 'react';
import { DEMO_RUSH_PACES, type DemoRushStatus } from '../../../shared/screen-contract/demo-rush.ts';
import type { KitchenOrder } from '../../../shared/screen-contract/kitchen.ts';
import type { AppSettings } from '../../../shared/screen-contract/settings.ts';
import { useApp, useBoard, useClock, useEngineNow, usePreferences, useSettings, useT } from '../app-context.tsx';
import { allDayCounts, lateKey, ticketBlocks, todayStats, waitingCount, type BoardLayout, type ShownTicket } from '../board-logic.ts';
import { BOARD_LAYOUTS, type BoardLayoutKind } from '../board-plan.ts';
import { errorMessage } from '../api.ts';
import { formatMinutes } from '../format.ts';
import { DENSITIES, type Density } from '../state/screen-preferences-state.ts';
import { TicketCard } from './TicketCard.tsx';

export function ScreenMenu(props: { layout: BoardLayout; shown: ShownTicket[]; compact: boolean; onCancel(order: KitchenOrder): void }) {
  const t = useT();
  const { board } = useApp();
  const open = useBoard((s) => s.menuOpen);
  const filter = useBoard((s) => s.locationFilter);
  const dayStart = useBoard((s) => s.dayStart);
  const thresholds = useSettings((s) => s.settings.thresholds);
  if (!open) return null;
  const close = () => board.getState().setMenuOpen(false);
  return (
    <div className="drawer-backdrop" onClick={close}>
      <aside className="drawer side" data-testid="panels" onClick={(e) => e.stopPropagation()}>
        <header className="drawer-head">
          <h2>{t('board.menu')}</h2>
          <button type="button" className="btn btn-secondary" data-testid="menu-close" onClick={close}>
            {t('board.close')}
          </button>
        </header>
        <div className="menu-controls">
          <LocationFilter />
          <StationSelect />
          <DensitySelect />
          <LayoutSelect />
          <LateButton shown={props.shown} />
          <RecallButton count={props.layout.recall.length} />
          <SampleOrders />
        </div>
        <SidePanels layout={props.layout} shown={props.shown} dayStart={dayStart} thresholds={thresholds} filter={filter} compact={props.compact} onCancel={props.onCancel} />
      </aside>
    </div>
  );
}

/** The menu's button, in the top bar: it says how many orders wait in its lists (scheduled, awaiting payment). */
export function ScreenMenuButton() {
  const t = useT();
  const { board } = useApp();
  const waiting = useBoard((s) => waitingCount(s.tickets));
  return (
    <button type="button" className="btn btn-secondary menu-button" data-testid="screen-menu" aria-label={t('board.menu')} onClick={() => board.getState().setMenuOpen(true)}>
      <span aria-hidden="true">☰</span>
      <span className="menu-label">{t('board.menu')}</span>
      {/* Said in words: a bare number beside "Pantalla" read like the screen's own number. */}
      {waiting > 0 && (
        <span className="count menu-waiting" data-testid="menu-waiting" title={t('board.menu_waiting_title', { count: waiting })}>
          {t('board.menu_waiting', { count: waiting })}
        </span>
      )}
    </button>
  );
}

/** Lanes by state, or every ticket in one grid by age (kept on the screen). */
function LayoutSelect() {
  const t = useT();
  const { preferences } = useApp();
  const layout = usePreferences((s) => s.layout);
  return (
    <select className="layout-select" data-testid="layout" aria-label={t('board.layout')} value={layout} onChange={(e) => preferences.getState().set({ layout: e.target.value as BoardLayoutKind })}>
      {BOARD_LAYOUTS.map((l) => (
        <option key={l} value={l}>
          {t('board.layout')}: {t(`board.layout_${l}`)}
        </option>
      ))}
    </select>
  );
}
function SidePanels(props: {
  layout: BoardLayout;
  shown: ShownTicket[];
  dayStart: number;
  thresholds: AppSettings['thresholds'];
  filter: string | null;
  compact: boolean;
  onCancel(order: KitchenOrder): void;
}) {
  const t = useT();
  const allDay = useMemo(() => allDayCounts(props.shown, props.filter), [props.shown, props.filter]);
  return (
    <>
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

/**
 * "Probar con pedidos de ejemplo" (the desktop, on the demo restaurant): the project's rush posted
 * over the real API at the pace chosen, until a tap stops it; the board shows it working.
 */
function SampleOrders() {
  const t = useT();
  const { api, mode } = useApp();
  const [status, setStatus] = useState<DemoRushStatus | null>(null);
  const [pace, setPace] = useState<number>(DEMO_RUSH_PACES[1]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (mode !== 'desktop' || !api.demoRush) return;
    let live = true;
    const read = () => void api.demoRush!({ action: 'status' }).then((s) => live && setStatus(s), () => {});
    read();
    const timer = setInterval(read, 2000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [api, mode]);
  if (mode !== 'desktop' || !status?.available) return null;
  const act = (action: 'start' | 'stop') =>
    api.demoRush!({ action, ...(action === 'start' ? { per_minute: pace } : {}) }).then(
      (s) => {
        setError(null);
        setStatus(s);
      },
      (failure: unknown) => setError(errorMessage(failure)),
    );
  return (
    <div className="sample-orders" data-testid="sample-orders">
      {status.running ? (
        <button type="button" className="btn btn-danger" data-testid="sample-orders-stop" onClick={() => void act('stop')}>
          {t('demo.rush_stop', { posted: status.posted })}
        </button>
      ) : (
        <>
          <select data-testid="sample-orders-pace" aria-label={t('demo.rush_pace_label')} value={pace} onChange={(e) => setPace(Number(e.target.value))}>
            {DEMO_RUSH_PACES.map((p) => (
              <option key={p} value={p}>
                {t('demo.rush_pace', { count: p })}
              </option>
            ))}
          </select>
          <button type="button" className="btn btn-primary" data-testid="sample-orders-start" onClick={() => void act('start')}>
            {t('demo.rush_start')}
          </button>
        </>
      )}
      {error && (
        <p className="notice notice-error" role="alert">
          {t('common.error', { message: error })}
        </p>
      )}
    </div>
  );
}

/** Which location the board shows (in the header, or in the drawer on a phone). */
function LocationFilter() {
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

/** "Atrasados" (issue 32): the board shows only the cooking tickets past their customer's promise, or every one again. */
function LateButton({ shown }: { shown: ShownTicket[] }) {
  const t = useT();
  const { board } = useApp();
  const lateOnly = useBoard((s) => s.lateOnly);
  const clockOffset = useBoard((s) => s.clockOffset);
  const count = useClock((now) => lateKey(shown, now + clockOffset).split(',').filter(Boolean).length);
  return (
    <button
      type="button"
      className={`btn btn-secondary late-button${lateOnly ? ' active' : ''}`}
      data-testid="late-only"
      aria-pressed={lateOnly}
      onClick={() => {
        board.getState().setLateOnly(!lateOnly);
        board.getState().setMenuOpen(false);
      }}
    >
      {lateOnly ? t('board.late_all') : t('board.late_only', { count })}
    </button>
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
        <TicketCard key={ticket.order.id} ticket={ticket} blocks={ticketBlocks(ticket, { compact: props.compact, stationId: null, withStations: false, showState: false, actions: true })} compact={props.compact} onCancel={props.onCancel} />
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

