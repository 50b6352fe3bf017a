// Informes (issue 33): the manager's screen, loaded on first use (its charts and words are a chunk
// of their own), so the board's bundle does not carry them.
import { lazy, Suspense } from 'react';
import { useT } from '../app-context.tsx';

const InformesScreen = lazy(() => import('../reports/InformesScreen.tsx'));

export function ReportsView() {
  const t = useT();
  return (
    <Suspense fallback={<p className="page muted" data-testid="reports-loading">{t('reports.loading')}</p>}>
      <InformesScreen />
    </Suspense>
  );
}
