import { DEFAULT_TIME_ZONE } from '../../../shared/locale.ts';
import { useBoard, useNow, useSettings, useT } from '../app-context.tsx';
import { formatClock } from '../format.ts';
import { isStale } from '../stores/board-store.ts';

export function StatusBar() {
  const t = useT();
  const now = useNow(1000);
  const status = useBoard((s) => s.status);
  const stale = useBoard((s) => isStale(s, now));
  const timeZone = useBoard((s) => s.restaurant?.time_zone ?? DEFAULT_TIME_ZONE);
  const language = useSettings((s) => s.settings.language);
  const apiUrl = useSettings((s) => s.info?.api_base_url ?? null);
  const engineLost = useBoard((s) => s.engineLost);
  const mode = status?.mode ?? 'standalone';
  const online = status?.online ?? false;
  return (
    <footer className={`status-bar ${engineLost ? 'engine-lost' : ''}`} data-testid="status-bar" data-engine={engineLost ? 'lost' : 'ok'}>
      <span className={`status-dot ${engineLost ? 'offline' : status === null ? '' : stale ? 'stale' : online ? 'online' : 'offline'}`} aria-hidden="true" />
      <span data-testid="connection">
        {t(mode === 'connected' ? 'statusbar.connected' : 'statusbar.standalone')} ·{' '}
        {engineLost
          ? t('statusbar.unreachable')
          : status === null
            ? t('statusbar.connecting')
            : stale
              ? t('statusbar.stale')
              : t(online ? 'statusbar.online' : 'statusbar.offline')}
      </span>
      {mode === 'connected' && (
        <span data-testid="last-sync">
          {t('statusbar.last_sync', { time: status?.last_sync_at ? formatClock(status.last_sync_at, timeZone, language) : t('statusbar.never') })}
        </span>
      )}
      <span data-testid="queued">{t('statusbar.queued', { count: status?.queued ?? 0 })}</span>
      {(status?.conflicts ?? 0) > 0 && (
        <span className="status-conflicts" data-testid="conflicts">
          {t('statusbar.conflicts', { count: status!.conflicts })}
        </span>
      )}
      {status?.storage_full && (
        <span className="status-error" data-testid="storage-full">
          {t('statusbar.storage_full')}
        </span>
      )}
      {status?.error && (
        <span className="status-error" data-testid="connection-error" title={status.error}>
          {status.error}
        </span>
      )}
      {apiUrl && <span className="muted">{t('statusbar.api', { url: apiUrl })}</span>}
    </footer>
  );
}
