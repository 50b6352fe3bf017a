import { PrintersSettings } from '../components/PrintersSettings.tsx';
import { LANGUAGES } from '../../../shared/locale.ts';
import { useEffect, useState } from 'react';
import type { SettingsPatch } from '../../../shared/screen-contract/settings.ts';
import { useApp, useSettings, useT } from '../app-context.tsx';
import { BackupNow } from '../components/BackupNow.tsx';
import { MailSettings } from '../components/MailSettings.tsx';
import { OnlinePaymentsSettings } from '../components/OnlinePaymentsSettings.tsx';
import { SyncConflicts } from '../components/SyncConflicts.tsx';

export function SettingsView() {
  const t = useT();
  const { settings: settingsState } = useApp();
  const view = useSettings((s) => s.view);
  const info = useSettings((s) => s.info);
  const settings = useSettings((s) => s.settings);
  const error = useSettings((s) => s.error);
  const saving = useSettings((s) => s.saving);
  const [warn, setWarn] = useState(settings.thresholds.warn_minutes);
  const [late, setLate] = useState(settings.thresholds.late_minutes);
  const [port, setPort] = useState(settings.http.port);
  const [url, setUrl] = useState(settings.connection.platform_url ?? '');
  const [key, setKey] = useState('');
  const [keyLabel, setKeyLabel] = useState('');

  useEffect(() => {
    setWarn(settings.thresholds.warn_minutes);
    setLate(settings.thresholds.late_minutes);
    setPort(settings.http.port);
    setUrl(settings.connection.platform_url ?? '');
  }, [settings]);

  const update = (patch: SettingsPatch) => void settingsState.getState().update(patch);
  const keyInfo = view?.platform_key;
  const secure = view?.secure_storage;

  return (
    <div className="page settings-page" data-testid="settings-view">
      <header className="page-head">
        <h1>{t('settings.title')}</h1>
      </header>
      {error && (
        <div className="notice notice-error" role="alert" data-testid="settings-error" data-code={error.code}>
          {error.code === 'secure_storage_unavailable' ? t('settings.no_secure_storage') : t('common.error', { message: error.message })}
        </div>
      )}
      {view?.restart_required && (
        <div className="notice notice-warn" data-testid="restart-required">
          {t('settings.restart_required')}{' '}
          {view.can_restart === false ? (
            <span data-testid="restart-from-terminal">{t('settings.restart_from_terminal')}</span>
          ) : (
            <button type="button" className="btn btn-secondary" onClick={() => void settingsState.getState().restart()}>
              {t('settings.restart')}
            </button>
          )}
        </div>
      )}

      {info && (
        <section className="settings-section" data-testid="settings-restaurant">
          <h2>{t('settings.restaurant')}</h2>
          {info.restaurants.length > 1 ? (
            <label className="field">
              <span>{t('settings.restaurant_choose')}</span>
              <select data-testid="restaurant" value={settings.restaurant_id ?? info.restaurant.id} onChange={(e) => update({ restaurant_id: e.target.value })}>
                {info.restaurants.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <p data-testid="restaurant-name">{info.restaurant.name}</p>
          )}
          <p className="muted">{t('settings.restaurant_help')}</p>
        </section>
      )}

      <section className="settings-section">
        <h2>{t('settings.language')} · {t('settings.theme')} · {t('settings.sound')}</h2>
        <div className="segmented" role="group">
          {LANGUAGES.map((language) => (
            <button key={language} type="button" className={`btn ${settings.language === language ? 'active' : ''}`} data-testid={`language-${language}`} onClick={() => update({ language })}>
              {language === 'es' ? 'Español' : 'English'}
            </button>
          ))}
        </div>
        <div className="segmented" role="group">
          {(['dark', 'light'] as const).map((theme) => (
            <button key={theme} type="button" className={`btn ${settings.theme === theme ? 'active' : ''}`} data-testid={`theme-${theme}`} onClick={() => update({ theme })}>
              {t(theme === 'dark' ? 'settings.dark' : 'settings.light')}
            </button>
          ))}
        </div>
        <label className="field check">
          <input type="checkbox" data-testid="sound" checked={settings.sound} onChange={(e) => update({ sound: e.target.checked })} />
          <span>{t('settings.sound')}</span>
        </label>
      </section>

      <section className="settings-section">
        <h2>{t('settings.timers')}</h2>
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            update({ thresholds: { warn_minutes: warn, late_minutes: late } });
          }}
        >
          <label className="field">
            <span>{t('settings.warn_minutes')}</span>
            <input type="number" min={1} max={240} data-testid="warn-minutes" value={warn} onChange={(e) => setWarn(Number(e.target.value))} />
          </label>
          <label className="field">
            <span>{t('settings.late_minutes')}</span>
            <input type="number" min={1} max={240} data-testid="late-minutes" value={late} onChange={(e) => setLate(Number(e.target.value))} />
          </label>
          <button type="submit" className="btn btn-primary" data-testid="save-thresholds" disabled={saving}>
            {t('settings.save')}
          </button>
        </form>
      </section>

      <section className="settings-section">
        <h2>{t('settings.connection')}</h2>
        {settings.connection.mode === 'connected' && <SyncConflicts />}
        <div className="segmented" role="group">
          {(['standalone', 'connected'] as const).map((mode) => (
            <button
              key={mode}
              type="button"
              className={`btn ${settings.connection.mode === mode ? 'active' : ''}`}
              data-testid={`mode-${mode}`}
              onClick={() => update({ connection: { mode, platform_url: url.trim() || null } })}
            >
              {t(mode === 'standalone' ? 'settings.standalone' : 'settings.connected')}
            </button>
          ))}
        </div>
        <label className="field">
          <span>{t('settings.platform_url')}</span>
          <input type="url" data-testid="platform-url" value={url} placeholder="https://…/v1" onChange={(e) => setUrl(e.target.value)} onBlur={() => url !== (settings.connection.platform_url ?? '') && update({ connection: { platform_url: url.trim() || null } })} />
        </label>
        {secure && !secure.available && (
          <div className="notice notice-error" data-testid="no-secure-storage">
            {t('settings.no_secure_storage')}
          </div>
        )}
        {secure?.clear_text_file && (
          <div className="notice notice-warn" data-testid="clear-text-storage">
            {t('settings.clear_text_storage', { file: secure.clear_text_file })}
          </div>
        )}
        <p data-testid="platform-key-info">
          {keyInfo?.present
            ? t('settings.key_saved', { world: keyInfo.world ?? '?', label: keyInfo.label ?? '—', last4: keyInfo.last4 ?? '' })
            : t('settings.no_key')}
        </p>
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void settingsState
              .getState()
              .savePlatformKey(key, keyLabel.trim() || null)
              .then(() => setKey(''));
          }}
        >
          <label className="field">
            <span>{t('settings.platform_key')}</span>
            <input type="password" autoComplete="off" data-testid="platform-key" value={key} onChange={(e) => setKey(e.target.value)} disabled={secure?.available === false} />
          </label>
          <label className="field">
            <span>{t('settings.platform_key_label')}</span>
            <input data-testid="platform-key-label" value={keyLabel} onChange={(e) => setKeyLabel(e.target.value)} disabled={secure?.available === false} />
          </label>
          <button type="submit" className="btn btn-primary" data-testid="save-platform-key" disabled={key.trim() === '' || saving}>
            {t('settings.save_key')}
          </button>
          {keyInfo?.present && (
            <button type="button" className="btn btn-secondary" data-testid="clear-platform-key" onClick={() => void settingsState.getState().clearPlatformKey()}>
              {t('settings.clear_key')}
            </button>
          )}
        </form>
      </section>

      <section className="settings-section">
        <h2>{t('mail.title')}</h2>
        <MailSettings />
      </section>

      <section className="settings-section" data-testid="settings-online-payments">
        <h2>{t('payments.title')}</h2>
        <OnlinePaymentsSettings />
      </section>

      <section className="settings-section" data-testid="settings-printers">
        <h2>{t('printers.title')}</h2>
        <PrintersSettings />
      </section>

      <section className="settings-section">
        <h2>{t('backup.title')}</h2>
        <BackupNow />
      </section>

      <section className="settings-section">
        <h2>{t('settings.http')}</h2>
        {info?.api_base_url && <p className="api-address">{t('statusbar.api', { url: info.api_base_url })}</p>}
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            update({ http: { port } });
          }}
        >
          <label className="field">
            <span>{t('settings.port')}</span>
            <input type="number" min={1024} max={65535} data-testid="http-port" value={port} onChange={(e) => setPort(Number(e.target.value))} />
          </label>
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {t('settings.save')}
          </button>
        </form>
        <label className="field check">
          <input type="checkbox" data-testid="http-lan" checked={settings.http.lan} onChange={(e) => update({ http: { lan: e.target.checked } })} />
          <span>{t('settings.lan')}</span>
        </label>
      </section>
    </div>
  );
}
