import { useEffect, useState } from 'react';
import type { SyncStatus } from '../../../shared/sync-status.ts';
import { useApp, useT } from '../app-context.tsx';

const REFRESH_MS = 5_000;

function describe(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'object' && value !== null && 'message' in value) return String((value as { message: unknown }).message);
  if (typeof value === 'object' && value !== null && 'status' in value) return String((value as { status: unknown }).status);
  return JSON.stringify(value);
}

/**
 * Changes the platform refused while this kitchen was offline: what the kitchen did, what the
 * platform said, and what stands now (the platform's state). Nothing refused is hidden.
 */
export function SyncConflicts() {
  const t = useT();
  const { api } = useApp();
  const [status, setStatus] = useState<SyncStatus | null>(null);

  useEffect(() => {
    let live = true;
    const load = () =>
      api.syncStatus({}).then(
        (value) => live && setStatus(value),
        () => undefined,
      );
    void load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [api]);

  if (status === null) return null;
  return (
    <div className="sync-conflicts" data-testid="sync-conflicts">
      <p>
        {t('sync.summary', { pending: status.outbox_pending, conflicts: status.conflicts.length })}
        {status.last_error && <span className="muted"> · {status.last_error}</span>}
      </p>
      {status.conflicts.length > 0 && (
        <ul>
          {status.conflicts.map((conflict) => (
            <li key={conflict.id} data-testid="sync-conflict">
              <strong>{t(`sync.kind.${conflict.kind}` as Parameters<typeof t>[0])}</strong>
              {conflict.order_id && <span className="muted"> · {conflict.order_id.slice(0, 8)}</span>}
              <div>{t('sync.local', { change: JSON.stringify(conflict.local_change) })}</div>
              <div>{t('sync.upstream', { reason: describe(conflict.upstream_error) })}</div>
              <div className="muted">{t('sync.now', { state: describe(conflict.upstream_state) })}</div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
