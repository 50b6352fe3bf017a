// "Esta pantalla" (tablets): what this one screen prefers, kept on it (localStorage): language,
// theme and the location it shows.
import { useApp, useBoard, usePreferences, useT } from '../app-context.tsx';

export function ScreenView() {
  const t = useT();
  const { preferences, board } = useApp();
  const language = usePreferences((s) => s.language);
  const theme = usePreferences((s) => s.theme);
  const locationId = usePreferences((s) => s.location_id);
  const locations = useBoard((s) => s.locations);
  const set = preferences.getState().set;

  return (
    <div className="page screen-page" data-testid="screen-view">
      <header className="page-head">
        <h1>{t('screen.title')}</h1>
      </header>
      <p className="muted">{t('screen.intro')}</p>
      <div className="screen-prefs">
        <label className="field">
          <span>{t('settings.language')}</span>
          <select data-testid="screen-language" value={language ?? 'es'} onChange={(e) => set({ language: e.target.value as 'es' | 'en' })}>
            <option value="es">Español</option>
            <option value="en">English</option>
          </select>
        </label>
        <label className="field">
          <span>{t('settings.theme')}</span>
          <select data-testid="screen-theme" value={theme ?? 'dark'} onChange={(e) => set({ theme: e.target.value as 'dark' | 'light' })}>
            <option value="dark">{t('settings.dark')}</option>
            <option value="light">{t('settings.light')}</option>
          </select>
        </label>
        <label className="field">
          <span>{t('screen.location')}</span>
          <select
            data-testid="screen-location"
            value={locationId ?? ''}
            onChange={(e) => {
              const chosen = e.target.value || null;
              set({ location_id: chosen });
              board.getState().setLocationFilter(chosen);
            }}
          >
            <option value="">{t('board.location_all')}</option>
            {locations.map((l) => (
              <option key={l.location_id} value={l.location_id}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}
