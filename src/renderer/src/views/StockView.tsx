import { useEffect } from 'react';
import { useApp, useBoard, useStock, useT } from '../app-context.tsx';
import { SoldOutPanel } from '../components/SoldOutPanel.tsx';
import { WorldToggle } from '../components/WorldToggle.tsx';

export function StockView() {
  const t = useT();
  const { stock } = useApp();
  const locations = useBoard((s) => s.locations);
  const locationId = useStock((s) => s.locationId);
  const world = useStock((s) => s.world);
  const entries = useStock((s) => s.entries);
  const drafts = useStock((s) => s.drafts);
  const saving = useStock((s) => s.saving);
  const error = useStock((s) => s.error);
  const lastSave = useStock((s) => s.lastSave);
  const changes = Object.keys(drafts).length;
  const active = locations.filter((l) => l.is_active);

  useEffect(() => {
    const first = active[0] ?? locations[0];
    if (stock.getState().locationId === null && first) void stock.getState().open(first.location_id, 'live');
  }, [locations, active, stock]);

  return (
    <div className="page stock-page" data-testid="stock-view">
      <header className="page-head">
        <h1>{t('stock.title')}</h1>
        <label className="field inline">
          <span>{t('stock.location')}</span>
          <select
            data-testid="stock-location"
            value={locationId ?? ''}
            onChange={(e) => void stock.getState().open(e.target.value, world)}
          >
            {locations.map((l) => (
              <option key={l.location_id} value={l.location_id}>
                {l.name}
                {l.is_active ? '' : ` (${t('locations.inactive')})`}
              </option>
            ))}
          </select>
        </label>
        <WorldToggle world={world} onChange={(w) => locationId && void stock.getState().open(locationId, w)} />
      </header>
      {world === 'test' && <div className="notice notice-test">{t('stock.test_world')}</div>}
      {error && <div className="notice notice-error" role="alert">{t('common.error', { message: error })}</div>}
      {lastSave && changes === 0 && (
        <div className={`notice ${lastSave.simulated ? 'notice-test' : 'notice-ok'}`} data-testid="stock-result" data-simulated={String(lastSave.simulated)}>
          {lastSave.simulated ? t('stock.simulated') : t('stock.saved')}
        </div>
      )}
      {entries.length === 0 ? (
        <p className="muted">{t('stock.none')}</p>
      ) : (
        <table className="stock-table">
          <thead>
            <tr>
              <th>{t('stock.product')}</th>
              <th>{t('stock.quantity')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => {
              const draft = drafts[entry.product_id];
              const quantity = draft ?? entry.quantity;
              return (
                <tr key={entry.product_id} data-product-id={entry.product_id} className={draft !== undefined ? 'changed' : ''}>
                  <td className="product-name">
                    {entry.name}
                    {quantity === 0 && <span className="badge badge-soldout">{t('stock.sold_out')}</span>}
                    {draft !== undefined && <span className="changed-mark">{t('stock.changed')}</span>}
                  </td>
                  <td className="quantity-cell">
                    <button type="button" className="btn btn-step" data-testid="minus" aria-label="−1" onClick={() => stock.getState().step(entry.product_id, -1)}>
                      −
                    </button>
                    <input
                      type="number"
                      inputMode="numeric"
                      min={0}
                      className="quantity-input"
                      data-testid="quantity"
                      value={quantity}
                      onChange={(e) => stock.getState().setDraft(entry.product_id, Number(e.target.value))}
                    />
                    <button type="button" className="btn btn-step" data-testid="plus" aria-label="+1" onClick={() => stock.getState().step(entry.product_id, 1)}>
                      +
                    </button>
                  </td>
                  <td>
                    <button type="button" className="btn btn-secondary" data-testid="sold-out" onClick={() => stock.getState().soldOut(entry.product_id)}>
                      {t('stock.mark_sold_out')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <footer className="page-actions">
        <button type="button" className="btn btn-secondary" disabled={changes === 0 || saving} onClick={() => stock.getState().discard()}>
          {t('stock.discard')}
        </button>
        <button type="button" className="btn btn-primary" data-testid="stock-save" disabled={changes === 0 || saving} onClick={() => void stock.getState().save()}>
          {t('stock.save', { count: changes })}
        </button>
      </footer>
      {locationId && <SoldOutPanel locationId={locationId} world={world} />}
    </div>
  );
}
