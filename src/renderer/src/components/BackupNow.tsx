import { useState } from 'react';
import { errorMessage } from '../api.ts';
import { useApp, useT } from '../app-context.tsx';

/** "Back up now": SQLite's online backup of the whole database into the app's backups folder. */
export function BackupNow() {
  const t = useT();
  const { api } = useApp();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ file: string; bytes: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const backUp = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(await api.backupDatabase({}));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="backup-now">
      <button type="button" className="btn btn-primary" data-testid="backup-now" disabled={busy} onClick={() => void backUp()}>
        {busy ? t('backup.running') : t('backup.now')}
      </button>
      {result && (
        <p data-testid="backup-result">{t('backup.done', { file: result.file, size: `${Math.max(1, Math.round(result.bytes / 1024))} KiB` })}</p>
      )}
      {error && (
        <p className="notice notice-error" role="alert" data-testid="backup-error">
          {t('common.error', { message: error })}
        </p>
      )}
    </div>
  );
}
