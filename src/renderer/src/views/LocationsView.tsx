import { DEFAULT_TIME_ZONE } from '../../../shared/locale.ts';
import { useEffect } from 'react';
import { useApp, useBoard, useLocations, useSettings, useT } from '../app-context.tsx';
import type { ConfirmRequest } from '../components/ConfirmDialog.tsx';
import { WorldToggle } from '../components/WorldToggle.tsx';
import { formatClock, formatDateTime } from '../format.ts';

export function LocationsView({ confirm }: { confirm(request: ConfirmRequest): void }) {
  const t = useT();
  const { locations, mode } = useApp();
  // The hub's own controls (busy override, cooks): desktop channels, which a tablet does not have.
  const hub = mode === 'desktop';
  const cooks = useLocations((s) => s.cooks);
  const drift = useLocations((s) => s.drift);
  const accepting = useLocations((s) => s.accepting);
  const view = useLocations((s) => s.view);
  const world = useLocations((s) => s.world);
  const busy = useLocations((s) => s.busy);
  const error = useLocations((s) => s.error);
  const simulated = useLocations((s) => s.simulated);
  const timeZone = useBoard((s) => s.restaurant?.time_zone ?? DEFAULT_TIME_ZONE);
  const language = useSettings((s) => s.settings.language);

  useEffect(() => {
    void locations.getState().load();
    if (hub) void locations.getState().loadCooks();
    if (hub) void locations.getState().loadDrift();
  }, [locations, hub]);

  return (
    <div className="page locations-page" data-testid="locations-view">
      <header className="page-head">
        <h1>{t('locations.title')}</h1>
        {view && <span className="muted">{t(view.register_mode === 'manual' ? 'locations.mode_manual' : 'locations.mode_schedule')}</span>}
        <WorldToggle world={world} onChange={(w) => void locations.getState().load(w)} />
      </header>
      {error && <div className="notice notice-error" role="alert">{t('common.error', { message: error })}</div>}
      <div className="location-cards">
        {view?.data.map((l) => (
          <article
            key={l.location_id}
            className={`location-card ${l.open_now ? 'is-open' : 'is-closed'} ${l.is_active ? '' : 'is-inactive'}`}
            data-location-id={l.location_id}
            data-open={String(l.open_now)}
          >
            <header>
              <h2>{l.name}</h2>
              <span className={`status-pill ${l.open_now ? 'open' : 'closed'}`}>
                {l.is_active ? t(l.open_now ? 'locations.open_now' : 'locations.closed_now') : t('locations.inactive')}
              </span>
            </header>
            <p className="address">{l.address}</p>
            <p className="reason" data-testid="reason">{t(`reason.${l.reason}`)}</p>
            {l.next_opening_at && (
              <p className="next-opening">{t('locations.next_opening', { time: formatDateTime(l.next_opening_at, timeZone, language) })}</p>
            )}
            {simulated[l.location_id] && <p className="notice notice-test" data-testid="location-simulated">{t('locations.simulated')}</p>}
            {l.is_active && l.kitchen_wait_minutes !== undefined && (
              <p className="kitchen-wait" data-testid="kitchen-wait">{t('locations.kitchen_wait', { minutes: l.kitchen_wait_minutes })}</p>
            )}
            {l.kitchen_busy && (
              <p className={`kitchen-busy ${l.kitchen_busy.paused ? 'is-paused' : ''}`} data-testid="kitchen-busy" data-paused={String(l.kitchen_busy.paused)}>
                {t(l.kitchen_busy.paused ? `locations.busy_paused_${l.kitchen_busy.reason === 'manager' ? 'manager' : 'wait'}` : 'locations.busy_taking')}
              </p>
            )}
            {hub && l.is_active && world === 'live' && (
              <div className="location-actions busy-actions">
                <button
                  type="button"
                  className="btn"
                  data-testid="busy-pause"
                  disabled={busy[l.location_id] === true || (l.kitchen_busy?.paused === true && l.kitchen_busy.reason === 'manager')}
                  onClick={() => void locations.getState().setBusy(l.location_id, 'pause')}
                >
                  {t('locations.busy_pause')}
                </button>
                <button
                  type="button"
                  className="btn"
                  data-testid="busy-resume"
                  disabled={busy[l.location_id] === true || (l.kitchen_busy?.paused === false && l.kitchen_busy.reason === 'manager')}
                  onClick={() => void locations.getState().setBusy(l.location_id, 'resume')}
                >
                  {t('locations.busy_resume')}
                </button>
                <button
                  type="button"
                  className="btn"
                  data-testid="busy-auto"
                  disabled={busy[l.location_id] === true || l.kitchen_busy?.reason !== 'manager'}
                  onClick={() => void locations.getState().setBusy(l.location_id, 'auto')}
                >
                  {t('locations.busy_auto')}
                </button>
              </div>
            )}
            {l.is_active && (
              <div className="location-actions">
                <button
                  type="button"
                  className="btn btn-primary"
                  data-testid="location-open"
                  disabled={busy[l.location_id] === true || l.open_now}
                  onClick={() => void locations.getState().setOpen(l.location_id, true)}
                >
                  {t('locations.open')}
                </button>
                <button
                  type="button"
                  className="btn btn-danger"
                  data-testid="location-close"
                  disabled={busy[l.location_id] === true || !l.open_now}
                  onClick={() =>
                    // Closing stops new orders: asked first, like cancelling an order.
                    confirm({
                      title: t('locations.close_title', { name: l.name }),
                      body: t('locations.close_body'),
                      confirmLabel: t('locations.close_yes'),
                      danger: true,
                      onConfirm: () => void locations.getState().setOpen(l.location_id, false),
                    })
                  }
                >
                  {t('locations.close')}
                </button>
              </div>
            )}
          </article>
        ))}
      </div>
      {view && <p className="muted">{t('locations.checked_at', { time: formatClock(view.checked_at, timeZone, language) })}</p>}
      {hub && cooks && cooks.length > 0 && (
        <section className="station-cooks" data-testid="station-cooks">
          <h2>{t('locations.cooks_title')}</h2>
          <p className="muted">{t('locations.cooks_help')}</p>
          <ul>
            {cooks.map((s) => (
              <li key={s.station_id} data-station-id={s.station_id}>
                <span className="station-name">{s.name}</span>
                <button
                  type="button"
                  className="btn"
                  data-testid="cooks-minus"
                  aria-label={t('locations.cooks_minus', { name: s.name })}
                  disabled={s.cooks <= 1}
                  onClick={() => void locations.getState().setCooks(s.station_id, s.cooks - 1)}
                >
                  −
                </button>
                <span className="cooks-count" data-testid="cooks-count">{s.cooks}</span>
                <button
                  type="button"
                  className="btn"
                  data-testid="cooks-plus"
                  aria-label={t('locations.cooks_plus', { name: s.name })}
                  disabled={s.cooks >= 50}
                  onClick={() => void locations.getState().setCooks(s.station_id, s.cooks + 1)}
                >
                  +
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {hub && drift && drift.length > 0 && (
        <section className="prep-drift" data-testid="prep-drift">
          <h2>{t('locations.drift_title')}</h2>
          <p className="muted">{t('locations.drift_help')}</p>
          <ul>
            {drift.map((d) => (
              <li key={`${d.product_id}/${d.station_id}`} data-product-id={d.product_id}>
                <span className="drift-product">{t('locations.drift_product', { product: d.product_name, station: d.station_name })}</span>
                <span className="drift-times" data-testid="drift-times">
                  {t('locations.drift_times', { typed: minutesText(d.typed_seconds), learned: minutesText(d.learned_seconds), samples: d.samples })}
                </span>
                <button
                  type="button"
                  className="btn"
                  data-testid="drift-accept"
                  disabled={accepting !== null}
                  onClick={() => void locations.getState().acceptDrift(d.product_id, d.station_id)}
                >
                  {t('locations.drift_accept', { learned: minutesText(d.learned_seconds) })}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** Seconds as minutes with one decimal where it matters ("7", "7,5"): the kitchen thinks in minutes. */
function minutesText(seconds: number): string {
  const minutes = Math.round(seconds / 6) / 10;
  return Number.isInteger(minutes) ? String(minutes) : minutes.toFixed(1).replace('.', ',');
}
