import { useState } from 'react';
import { useApp, useSettings, useT } from '../app-context.tsx';

/**
 * The SMTP server for customers' "order ready" mails. The URL carries a password: it is stored
 * encrypted and never shown again, only the server and the sender.
 */
export function MailSettings() {
  const t = useT();
  const { settings: settingsState } = useApp();
  const mail = useSettings((s) => s.view?.mail);
  const secure = useSettings((s) => s.view?.secure_storage);
  const saving = useSettings((s) => s.saving);
  const [url, setUrl] = useState('');
  const [from, setFrom] = useState('');
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        void settingsState
          .getState()
          .saveSmtp(url.trim(), from.trim() || null)
          .then((saved) => saved && setUrl(''));
      }}
    >
      <p data-testid="mail-info">
        {mail?.configured ? t('mail.configured', { server: mail.server ?? '—', from: mail.from ?? '—' }) : t('mail.not_configured')}
      </p>
      <label className="field">
        <span>{t('mail.url')}</span>
        <input type="password" autoComplete="off" data-testid="smtp-url" placeholder="smtp://usuario:clave@servidor:587" value={url} onChange={(e) => setUrl(e.target.value)} disabled={secure?.available === false} />
      </label>
      <label className="field">
        <span>{t('mail.from')}</span>
        <input type="email" data-testid="smtp-from" value={from} onChange={(e) => setFrom(e.target.value)} disabled={secure?.available === false} />
      </label>
      <button type="submit" className="btn btn-primary" data-testid="save-smtp" disabled={url.trim() === '' || saving}>
        {t('settings.save')}
      </button>
      {mail?.configured && (
        <button type="button" className="btn btn-secondary" data-testid="clear-smtp" onClick={() => void settingsState.getState().clearSmtp()}>
          {t('mail.clear')}
        </button>
      )}
    </form>
  );
}
