// The Stock screen's "agotado" (86) list: every dish of the menu, tracked or not, and its options,
// each with its switch at the location shown. What is switched here is what GET /menu and
// POST /orders see at once (services/menu/sold-out.ts); in the test world a switch is simulated.
import { useCallback, useEffect, useState } from 'react';
import type { SoldOutBoardView, World } from '../../../shared/screen-contract/kitchen.ts';
import { DEFAULT_TIME_ZONE } from '../../../shared/locale.ts';
import { errorMessage } from '../api.ts';
import { useApp, useBoard, useLanguage, useStock, useT } from '../app-context.tsx';
import { formatClock } from '../format.ts';

export function SoldOutPanel({ locationId, world }: { locationId: string; world: World }) {
  const t = useT();
  const { api } = useApp();
  const language = useLanguage();
  const timeZone = useBoard((s) => s.restaurant?.time_zone ?? DEFAULT_TIME_ZONE);
  const [view, setView] = useState<SoldOutBoardView | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The tracked dishes' quantities as the Stock screen has them now (saved there, taken by an
  // order): the panel's own read is from when it opened.
  const stockEntries = useStock((s) => (s.locationId === locationId && s.world === world ? s.entries : null));
  const quantityOf = (productId: string, read: number | null) =>
    read === null ? null : (stockEntries?.find((e) => e.product_id === productId)?.quantity ?? read);

  useEffect(() => {
    let current = true;
    setView(null);
    api.readSoldOut({ location_id: locationId, world }).then(
      (read) => current && setView(read),
      (failure: unknown) => current && setError(errorMessage(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, locationId, world]);

  const toggle = useCallback(
    async (kind: 'product' | 'option', id: string, soldOut: boolean) => {
      setBusy(id);
      setError(null);
      try {
        setView(await api.setSoldOut({ location_id: locationId, world, kind, id, sold_out: soldOut }));
      } catch (failure) {
        setError(errorMessage(failure));
      } finally {
        setBusy(null);
      }
    },
    [api, locationId, world],
  );

  return (
    <section className="sold-out-panel" data-testid="sold-out-panel">
      <h2>{t('soldout.title')}</h2>
      <p className="muted">{t('soldout.help')}</p>
      {error && <div className="notice notice-error" role="alert">{t('common.error', { message: error })}</div>}
      {view?.simulated && <div className="notice notice-test" data-testid="sold-out-simulated">{t('soldout.simulated')}</div>}
      {view && (
        <table className="stock-table sold-out-table">
          <thead>
            <tr>
              <th>{t('stock.product')}</th>
              <th>{t('soldout.state')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {view.products.map((read) => ({ ...read, quantity: quantityOf(read.product_id, read.quantity) })).map((product) => (
              <tr key={product.product_id} data-sold-out-product={product.product_id} className={product.sold_out ? 'is-sold-out' : ''}>
                <td>
                  <span className="product-name">{product.name}</span> <span className="muted">· {product.category}</span>
                  {product.options.length > 0 && (
                    <div className="sold-out-options">
                      {product.options.map((option) => (
                        <button
                          key={option.option_id}
                          type="button"
                          className={`chip-toggle ${option.sold_out ? 'is-sold-out' : ''}`}
                          data-sold-out-option={option.option_id}
                          aria-pressed={option.sold_out}
                          disabled={busy !== null}
                          title={option.sold_out ? t('soldout.offer_again') : t('soldout.mark')}
                          onClick={() => void toggle('option', option.option_id, !option.sold_out)}
                        >
                          {option.name}
                          {option.sold_out ? ` · ${t('stock.sold_out')}` : ''}
                        </button>
                      ))}
                    </div>
                  )}
                </td>
                <td data-testid="sold-out-state">
                  {product.sold_out ? (
                    <span className="badge badge-soldout">
                      {product.sold_out_until === null
                        ? t('stock.sold_out')
                        : t('soldout.until', { time: formatClock(product.sold_out_until, timeZone, language) })}
                    </span>
                  ) : product.quantity === 0 ? (
                    // Tracked and none left: customers cannot order it either, whatever the switch says.
                    <span className="badge badge-soldout" data-testid="sold-out-no-stock">{t('soldout.no_stock')}</span>
                  ) : product.quantity !== null ? (
                    t('soldout.in_stock', { count: product.quantity })
                  ) : (
                    t('soldout.available')
                  )}
                </td>
                <td>
                  <button
                    type="button"
                    className={`btn ${product.sold_out ? 'btn-primary' : 'btn-secondary'}`}
                    data-testid="sold-out-toggle"
                    disabled={busy !== null}
                    onClick={() => void toggle('product', product.product_id, !product.sold_out)}
                  >
                    {product.sold_out ? t('soldout.offer_again') : t('soldout.mark')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
