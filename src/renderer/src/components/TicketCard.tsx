import { memo } from 'react';
import type { KitchenOrder } from '../../../shared/ipc/kitchen.ts';
import { useApp, useBoard, useClock, useSettings, useT } from '../app-context.tsx';
import { bumpOf, canCancel, elapsedMs, formatElapsed, timerLevel, type ShownTicket } from '../board-logic.ts';
import { formatClock, formatDateTime } from '../format.ts';

interface TicketCardProps {
  ticket: ShownTicket;
  locationName?: string | undefined;
  compact?: boolean;
  readOnly?: boolean;
  onCancel?: (order: KitchenOrder) => void;
}

/**
 * One ticket. Memoized: it re-renders when its order, its moves or flash change, or when what it
 * shows of the time does (the timer's text each second, its colour, the undo countdown), never
 * because another ticket changed.
 */
export const TicketCard = memo(function TicketCard({ ticket, locationName, compact = false, readOnly = false, onCancel }: TicketCardProps) {
  const t = useT();
  const { board } = useApp();
  const { order } = ticket;
  const id = order.id;
  const moves = useBoard((s) => s.moves[id]);
  const flash = useBoard((s) => s.flashes[id]);
  const ringing = useBoard((s) => s.ringing[id] === true);
  const selected = useBoard((s) => s.selectedId === id);
  const timeZone = useBoard((s) => s.restaurant?.time_zone ?? 'America/Santiago');
  const thresholds = useSettings((s) => s.settings.thresholds);
  const language = useSettings((s) => s.settings.language);

  const clockOffset = useBoard((s) => s.clockOffset);

  const dead = order.status === 'cancelado' && !readOnly;
  const lastMove = moves?.[moves.length - 1];
  const heldSeconds = useClock((now) =>
    lastMove?.phase === 'held' && lastMove.deadline > now ? Math.max(0, Math.ceil((lastMove.deadline - now) / 1000)) : null,
  );
  const held = heldSeconds !== null && lastMove?.phase === 'held' ? lastMove : undefined;
  const sending = moves?.some((m) => m.phase === 'sending') ?? false;
  const cooking = ticket.shownStatus === 'recibido' || ticket.shownStatus === 'en_preparacion';
  const timerText = useClock((now) => (readOnly || ticket.kitchen_since === null ? null : formatElapsed(elapsedMs(ticket, now + clockOffset))));
  const level = useClock((now) => (cooking ? timerLevel(elapsedMs(ticket, now + clockOffset), thresholds) : 'ok'));
  const bump = readOnly || dead ? null : bumpOf(ticket);
  const cancellable = !readOnly && !dead && canCancel(ticket);
  const flashKind = useClock((now) => (flash && flash.until > now ? flash.kind : null));

  const classes = [
    'ticket',
    `type-${order.type}`,
    `timer-${level}`,
    selected ? 'selected' : '',
    ringing ? 'ringing' : '',
    order.test ? 'test-order' : '',
    flashKind ? `flash-${flashKind}` : '',
    dead ? 'dead' : '',
    compact ? 'compact' : '',
  ].filter(Boolean);

  return (
    <article
      className={classes.join(' ')}
      data-order-id={id}
      data-number={order.number}
      data-status={ticket.shownStatus}
      data-server-status={order.status}
      data-ringing={ringing ? 'true' : 'false'}
      data-flash={flashKind ?? ''}
      onClick={() => board.getState().touch(id)}
    >
      <header className="ticket-head">
        <div className="ticket-line">
          <span className="ticket-number">#{order.number}</span>
          {timerText !== null && (
            <span className={`ticket-timer level-${level}`} data-testid="timer" data-level={level}>
              {timerText}
            </span>
          )}
        </div>
        <div className="ticket-badges">
          <span className={`badge badge-${order.type}`}>{t(order.type === 'delivery' ? 'ticket.delivery' : 'ticket.retiro')}</span>
          {order.test && <span className="badge badge-test" data-testid="test-label">{t('ticket.test')}</span>}
          {order.managed_by_integrator && <span className="badge badge-pos">{t('ticket.pos')}</span>}
          {ringing && <span className="badge badge-new">{t('ticket.new')}</span>}
        </div>
      </header>
      {dead && <div className="dead-banner">{t('ticket.cancelled_elsewhere')}</div>}
      {flashKind === 'changed' && <div className="changed-banner">{t('ticket.changed')}</div>}
      <div className="ticket-customer">
        <span className="customer-name">{order.customer.name ?? t('ticket.no_customer')}</span>
        {locationName && <span className="ticket-location">{locationName}</span>}
      </div>
      {order.scheduled_for && (
        <div className="ticket-scheduled">{t('ticket.scheduled', { time: formatDateTime(order.scheduled_for, timeZone, language) })}</div>
      )}
      {!compact && (
        <ul className="ticket-items">
          {order.items.map((item, index) => (
            <li key={index} className="ticket-item">
              <span className="qty">{item.quantity}×</span>
              <span className="item-name">{item.name}</span>
              {item.modifiers.length > 0 && (
                <ul className="modifiers">
                  {item.modifiers.map((m, i) => (
                    <li key={i}>{m.name ?? m.group}</li>
                  ))}
                </ul>
              )}
              {item.notes && <div className="item-note">⚠ {item.notes}</div>}
            </li>
          ))}
        </ul>
      )}
      {!compact && order.notes && (
        <div className="order-note">
          <strong>{t('ticket.note')}:</strong> {order.notes}
        </div>
      )}
      {order.type === 'delivery' && !compact && (
        <div className="ticket-delivery">
          {order.address && <div className="address">{order.address}</div>}
          {order.delivery && (
            <div className="courier">
              {t('ticket.courier')}: {order.delivery.provider}
              {order.delivery.status ? ` · ${order.delivery.status}` : ''}
            </div>
          )}
        </div>
      )}
      {readOnly && (
        <div className="ticket-final">
          {t(`status.${order.status}`)} · {formatClock(order.updated_at, timeZone, language)}
        </div>
      )}
      {(bump || cancellable || held || sending) && (
        <footer className="ticket-actions">
          {held ? (
            <button
              type="button"
              className="btn btn-undo"
              data-testid="undo"
              onClick={(e) => {
                e.stopPropagation();
                board.getState().undo(id);
              }}
            >
              → {t(`status.${held.target}`)} · {t('ticket.undo')} {heldSeconds}s
            </button>
          ) : sending ? (
            <span className="sending">{t('ticket.sending')}</span>
          ) : null}
          {bump && (
            <button
              type="button"
              className={`btn btn-bump bump-${bump}`}
              data-testid="bump"
              data-target={bump}
              onClick={(e) => {
                e.stopPropagation();
                board.getState().bump(id);
              }}
            >
              {t(`action.${bump}`)}
            </button>
          )}
          {cancellable && onCancel && (
            <button
              type="button"
              className="btn btn-cancel"
              data-testid="cancel"
              aria-label={t('action.cancelado')}
              onClick={(e) => {
                e.stopPropagation();
                onCancel(order);
              }}
            >
              ✕
            </button>
          )}
        </footer>
      )}
    </article>
  );
});
