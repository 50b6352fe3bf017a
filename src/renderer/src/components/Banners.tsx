import { DEFAULT_TIME_ZONE } from '../../../shared/locale.ts';
import { useApp, useBoard, useClock, useLocations, useNow, useSettings, useT } from '../app-context.tsx';
import { formatClock } from '../format.ts';
import { refusalText } from '../i18n.ts';
import { isStale, type Move } from '../stores/board-store.ts';

/** Said plainly, across the board: the data may be old, or the platform is out of reach. */
export function StaleBanner() {
  const t = useT();
  const now = useNow(1000);
  const stale = useBoard((s) => isStale(s, now));
  const lastHeardAt = useBoard((s) => s.lastHeardAt);
  const status = useBoard((s) => s.status);
  const timeZone = useBoard((s) => s.restaurant?.time_zone ?? DEFAULT_TIME_ZONE);
  const language = useSettings((s) => s.settings.language);
  if (stale) {
    return (
      <div className="banner banner-stale" role="alert" data-testid="stale-banner">
        {t('board.stale', { seconds: Math.floor((now - lastHeardAt) / 1000) })}
      </div>
    );
  }
  if (status && status.mode === 'connected' && !status.online) {
    return (
      <div className="banner banner-offline" role="alert" data-testid="offline-banner">
        {t('board.offline', { time: status.last_sync_at ? formatClock(status.last_sync_at, timeZone, language) : '—' })}
      </div>
    );
  }
  return null;
}

/** While a location this board shows is closed, the board says so, with the way to reopen it. */
export function LocationClosedBanner() {
  const t = useT();
  const { locations } = useApp();
  const view = useLocations((s) => s.view);
  const busy = useLocations((s) => s.busy);
  const filter = useBoard((s) => s.locationFilter);
  if (!view || view.world !== 'live') return null;
  const closed = view.data.filter((l) => l.is_active && !l.open_now && (filter === null || l.location_id === filter));
  if (closed.length === 0) return null;
  return (
    <div className="banner banner-closed" role="status" data-testid="location-closed-banner">
      <span>{t('board.location_closed', { names: closed.map((l) => l.name).join(', ') })}</span>
      {view.register_mode === 'manual' &&
        closed.map((l) => (
          <button
            key={l.location_id}
            type="button"
            className="btn btn-primary"
            data-testid="location-reopen"
            disabled={busy[l.location_id] === true}
            onClick={() => void locations.getState().setOpen(l.location_id, true)}
          >
            {t('board.reopen', { name: l.name })}
          </button>
        ))}
    </div>
  );
}

export function Toasts() {
  const t = useT();
  const { board } = useApp();
  const toasts = useBoard((s) => s.toasts);
  if (toasts.length === 0) return null;
  return (
    <div className="toasts" aria-live="assertive">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} role="alert" data-testid="toast" data-kind={toast.kind} data-code={toast.kind === 'refused' ? toast.code : undefined}>
          <span>
            {toast.kind === 'refused'
              ? refusalText(t, toast.code, { number: toast.number, manager: t('ticket.manager_unknown') })
              : `#${toast.number}: ${t('ticket.changed')} (${t(`status.${toast.status}`)})`}
          </span>
          <button type="button" className="btn btn-secondary" onClick={() => board.getState().dismissToast(toast.id)}>
            {t('common.dismiss')}
          </button>
        </div>
      ))}
    </div>
  );
}

/** The moves still held, in one fixed place on the screen: a tap (or Esc) takes one back. */
export function UndoTray() {
  const t = useT();
  const moves = useBoard((s) => s.moves);
  const tickets = useBoard((s) => s.tickets);
  const held = Object.entries(moves)
    .flatMap(([orderId, list]) => list.filter((m) => m.phase === 'held').map((move) => ({ orderId, move })))
    .sort((a, b) => b.move.seq - a.move.seq);
  if (held.length === 0) return null;
  return (
    <div className="undo-tray" data-testid="undo-tray" role="region" aria-label={t('board.undo_tray')}>
      {held.map(({ orderId, move }) => (
        <HeldMove key={move.seq} orderId={orderId} number={tickets[orderId]?.order.number ?? '?'} move={move} />
      ))}
    </div>
  );
}

function HeldMove({ orderId, number, move }: { orderId: string; number: string; move: Move }) {
  const t = useT();
  const { board } = useApp();
  // The shared tick may be up to a tick old at the moment of the tap: read the clock itself.
  const seconds = useClock(() => Math.ceil((move.deadline - Date.now()) / 1000));
  if (seconds <= 0) return null;
  return (
    <button type="button" className="btn btn-undo" data-testid="undo" data-order-id={orderId} onClick={() => board.getState().undo(orderId)}>
      {t('board.undo_move', { number, target: t(`status.${move.target}`), undo: t('ticket.undo'), seconds })}
    </button>
  );
}
