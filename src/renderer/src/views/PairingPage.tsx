// A tablet's browser without a valid device token lands here: how to pair it, and a field for the
// six-digit code (the QR code's URL pairs it without typing). A refused pairing URL says why.
import { useState, type FormEvent } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { LANGUAGES } from '../../../shared/locale.ts';
import { translate, type TextKey } from '../i18n.ts';
import type { ScreenPreferencesState } from '../state/screen-preferences-state.ts';

const REASONS: Record<string, TextKey> = { refused: 'pairing.refused', rate_limited: 'pairing.rate_limited' };

/** Opened on the machine that runs Comanda: the manager may want the link `npm start` printed, not pairing. */
const onThisMachine = (): boolean => ['127.0.0.1', 'localhost', '[::1]'].includes(window.location.hostname);

export function PairingPage(props: { preferences: StoreApi<ScreenPreferencesState>; revoked?: boolean }) {
  const language = useStore(props.preferences, (s) => s.language) ?? 'es';
  const theme = useStore(props.preferences, (s) => s.theme) ?? 'dark';
  const t = (key: TextKey, vars?: Record<string, string | number>) => translate(language, key, vars);
  const reason = new URLSearchParams(window.location.search).get('pairing');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(
    props.revoked ? t('pairing.revoked') : reason && REASONS[reason] ? t(REASONS[reason]) : null,
  );
  const [busy, setBusy] = useState(false);
  document.documentElement.dataset.theme = theme;
  document.documentElement.lang = language;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const response = await fetch('./pair', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: code.trim() }),
      });
      const body = (await response.json()) as { ok: boolean; error?: { code: string; message: string } };
      if (body.ok) {
        window.location.replace('./');
        return;
      }
      setError(t(body.error?.code === 'rate_limited' ? 'pairing.rate_limited' : 'pairing.refused'));
    } catch {
      setError(t('pairing.unreachable'));
    }
    setBusy(false);
  };

  return (
    <main className="pairing-page" data-testid="pairing-required">
      <div className="pairing-card">
        <span className="logo">Comanda</span>
        <h1>{t('pairing.title')}</h1>
        <ol className="pairing-steps">
          <li>{t('pairing.step_counter')}</li>
          <li>{t('pairing.step_scan')}</li>
        </ol>
        <form className="pairing-form" onSubmit={(e) => void submit(e)}>
          <label className="field">
            <span>{t('pairing.code_label')}</span>
            <input
              data-testid="pairing-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              placeholder="123456"
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            />
          </label>
          <button type="submit" className="btn btn-primary" data-testid="pairing-submit" disabled={busy || code.length !== 6}>
            {t('pairing.submit')}
          </button>
        </form>
        {onThisMachine() && (
          <p className="muted" data-testid="pairing-manager-hint">
            {t('pairing.manager_hint')}
          </p>
        )}
        {error && (
          <p className="pairing-error" role="alert" data-testid="pairing-error">
            {error}
          </p>
        )}
        <div className="segmented pairing-language">
          {LANGUAGES.map((l) => (
            <button key={l} type="button" className={`btn ${language === l ? 'active' : ''}`} onClick={() => props.preferences.getState().set({ language: l })}>
              {l === 'es' ? 'Español' : 'English'}
            </button>
          ))}
        </div>
      </div>
    </main>
  );
}
