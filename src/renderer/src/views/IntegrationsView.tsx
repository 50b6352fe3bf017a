import { DEFAULT_TIME_ZONE } from '../../../shared/locale.ts';
import { useEffect, useState } from 'react';
import type { World } from '../../../shared/screen-contract/kitchen.ts';
import { useApp, useBoard, useKeys, useSettings, useT } from '../app-context.tsx';
import type { ConfirmRequest } from '../components/ConfirmDialog.tsx';
import { RevocableTable } from '../components/RevocableTable.tsx';
import { formatDateTime } from '../format.ts';

export function IntegrationsView({ confirm }: { confirm(request: ConfirmRequest): void }) {
  const t = useT();
  const { keys } = useApp();
  const list = useKeys((s) => s.keys);
  const created = useKeys((s) => s.created);
  const busy = useKeys((s) => s.busy);
  const error = useKeys((s) => s.error);
  const info = useSettings((s) => s.info);
  const language = useSettings((s) => s.settings.language);
  const timeZone = useBoard((s) => s.restaurant?.time_zone ?? DEFAULT_TIME_ZONE);
  const [label, setLabel] = useState('');
  const [world, setWorld] = useState<World>('live');
  const [write, setWrite] = useState(false);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    void keys.getState().load();
  }, [keys]);

  const when = (at: string | null) => (at ? formatDateTime(at, timeZone, language) : t('keys.never'));
  const addresses = [info?.api_base_url, ...(info?.lan_urls ?? [])].filter((u): u is string => typeof u === 'string');

  return (
    <div className="page integrations-page" data-testid="integrations-view">
      <header className="page-head">
        <h1>{t('keys.title')}</h1>
      </header>
      <p className="muted">{t('keys.intro')}</p>
      {info && (
        <p className="keys-restaurant" data-testid="keys-restaurant">
          {t('keys.restaurant', { name: info.restaurant.name })} <span className="muted">({info.restaurant.id})</span>
          {info.restaurants.length > 1 && <span className="muted"> · {t('keys.restaurant_change')}</span>}
        </p>
      )}
      {addresses.map((url) => (
        <p key={url} className="api-address">
          {t('keys.api_address', { url })}
        </p>
      ))}
      <form
        className="key-form"
        onSubmit={(e) => {
          e.preventDefault();
          setCopied(false);
          void keys
            .getState()
            .create({ world, write, label: label.trim() || null })
            .then((ok) => ok && setLabel(''));
        }}
      >
        <label className="field">
          <span>{t('keys.label')}</span>
          <input data-testid="key-label" value={label} maxLength={100} onChange={(e) => setLabel(e.target.value)} />
        </label>
        <label className="field">
          <span>{t('keys.world')}</span>
          <select data-testid="key-world" value={world} onChange={(e) => setWorld(e.target.value as World)}>
            <option value="live">{t('world.live')}</option>
            <option value="test">{t('world.test')}</option>
          </select>
        </label>
        <label className="field">
          <span>{t('keys.permission')}</span>
          <select data-testid="key-write" value={write ? 'write' : 'read'} onChange={(e) => setWrite(e.target.value === 'write')}>
            <option value="read">{t('keys.read')}</option>
            <option value="write">{t('keys.write')}</option>
          </select>
        </label>
        <button type="submit" className="btn btn-primary" data-testid="key-generate" disabled={busy}>
          {t('keys.generate')}
        </button>
      </form>
      {error && <div className="notice notice-error" role="alert">{t('common.error', { message: error })}</div>}
      {created && (
        <div className="created-key" data-testid="created-key">
          <p className="warning">{t('keys.shown_once')}</p>
          {info && <p data-testid="created-key-restaurant">{t('keys.created_for', { name: info.restaurant.name })}</p>}
          <code className="key-secret" data-testid="key-secret">
            {created.key}
          </code>
          <div className="created-actions">
            <button
              type="button"
              className="btn btn-primary"
              data-testid="key-copy"
              onClick={() =>
                void navigator.clipboard.writeText(created.key).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {copied ? t('keys.copied') : t('keys.copy')}
            </button>
            <button type="button" className="btn btn-secondary" data-testid="key-done" onClick={() => keys.getState().dismissCreated()}>
              {t('keys.done')}
            </button>
          </div>
        </div>
      )}
      {list.length === 0 ? (
        <p className="muted">{t('keys.none')}</p>
      ) : (
        <RevocableTable
          rows={list}
          className="keys-table"
          idAttribute="data-key-id"
          columns={[
            {
              title: t('keys.label_column'),
              cell: (k) => (
                <>
                  {k.label ?? t('keys.no_label')} <span className="muted">…{k.last4}</span>
                </>
              ),
            },
            {
              title: t('keys.world'),
              cell: (k) => <span className={`badge ${k.world === 'test' ? 'badge-test' : 'badge-live'}`}>{t(k.world === 'live' ? 'world.live' : 'world.test')}</span>,
            },
            { title: t('keys.permission'), cell: (k) => t(k.write ? 'keys.write' : 'keys.read') },
            { title: t('keys.restaurant_column'), cell: () => info?.restaurant.name ?? '' },
            { title: t('keys.created'), cell: (k) => when(k.created_at) },
            { title: t('keys.last_used'), cell: (k) => when(k.last_used_at) },
          ]}
          revoke={{
            label: t('keys.revoke'),
            revokedText: t('keys.revoked'),
            testId: 'key-revoke',
            confirmBody: (k) => t('keys.revoke_confirm', { label: k.label ?? `…${k.last4}` }),
            run: (id) => void keys.getState().revoke(id),
          }}
          confirm={confirm}
        />
      )}
    </div>
  );
}
