import { useEffect, useMemo, useState } from 'react';
import type { KitchenOrder } from '../../shared/screen-contract/kitchen.ts';
import { useApp, useBoard, useLanguage, useNow, useSettings, useT, useTheme } from './app-context.tsx';
import { StatusStrip, Toasts, UndoTray } from './components/Banners.tsx';
import { BoardView } from './components/BoardView.tsx';
import { ConfirmDialog, type ConfirmRequest } from './components/ConfirmDialog.tsx';
import { ScreenMenuButton } from './components/ScreenMenu.tsx';
import { useSoundAllowed } from './components/SoundPrompt.tsx';
import { formatClock } from './format.ts';
import { useViewportWidth } from './layout.ts';
import { createAlarm } from './sound.ts';
import { IntegrationsView } from './views/IntegrationsView.tsx';
import { KitchenScreensView } from './views/KitchenScreensView.tsx';
import { ScreenView } from './views/ScreenView.tsx';
import { useWakeLock } from './tablet/wake-lock.ts';
import { LocationsView } from './views/LocationsView.tsx';
import { ReportsView } from './views/ReportsView.tsx';
import { SettingsView } from './views/SettingsView.tsx';
import { StockView } from './views/StockView.tsx';

export type View = 'board' | 'stock' | 'locations' | 'reports' | 'screens' | 'integrations' | 'settings' | 'screen';
/** The desktop window has every view (Informes among them); a paired tablet only the kitchen's, and its own preferences. */
const VIEWS: Record<'desktop' | 'tablet', View[]> = {
  desktop: ['board', 'stock', 'locations', 'reports', 'screens', 'integrations', 'settings'],
  tablet: ['board', 'stock', 'locations', 'screen'],
};

export function App() {
  const t = useT();
  const { board, mode, inBrowser } = useApp();
  const views = VIEWS[mode];
  const [view, setView] = useState<View>(() => {
    const requested = new URLSearchParams(window.location.search).get('view');
    return views.includes(requested as View) ? (requested as View) : 'board';
  });
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const theme = useTheme();
  const language = useLanguage();
  const soundOn = useSettings((s) => s.settings.sound);
  const muted = useBoard((s) => s.muted);
  const ringingCount = useBoard((s) => Object.keys(s.ringing).length);
  const restaurant = useBoard((s) => s.restaurant);
  // The views as tabs where they fit in one line with the tools, else one menu (whole words, no wrapping).
  const navAsMenu = useViewportWidth() < (views.length > 4 ? 1240 : 700);
  const now = useNow(1000);
  const offset = useBoard((s) => s.clockOffset);
  const alarm = useMemo(() => createAlarm(), []);
  const alarmOn = ringingCount > 0 && soundOn && !muted;
  useWakeLock(mode === 'tablet' && view === 'board');
  const soundAllowed = useSoundAllowed(mode === 'tablet' || inBrowser === true);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.lang = language;
  }, [theme, language]);

  useEffect(() => {
    alarm.setRinging(alarmOn);
  }, [alarm, alarmOn]);

  const askCancel = (order: KitchenOrder) =>
    setConfirm({
      title: t('confirm.cancel_title', { number: order.number }),
      body: t('confirm.cancel_body'),
      confirmLabel: t('confirm.cancel_yes'),
      danger: true,
      onConfirm: () => board.getState().cancel(order.id),
    });

  // Keyboard and bump bar: arrows select, Enter/Space bump, Esc undo.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (view !== 'board' || confirm) return;
      const target = event.target as HTMLElement | null;
      if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
      const state = board.getState();
      const keys: Record<string, () => void> = {
        ArrowLeft: () => state.moveSelection('left'),
        ArrowRight: () => state.moveSelection('right'),
        ArrowUp: () => state.moveSelection('up'),
        ArrowDown: () => state.moveSelection('down'),
        Enter: () => state.bumpSelected(),
        ' ': () => state.bumpSelected(),
        Escape: () => void state.undo(),
      };
      const action = keys[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [board, view, confirm]);

  return (
    <div className={`app view-${view} mode-${mode}`} data-alarm={alarmOn ? 'on' : 'off'} data-mode={mode} data-testid="app">
      <header className="top-bar">
        <div className="brand">
          <span className="logo">Comanda</span>
          {restaurant && <span className="restaurant-name">{restaurant.name}</span>}
        </div>
        <nav className="tabs">
          {navAsMenu ? (
            <select className="nav-select" data-testid="nav-select" aria-label={t('nav.board')} value={view} onChange={(e) => setView(e.target.value as View)}>
              {views.map((v) => (
                <option key={v} value={v}>
                  {t(`nav.${v}`)}
                </option>
              ))}
            </select>
          ) : (
            views.map((v) => (
              <button key={v} type="button" className={`tab ${view === v ? 'active' : ''}`} data-testid={`nav-${v}`} aria-current={view === v ? 'page' : undefined} onClick={() => setView(v)}>
                {t(`nav.${v}`)}
              </button>
            ))
          )}
          {/* In the views' room, against the tools, while a move can be taken back: never over the
              menu, the sound button or a ticket (Banners.tsx says which tabs give way). */}
          {view === 'board' && <UndoTray />}
        </nav>
        <div className="top-tools">
          {view === 'board' && <ScreenMenuButton />}
          <button
            type="button"
            className={`btn btn-mute ${muted ? 'muted' : ''} ${ringingCount > 0 ? 'ringing' : ''}`}
            data-testid="mute"
            aria-pressed={muted}
            aria-label={t(muted ? 'board.unmute' : 'board.mute')}
            title={ringingCount > 0 ? t('board.ringing', { count: ringingCount }) : undefined}
            onClick={() => board.getState().setMuted(!muted)}
          >
            <svg className="mute-icon" viewBox="0 0 24 24" width="26" height="26" aria-hidden="true">
              <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" />
              {muted ? <path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" strokeWidth="2.4" /> : <path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" strokeWidth="2" fill="none" />}
            </svg>
            <span className="mute-label">{t(muted ? 'board.unmute' : 'board.mute')}</span>
          </button>
          {restaurant && <span className="clock">{formatClock(now + offset, restaurant.time_zone, language)}</span>}
        </div>
      </header>
      <main className="content">
        {view === 'board' && <BoardView onCancel={askCancel} />}
        {view === 'stock' && <StockView />}
        {view === 'locations' && <LocationsView confirm={setConfirm} />}
        {view === 'reports' && <ReportsView />}
        {view === 'screens' && <KitchenScreensView confirm={setConfirm} />}
        {view === 'screen' && <ScreenView />}
        {view === 'integrations' && <IntegrationsView confirm={setConfirm} />}
        {view === 'settings' && <SettingsView />}
      </main>
      {/* Over the board at fixed sizes: they never push or shrink it (the undo tray is in the views' room of the top bar). */}
      <Toasts />
      <StatusStrip board={view === 'board'} soundAllowed={soundAllowed} />
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </div>
  );
}
