// Ajustes → Pagos en línea: the restaurant's payment account for its live store front
// (docs/payments.md), with a provider among those the engine's registry offers (payments:get lists
// them: a provider added to the registry shows here with no edit). The token and the webhook secret
// go in and are never shown again: only "configurado" and their last 4 characters. Probar conexión
// makes one real call with the token.
import { useCallback, useEffect, useState } from 'react';
import type { OnlinePaymentsCheck, OnlinePaymentsInfo } from '../../../shared/screen-contract/online-payments.ts';

/** A provider's brand as the registry gives it; its bare name until the list has loaded. */
function providerLabel(info: OnlinePaymentsInfo | null, name: string): string {
  return info?.providers.find((provider) => provider.name === name)?.label ?? name;
}
import { errorMessage, ScreenCallError } from '../api.ts';
import { useApp, useT } from '../app-context.tsx';

export function OnlinePaymentsSettings() {
  const t = useT();
  const { api } = useApp();
  const [info, setInfo] = useState<OnlinePaymentsInfo | null>(null);
  /** The provider picked in the list; until then the kept account's (or the registry's first). */
  const [picked, setPicked] = useState<string | null>(null);
  const [token, setToken] = useState('');
  const [secret, setSecret] = useState('');
  const [apiBase, setApiBase] = useState('');
  const [check, setCheck] = useState<OnlinePaymentsCheck | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(failure instanceof ScreenCallError && failure.code === 'secure_storage_unavailable' ? t('payments.no_secure_storage') : errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  const load = useCallback(() => attempt(async () => setInfo(await api.getOnlinePayments({}))), [api]);
  useEffect(() => void load(), [load]);
  const chosen = info?.providers.find((provider) => provider.name === (picked ?? info.provider)) ?? info?.providers[0] ?? null;
  const kept = { provider: providerLabel(info, info?.provider ?? '') };

  return (
    <form
      className="inline-form"
      data-testid="online-payments"
      onSubmit={(e) => {
        e.preventDefault();
        if (!chosen) return;
        void attempt(async () => {
          setInfo(await api.setOnlinePayments({ provider: chosen.name, access_token: token, webhook_secret: secret, api_base: apiBase.trim() || null }));
          setPicked(null);
          setToken('');
          setSecret('');
          setCheck(null);
        });
      }}
    >
      <p data-testid="online-payments-info" data-configured={info?.configured ? 'true' : 'false'}>
        {info?.configured
          ? t('payments.configured', { ...kept, token: info.access_token_last4 ?? '', secret: info.webhook_secret_last4 ?? '', api: info.api_base ?? '' })
          : t('payments.not_configured')}
      </p>
      {error && (
        <div className="notice notice-error" role="alert" data-testid="online-payments-error">
          {error}
        </div>
      )}
      <label className="field">
        <span>{t('payments.provider')}</span>
        <select
          data-testid="online-payments-provider"
          value={chosen?.name ?? ''}
          disabled={busy || (info?.providers.length ?? 0) < 2}
          onChange={(e) => setPicked(e.target.value)}
        >
          {info?.providers.map((provider) => (
            <option key={provider.name} value={provider.name}>
              {provider.label}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t('payments.access_token', { provider: chosen?.label ?? '' })}</span>
        <input type="password" autoComplete="off" data-testid="mp-access-token" value={token} onChange={(e) => setToken(e.target.value)} />
      </label>
      <label className="field">
        <span>{t('payments.webhook_secret')}</span>
        <input type="password" autoComplete="off" data-testid="mp-webhook-secret" value={secret} onChange={(e) => setSecret(e.target.value)} />
      </label>
      <label className="field">
        <span>{t('payments.api_base')}</span>
        <input type="url" data-testid="mp-api-base" placeholder={chosen?.default_api_base ?? ''} value={apiBase} onChange={(e) => setApiBase(e.target.value)} />
      </label>
      <button type="submit" className="btn btn-primary" data-testid="save-online-payments" disabled={busy || chosen === null || token.trim() === '' || secret.trim() === ''}>
        {t('settings.save')}
      </button>
      {info?.configured && (
        <>
          <button
            type="button"
            className="btn btn-secondary"
            data-testid="test-online-payments"
            disabled={busy}
            onClick={() => void attempt(async () => setCheck(await api.testOnlinePayments({})))}
          >
            {t('payments.test')}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            data-testid="remove-online-payments"
            disabled={busy}
            onClick={() =>
              void attempt(async () => {
                setInfo(await api.removeOnlinePayments({}));
                setCheck(null);
              })
            }
          >
            {t('payments.remove')}
          </button>
        </>
      )}
      {check && (
        <p data-testid="online-payments-check" data-result={check.result} className={check.result === 'ok' ? 'notice' : 'notice notice-error'}>
          {t(`payments.check_${check.result}`, { ...kept, user: check.user_id ?? '', message: check.message ?? '' })}
        </p>
      )}
    </form>
  );
}
