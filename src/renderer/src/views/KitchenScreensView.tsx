// "Pantallas de cocina" (desktop only): put a tablet on the board with a QR code, its URL or a
// six-digit code (ten minutes, single use), and see or revoke the screens already paired. When wrong
// codes typed voided the live six-digit codes, it says so. Below, the pickup screens' privacy choices
// (first names, which orders) and their language.
import type { ScreenRole } from '../../../shared/screen-contract/devices.ts';
import { useEffect, useState } from 'react';
import { useApp, useBoard, useDevices, useLanguage, useT } from '../app-context.tsx';
import type { ConfirmRequest } from '../components/ConfirmDialog.tsx';
import { RevocableTable } from '../components/RevocableTable.tsx';
import { DEFAULT_TIME_ZONE } from '../../../shared/locale.ts';
import { formatClock, formatDateTime } from '../format.ts';

export function KitchenScreensView({ confirm }: { confirm(request: ConfirmRequest): void }) {
  const t = useT();
  const language = useLanguage();
  const { devices } = useApp();
  const list = useDevices((s) => s.devices);
  const offer = useDevices((s) => s.offer);
  const busy = useDevices((s) => s.busy);
  const error = useDevices((s) => s.error);
  const lockout = useDevices((s) => s.lockout);
  const pickup = useDevices((s) => s.pickup);
  const pickupSavedAt = useDevices((s) => s.pickupSavedAt);
  const timeZone = useBoard((s) => s.restaurant?.time_zone ?? DEFAULT_TIME_ZONE);
  const [name, setName] = useState('');
  const [role, setRole] = useState<ScreenRole>('kitchen');

  useEffect(() => {
    void devices.getState().load();
  }, [devices]);
  // A screen pairs on the tablet, not here: look again while an offer is on show.
  useEffect(() => {
    if (!offer) return;
    const timer = setInterval(() => void devices.getState().load(), 3000);
    return () => clearInterval(timer);
  }, [devices, offer]);

  const when = (at: string | null) => (at ? formatDateTime(at, timeZone, language) : t('screens.never'));

  return (
    <div className="page screens-page" data-testid="screens-view">
      <header className="page-head">
        <h1>{t('screens.title')}</h1>
      </header>
      <p className="muted">{t('screens.intro')}</p>
      <form
        className="key-form"
        onSubmit={(e) => {
          e.preventDefault();
          void devices
            .getState()
            .offerPairing(name.trim() || null, role)
            .then((ok) => ok && setName(''));
        }}
      >
        <label className="field">
          <span>{t('screens.name')}</span>
          <input data-testid="screen-name" value={name} maxLength={60} placeholder={t('screens.name_placeholder')} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>{t('screens.role')}</span>
          <select data-testid="screen-role" value={role} onChange={(e) => setRole(e.target.value === 'pickup' ? 'pickup' : 'kitchen')}>
            <option value="kitchen">{t('screens.role_kitchen')}</option>
            <option value="pickup">{t('screens.role_pickup')}</option>
          </select>
        </label>
        <button type="submit" className="btn btn-primary" data-testid="screen-add" disabled={busy}>
          {t('screens.add')}
        </button>
      </form>
      {error && <div className="notice notice-error" role="alert">{t('common.error', { message: error })}</div>}
      {lockout && (
        <div className="notice notice-error" role="status" data-testid="pairing-lockout">
          {t('screens.lockout', { time: formatDateTime(lockout.voided_at, timeZone, language), count: lockout.failed_attempts })}
        </div>
      )}
      {offer && (
        <div className="pairing-offer" data-testid="pairing-offer">
          <figure className={`pairing-qr-frame ${offer.reachable_from_lan ? '' : 'local-only'}`}>
            <img className="pairing-qr" data-testid="pairing-qr" alt={t('screens.qr_alt')} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(offer.qr_svg)}`} />
            {/* Said on the code itself: a tablet scanning it while LAN access is off reaches nothing. */}
            {!offer.reachable_from_lan && (
              <figcaption className="pairing-qr-local" data-testid="pairing-qr-local">
                {t('screens.qr_local_only', { host: new URL(offer.pairing_url).host })}
              </figcaption>
            )}
          </figure>
          <div className="pairing-details">
            <p>{t('screens.scan')}</p>
            <code className="pairing-url" data-testid="pairing-url">
              {offer.pairing_url}
            </code>
            <p>
              {t('screens.or_code')} <strong className="pairing-digits" data-testid="pairing-digits">{offer.code}</strong>
            </p>
            <p className="muted">{t('screens.expires', { time: formatClock(offer.expires_at, timeZone, language) })}</p>
            {!offer.reachable_from_lan && <p className="warning" data-testid="pairing-lan-off">{t('screens.lan_off')}</p>}
            <button type="button" className="btn btn-secondary" data-testid="pairing-close" onClick={() => devices.getState().dismissOffer()}>
              {t('screens.offer_close')}
            </button>
          </div>
        </div>
      )}
      {list.length === 0 ? (
        <p className="muted">{t('screens.none')}</p>
      ) : (
        <RevocableTable
          rows={list}
          className="keys-table screens-table"
          idAttribute="data-device-id"
          columns={[
            { title: t('screens.name_column'), cell: (d) => d.name },
            { title: t('screens.role'), cell: (d) => t(d.role === 'pickup' ? 'screens.role_pickup' : 'screens.role_kitchen') },
            { title: t('screens.paired_at'), cell: (d) => when(d.paired_at) },
            { title: t('screens.last_seen'), cell: (d) => when(d.last_seen_at) },
          ]}
          revoke={{
            label: t('screens.revoke'),
            revokedText: t('screens.revoked'),
            testId: 'screen-revoke',
            confirmBody: (d) => t('screens.revoke_confirm', { name: d.name }),
            run: (id) => void devices.getState().revoke(id),
          }}
          confirm={confirm}
        />
      )}
      {pickup && (
        <section className="pickup-settings" data-testid="pickup-settings">
          <h2>{t('screens.pickup_title')}</h2>
          <p className="muted">{t('screens.pickup_intro')}</p>
          <label className="field check">
            <input
              type="checkbox"
              data-testid="pickup-first-name"
              checked={pickup.show_first_name}
              onChange={(e) => void devices.getState().savePickup({ show_first_name: e.target.checked })}
            />
            <span>{t('screens.pickup_first_name')}</span>
          </label>
          <label className="field">
            <span>{t('screens.pickup_order_types')}</span>
            <select
              data-testid="pickup-order-types"
              value={pickup.order_types}
              onChange={(e) => void devices.getState().savePickup({ order_types: e.target.value === 'pickup_and_delivery' ? 'pickup_and_delivery' : 'pickup' })}
            >
              <option value="pickup">{t('screens.pickup_types_pickup')}</option>
              <option value="pickup_and_delivery">{t('screens.pickup_types_delivery')}</option>
            </select>
          </label>
          <label className="field">
            <span>{t('screens.pickup_language')}</span>
            <select
              data-testid="pickup-language"
              value={pickup.language}
              onChange={(e) => void devices.getState().savePickup({ language: e.target.value === 'en' ? 'en' : 'es' })}
            >
              <option value="es">Español</option>
              <option value="en">English</option>
            </select>
          </label>
          {pickupSavedAt !== null && (
            <p className="muted" role="status" data-testid="pickup-saved">
              {t('screens.pickup_saved')}
            </p>
          )}
        </section>
      )}
    </div>
  );
}
