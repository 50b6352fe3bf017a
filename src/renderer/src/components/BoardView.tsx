import { useCallback, useMemo, useRef } from 'react';
import type { KitchenOrder } from '../../../shared/ipc/kitchen.ts';
import type { AppSettings } from '../../../shared/ipc/settings.ts';
import { useApp, useBoard, useEngineNow, useSettings, useT } from '../app-context.tsx';
import { allDayCounts, COLUMNS, layoutBoard, todayStats, type ShownTicket } from '../board-logic.ts';
import { formatMinutes } from '../format.ts';
import { shownTickets } from '../stores/board-store.ts';
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
  const recallOpen = useBoard((s) => s.recallOpen);
  const dayStart = useBoard((s) => s.dayStart);
  const thresholds = useSettings((s) => s.settings.thresholds);

  const shown = useMemo(() => shownTickets({ tickets, moves, flashes }), [tickets, moves, flashes]);
  const layout = useMemo(() => layoutBoard(shown, filter), [shown, filter]);
  const allDay = useMemo(() => allDayCounts(shown, filter), [shown, filter]);
  const locationName = (ticket: ShownTicket) =>
    filter === null && locations.length > 1 ? locations.find((l) => l.location_id === ticket.order.location_id)?.name : undefined;

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
    <div className="board" data-testid="board">
      <div className="columns">
        {COLUMNS.map((status) => (
          <section key={status} className={`column column-${status}`} data-column={status}>
            <h2 className="column-title">
              {t(`status.${status}`)} <span className="count">{layout.columns[status].length}</span>
            </h2>
            <div className="column-tickets">
              {layout.columns[status].length === 0 && <div className="empty">{t('board.empty')}</div>}
              {layout.columns[status].map((ticket) => (
                <TicketCard
                  key={ticket.order.id}
                  ticket={ticket}
                  locationName={locationName(ticket)}
                  onCancel={cancel}
                />
              ))}
            </div>
          </section>
        ))}
      </div>
      <aside className="side">
        <TodayPanel shown={shown} dayStart={dayStart} thresholds={thresholds} filter={filter} />
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
        <SideList title={t('board.scheduled')} tickets={layout.scheduled} testId="scheduled" onCancel={cancel} />
        <SideList
          title={t('board.awaiting_payment')}
          tickets={layout.awaitingPayment}
          testId="awaiting-payment"
          onCancel={cancel}
        />
        <button type="button" className="btn btn-secondary recall-button" data-testid="recall-open" onClick={() => board.getState().setRecallOpen(true)}>
          {t('board.recall', { count: layout.recall.length })}
        </button>
      </aside>
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
                <TicketCard key={ticket.order.id} ticket={ticket} readOnly compact />
              ))}
            </div>
          </aside>
        </div>
      )}
    </div>
  );
}

function SideList(props: { title: string; tickets: ShownTicket[]; testId: string; onCancel(order: KitchenOrder): void }) {
  if (props.tickets.length === 0) return null;
  return (
    <section className="panel side-list" data-testid={props.testId}>
      <h3>
        {props.title} <span className="count">{props.tickets.length}</span>
      </h3>
      {props.tickets.map((ticket) => (
        <TicketCard key={ticket.order.id} ticket={ticket} compact onCancel={props.onCancel} />
      ))}
    </section>
  );
}

/** Today's figures: they depend on the time (late tickets), so they tick here, not on the board. */
function TodayPanel(props: {
  shown: ShownTicket[];
  dayStart: number;
  thresholds: AppSettings['thresholds'];
  filter: string | null;
}) {
  const t = useT();
  const engineNow = useEngineNow(250);
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
