// Who the order is for, where it goes, how it is paid and how far each station is: on an expo's
// ticket (the lines a rush leaves room for), and all of them in the ticket's details sheet, which a
// station's ticket (no facts on it) and a busy board open with a tap.
import { createPortal } from 'react-dom';
import type { ShownTicket } from '../board-logic.ts';
import { useBoard, useSettings, useT } from '../app-context.tsx';
import { formatMoney } from '../format.ts';
import type { TextKey } from '../i18n.ts';

/** A code the screen has words for, else the code itself (a courier or payment method we do not know). */
export function label(t: (key: TextKey) => string, prefix: string, code: string): string {
  const key = `${prefix}.${code}` as TextKey;
  const text = t(key);
  return text === key ? code : text;
}

/** `full`: every fact (the details sheet); else what a ticket shows at its density (`compact`: no address, phone, courier or stations). */
export function TicketFacts({ ticket, locationName, compact, full = false }: { ticket: ShownTicket; locationName?: string | undefined; compact: boolean; full?: boolean }) {
  const t = useT();
  const language = useSettings((s) => s.settings.language);
  const stations = useBoard((s) => s.stations);
  const { order, kitchen } = ticket;
  const all = full || !compact;
  const who = [
    order.customer.name ?? t('ticket.no_customer'),
    locationName,
    order.type === 'delivery' && order.address && all ? order.address : undefined,
    order.customer.phone && all ? t('ticket.phone', { phone: order.customer.phone }) : undefined,
  ].filter(Boolean);
  const paymentMethod = order.payment.method ? label(t, 'payment', order.payment.method) : null;
  return (
    <div className="facts-text">
      <div className="ticket-customer" title={who.join(' · ')}>
        {who.join(' · ')}
      </div>
      <div className="ticket-facts">
        {order.delivery && all && (
          <div className="courier">
            {t('ticket.courier')}: {label(t, 'courier.provider', order.delivery.provider)}
            {order.delivery.status ? ` · ${label(t, 'courier.status', order.delivery.status)}` : ''}
          </div>
        )}
        {kitchen.payment.paid ? (
          <div className="payment paid" data-testid="payment">
            {t('ticket.paid')}
          </div>
        ) : kitchen.payment.collect !== null ? (
          <div className="payment to-collect" data-testid="payment">
            {paymentMethod
              ? t('ticket.collect_method', { amount: formatMoney(kitchen.payment.collect, language), method: paymentMethod })
              : t('ticket.collect', { amount: formatMoney(kitchen.payment.collect, language) })}
          </div>
        ) : null}
        {kitchen.payment.refunded > 0 && (
          <div className="payment refunded" data-testid="refunded">
            {t('ticket.refunded', { amount: formatMoney(kitchen.payment.refunded, language) })}
          </div>
        )}
      </div>
      {stations.length > 0 && kitchen.stations.length > 0 && all && (
        <div className="station-progress" data-testid="station-progress">
          {kitchen.stations.map((p) => (
            <span key={p.station_id ?? '-'} className={`station-chip ${p.done === p.total ? 'done' : ''}`} data-station={p.station_id ?? ''}>
              {t('board.station_progress', { station: stations.find((s) => s.id === p.station_id)?.name ?? '—', done: p.done, total: p.total })}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}

/** Every fact of a ticket over the board (a portal: the card's containment would clip it), closed by a tap anywhere. */
export function TicketDetailsSheet({ ticket, locationName, onClose }: { ticket: ShownTicket; locationName?: string | undefined; onClose(): void }) {
  const t = useT();
  return createPortal(
    <div
      className="drawer-backdrop details-backdrop"
      onClick={(e) => {
        e.stopPropagation();
        onClose();
      }}
    >
      <aside className="ticket-details" data-testid="ticket-details" role="dialog" aria-label={t('ticket.details_title', { number: ticket.kitchen.shown_number ?? ticket.order.number })}>
        <h2>{t('ticket.details_title', { number: ticket.kitchen.shown_number ?? ticket.order.number })}</h2>
        <TicketFacts ticket={ticket} locationName={locationName} compact={false} full />
        <button type="button" className="btn btn-secondary" data-testid="details-close">
          {t('board.close')}
        </button>
      </aside>
    </div>,
    document.body,
  );
}
