import { memo, useEffect, useRef } from 'react';
import { mentionsAllergy } from '../../../shared/allergy-notes.ts';
import type { KitchenOrder } from '../../../shared/ipc/kitchen.ts';
import { DEFAULT_TIME_ZONE } from '../../../shared/locale.ts';
import { useApp, useBoard, useClock, useSettings, useT } from '../app-context.tsx';
import { bumpOf, canCancel, elapsedMs, formatElapsed, timerLevel, type ShownTicket } from '../board-logic.ts';
import { formatClock, formatDateTime, formatMoney } from '../format.ts';
import { refusalText, type TextKey } from '../i18n.ts';
import { isWaiting, itemDone, movesOf } from '../state/board/pending-slice.ts';
import { useTrackVisibility } from '../visibility.ts';

interface TicketCardProps {
  ticket: ShownTicket;
  locationName?: string | undefined;
  compact?: boolean;
  readOnly?: boolean;
  /** Drawn over more than one column (a ticket taller than the screen): it says "sigue →". */
  split?: boolean;
  /** The state as a coloured band and a word (the "Flujo" layout, where tickets of every state mix). */
  showState?: boolean;
  onCancel?: (order: KitchenOrder) => void;
}

/** A code the screen has words for, else the code itself (a courier or payment method we do not know). */
function label(t: (key: TextKey) => string, prefix: string, code: string): string {
  const key = `${prefix}.${code}` as TextKey;
  const text = t(key);
  return text === key ? code : text;
}

/**
 * One ticket: items first, a one-line header (number, pickup or delivery, timer), then who and how
 * it is paid, and the one-tap step. Memoized: it re-renders when its order, its pending changes or
 * flash change, or when what it shows of the time does, never because another ticket changed.
 */
export const TicketCard = memo(function TicketCard({ ticket, locationName, compact = false, readOnly = false, split = false, showState = false, onCancel }: TicketCardProps) {
  const t = useT();
  const { board } = useApp();
  const { order } = ticket;
  const id = order.id;
  const ref = useRef<HTMLElement>(null);
  const changes = useBoard((s) => s.pending[id]);
  const flash = useBoard((s) => s.flashes[id]);
  const ringing = useBoard((s) => s.ringing[id] === true);
  const selected = useBoard((s) => s.selectedId === id);
  const timeZone = useBoard((s) => s.restaurant?.time_zone ?? DEFAULT_TIME_ZONE);
  const allergyWords = useBoard((s) => s.allergyWords);
  const thresholds = useSettings((s) => s.settings.thresholds);
  const language = useSettings((s) => s.settings.language);
  const clockOffset = useBoard((s) => s.clockOffset);
  const kitchen = ticket.kitchen;
  const stationFilter = useBoard((s) => s.stationFilter);
  const stations = useBoard((s) => s.stations);
  const recalled = useClock((now) => kitchen.recalled_until !== null && kitchen.recalled_until > now + clockOffset);
  useTrackVisibility(ref, id, !readOnly);

  // Keyboard, bump bar and the new-orders indicator bring the ticket into view (a tap does not:
  // the board must not jump under the cook's finger).
  const focusSeq = useBoard((s) => (s.focusRequest?.orderId === id ? s.focusRequest.seq : 0));
  useEffect(() => {
    if (focusSeq > 0) ref.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [focusSeq]);

  const dead = order.status === 'cancelado' && !readOnly;
  const moves = movesOf(changes);
  const lastMove = moves[moves.length - 1];
  const held = useClock((now) => lastMove?.phase === 'held' && lastMove.deadline > now);
  const waiting = (changes ?? []).filter((c) => c.phase === 'queued').length;
  const sending = !waiting && (changes ?? []).some(isWaiting);
  const cooking = ticket.shownStatus === 'recibido' || ticket.shownStatus === 'en_preparacion';
  const timerText = useClock((now) => (readOnly || ticket.kitchen_since === null ? null : formatElapsed(elapsedMs(ticket, now + clockOffset))));
  const level = useClock((now) => (cooking ? timerLevel(elapsedMs(ticket, now + clockOffset), thresholds) : 'ok'));
  const countdown = useClock((now) => {
    const due = kitchen.countdown;
    if (!due) return null;
    const left = due.at - (now + clockOffset);
    if (due.kind === 'scheduled') return left > 0 ? t('ticket.starts_in', { time: formatElapsed(left) }) : t('ticket.starts_now');
    return left > 0 ? t('ticket.payment_deadline', { time: formatElapsed(left) }) : t('ticket.waiting_payment', { time: formatElapsed(-left) });
  });
  // A managed order moves where it is managed: the kitchen gets no button the engine would refuse.
  const managedBy = kitchen.managed_by ?? (order.managed_by_integrator ? t('ticket.manager_unknown') : null);
  const managed = managedBy !== null;
  // A station screen strikes its items; the order itself is bumped by expo.
  const onStation = stationFilter !== null;
  const bump = readOnly || dead || managed || onStation ? null : bumpOf(ticket);
  const cancellable = !readOnly && !dead && !managed && !onStation && canCancel(ticket);
  const reprintable = useBoard((s) => s.printerCount > 0) && !readOnly && !dead;
  const items = onStation ? kitchen.items.filter((item) => item.station_id === stationFilter) : kitchen.items;
  const allDone = kitchen.items.length > 0 && kitchen.items.every((item) => itemDone(changes, item.index, item.done));
  const suggested = bump !== null && allDone && (kitchen.suggested_target === bump || kitchen.suggested_target === null) ? bump : null;
  const canStrike = !readOnly && !dead;
  const flashKind = useClock((now) => (flash && flash.until > now ? flash.kind : null));
  const allergic = (text: string | null) => text !== null && mentionsAllergy(text, allergyWords);

  const classes = [
    'ticket',
    `type-${order.type}`,
    `state-${ticket.shownStatus}`,
    `timer-${level}`,
    selected ? 'selected' : '',
    ringing ? 'ringing' : '',
    order.test ? 'test-order' : '',
    flashKind ? `flash-${flashKind}` : '',
    dead ? 'dead' : '',
    compact ? 'compact' : '',
    recalled ? 'recalled' : '',
    split ? 'split' : '',
    showState ? 'show-state' : '',
    waiting ? 'waiting' : '',
  ].filter(Boolean);

  const paymentMethod = order.payment.method ? label(t, 'payment', order.payment.method) : null;
  const facts = [
    order.customer.name ?? t('ticket.no_customer'),
    locationName,
    order.type === 'delivery' && order.address && !compact ? order.address : undefined,
    order.customer.phone && !compact ? t('ticket.phone', { phone: order.customer.phone }) : undefined,
  ].filter(Boolean);

  return (
    <article
      ref={ref}
      className={classes.join(' ')}
      data-order-id={id}
      data-number={order.number}
      data-status={ticket.shownStatus}
      data-server-status={order.status}
      data-ringing={ringing ? 'true' : 'false'}
      data-flash={flashKind ?? ''}
      data-waiting={waiting > 0 ? 'true' : 'false'}
      onClick={() => board.getState().touch(id)}
    >
      <header className="ticket-head">
        <span className="ticket-number">#{order.number}</span>
        <span className={`ticket-type type-${order.type}`}>{t(order.type === 'delivery' ? 'ticket.delivery' : 'ticket.retiro')}</span>
        {order.test && <span className="badge badge-test" data-testid="test-label">{t('ticket.test')}</span>}
        {ringing && <span className="badge badge-new">{t('ticket.new')}</span>}
        {recalled && <span className="badge badge-recalled" data-testid="recalled">{t('ticket.recalled')}</span>}
        {split && (
          <span className="badge badge-split" data-testid="split">
            {t('ticket.continues')}
          </span>
        )}
        {managed && <span className="badge badge-pos" title={t('ticket.managed_by', { manager: managedBy })}>{kitchen.managed_by ?? t('ticket.pos')}</span>}
        {timerText !== null && (
          <span className={`ticket-timer level-${level}`} data-testid="timer" data-level={level}>
            {timerText}
          </span>
        )}
      </header>
      {showState && <div className={`state-band band-${ticket.shownStatus}`}>{t(`status.${ticket.shownStatus}`)}</div>}
      {dead && <div className="dead-banner">{t('ticket.cancelled_elsewhere')}</div>}
      {flashKind === 'changed' && <div className="changed-banner">{t('ticket.changed')}</div>}
      {flashKind === 'refused' && flash?.code && (
        <div className="refused-banner" data-testid="refused" data-code={flash.code}>
          {refusalText(t, flash.code, { number: order.number, manager: managedBy ?? t('ticket.manager_unknown') })}
        </div>
      )}
      {waiting > 0 && (
        <div className="waiting-banner" data-testid="waiting">
          {t('ticket.waiting_engine', { count: waiting })}
        </div>
      )}
      <ul className="ticket-items">
        {items.map((item) => {
          const done = itemDone(changes, item.index, item.done);
          const noteIsAllergy = allergic(item.notes);
          return (
            <li
              key={item.index}
              className={`ticket-item ${done ? 'done' : ''} ${canStrike ? 'strikable' : ''}`}
              data-testid="item"
              data-done={done ? 'true' : 'false'}
              data-station={item.station_id ?? ''}
              onClick={(e) => {
                if (!canStrike) return;
                e.stopPropagation();
                board.getState().toggleItem(id, item.index);
              }}
            >
              <span className="item-line">
                <span className="qty">{item.quantity}×</span> <span className="item-name">{item.name}</span>
              </span>
              {item.modifiers.length > 0 && (
                <ul className="modifiers">
                  {item.modifiers.map((m, i) => (
                    <li key={i} className={m.allergen ? 'allergen' : ''}>
                      {m.allergen && <span className="allergen-tag">{t('ticket.allergen')}</span>} {m.name ?? m.group}
                    </li>
                  ))}
                </ul>
              )}
              {item.notes && (
                <div className={`item-note ${noteIsAllergy ? 'allergen' : ''}`} data-allergy={noteIsAllergy ? 'true' : 'false'}>
                  {noteIsAllergy ? <span className="allergen-tag">{t('ticket.allergen')}</span> : '⚠'} {item.notes}
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {order.notes && (
        <div className={`order-note ${allergic(order.notes) ? 'allergen' : ''}`} data-allergy={allergic(order.notes) ? 'true' : 'false'}>
          {allergic(order.notes) ? <span className="allergen-tag">{t('ticket.allergen')}</span> : <strong>{t('ticket.note')}:</strong>} {order.notes}
        </div>
      )}
      {order.scheduled_for && <div className="ticket-scheduled">{t('ticket.scheduled', { time: formatDateTime(order.scheduled_for, timeZone, language) })}</div>}
      {countdown && (
        <div className="ticket-countdown" data-testid="countdown">
          {countdown}
        </div>
      )}
      <div className="ticket-customer">{facts.join(' · ')}</div>
      <div className="ticket-facts">
        {order.delivery && (
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
      {!onStation && stations.length > 0 && kitchen.stations.length > 0 && (
        <div className="station-progress" data-testid="station-progress">
          {kitchen.stations.map((p) => (
            <span key={p.station_id ?? '-'} className={`station-chip ${p.done === p.total ? 'done' : ''}`} data-station={p.station_id ?? ''}>
              {t('board.station_progress', { station: stations.find((s) => s.id === p.station_id)?.name ?? '—', done: p.done, total: p.total })}
            </span>
          ))}
        </div>
      )}
      {readOnly && (
        <div className="ticket-final">
          {t(`status.${order.status}`)} · {formatClock(order.updated_at, timeZone, language)}
        </div>
      )}
      {managed && !readOnly && !dead && (
        <div className="managed-by" data-testid="managed-by">
          {t('ticket.managed_by', { manager: managedBy })}
        </div>
      )}
      {suggested && (
        <div className="suggested" data-testid="suggested">
          {t('ticket.suggest', { action: t(`action.${suggested}`) })}
        </div>
      )}
      {(bump || cancellable || held || sending || reprintable) && (
        <footer className="ticket-actions">
          {held && lastMove ? (
            <span className="held">{t('ticket.held', { target: t(`status.${lastMove.target}`) })}</span>
          ) : sending ? (
            <span className="sending">{t('ticket.sending')}</span>
          ) : null}
          {bump && (
            <button
              type="button"
              className={`btn btn-bump bump-${bump} ${suggested ? 'is-suggested' : ''}`}
              data-testid="bump"
              data-target={bump}
              onClick={(e) => {
                e.stopPropagation();
                board.getState().bump(id, ticket.shownStatus);
              }}
            >
              {t(`action.${bump}`)}
            </button>
          )}
          {reprintable && (
            <button
              type="button"
              className="btn btn-reprint"
              data-testid="reprint"
              title={t('ticket.reprint')}
              aria-label={t('ticket.reprint')}
              onClick={(e) => {
                e.stopPropagation();
                board.getState().reprint(id);
              }}
            >
              🖨
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
