import { useApp, useBoard, useNow, useSettings, useT } from '../app-context.tsx';
import { formatClock } from '../format.ts';
import { isStale } from '../stores/board-store.ts';

/** Said plainly, across the board: the data may be old, or the platform is out of reach. */
export function StaleBanner() {
  const t = useT();
  const now = useNow(1000);
  const stale = useBoard((s) => isStale(s, now));
  const lastHeardAt = useBoard((s) => s.lastHeardAt);
  const status = useBoard((s) => s.status);
  const timeZone = useBoard((s) => s.restaurant?.time_zone ?? 'America/Santiago');
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

export function Toasts() {
  const t = useT();
  const { board } = useApp();
  const toasts = useBoard((s) => s.toasts);
  if (toasts.length === 0) return null;
  return (
    <div className="toasts" aria-live="assertive">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} role="alert" data-testid="toast" data-kind={toast.kind}>
          <span>
            {toast.kind === 'refused'
              ? t('board.refused', { number: toast.number ?? '?', message: toast.message })
              : toast.kind === 'changed'
                ? `#${toast.number ?? '?'}: ${t('ticket.changed')} (${toast.message})`
                : toast.message}
          </span>
          <button type="button" className="btn btn-secondary" onClick={() => board.getState().dismissToast(toast.id)}>
            {t('common.dismiss')}
          </button>
        </div>
      ))}
    </div>
  );
}
