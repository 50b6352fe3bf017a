import { memo, useEffect, useRef, useState } from 'react';
import { mentionsAllergy } from '../../../shared/allergy-notes.ts';
import type { KitchenOrder } from '../../../shared/screen-contract/kitchen.ts';
import { DEFAULT_TIME_ZONE } from '../../../shared/locale.ts';
import { useApp, useBoard, useClock, useClockFields, useSettings, useT } from '../app-context.tsx';
import { bumpOf, canCancel, elapsedMs, formatElapsed, promiseStanding, timerLevel, type ShownTicket, type TicketBlock } from '../board-logic.ts';
import { formatClock, formatDateTime } from '../format.ts';
import { refusalText } from '../i18n.ts';
import { isWaiting, itemDone, itemStarted, movesOf, pendingStartOf } from '../state/board/pending-slice.ts';
import { useTrackVisibility } from '../visibility.ts';
import { PrinterIcon } from './PrinterIcon.tsx';
import { SoldOutAsk, useLongPress } from './SoldOutAsk.tsx';
import { HeldItemNote } from './HeldItemNote.tsx';
import { StartedMark } from './StartedMark.tsx';
import { TicketDetailsSheet, TicketFacts } from './TicketFacts.tsx';

/** A part of a ticket drawn in one column of a lane (board-plan.ts): its header and blocks [from, to). */
export interface TicketFragmentProps {
  from: number;
  to: number;
  part: number;
  parts: number;
  /** px, as planned: what is drawn inside never moves another ticket. */
  height: number;
}

interface TicketCardProps {
  ticket: ShownTicket;
  /** Its body, block by block (board-logic.ts ticketBlocks); all of it unless `fragment` says which. */
  blocks: TicketBlock[];
  fragment?: TicketFragmentProps;
  locationName?: string | undefined;
  compact?: boolean;
  readOnly?: boolean;
  /** The state as a coloured band and a word (the "Flujo" layout, where tickets of every state mix). */
  showState?: boolean;
  /** Its own buttons (cancel, reprint) in the header of its first fragment, beside the bump (a phone). */
  buttonsInHead?: boolean;
  onCancel?: (order: KitchenOrder) => void;
  /** Drawn out of sight for one commit, only to be measured (BoardView.tsx): it brings nothing into view. */
  measuring?: boolean;
}


/**
 * One ticket, or one fragment of it: a header of at least 48 px (number, pickup or delivery, timer,
 * a notice, and the one-tap step as its bump target) over its blocks: the order's note, the items,
 * when, who and how it is paid (not on a station), and its foot (cancel, reprint). Every fragment
 * carries the header, so any part of a ticket in view can be bumped. Memoized: it re-renders when
 * its order, its pending changes or flash change, or when what it shows of the time does.
 */
export const TicketCard = memo(function TicketCard({ ticket, blocks, fragment, locationName, compact = false, readOnly = false, showState = false, buttonsInHead = false, onCancel, measuring = false }: TicketCardProps) {
  const t = useT();
  const { board, api } = useApp();
  // The item a long press asked about ("agotar este plato"), or null.
  const [asking, setAsking] = useState<number | null>(null);
  // The details sheet (a station's ticket): every fact of the order over the board.
  const [details, setDetails] = useState(false);
  const longPress = useLongPress((index) => setAsking(index));
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
  // On the lanes the plan knows what is in view (visibility.ts, planned); elsewhere it is watched.
  useTrackVisibility(ref, id, !readOnly && fragment === undefined);

  // Keyboard, bump bar and the new-orders indicator bring the ticket into view (a tap does not:
  // the board must not jump under the cook's finger).
  const focusSeq = useBoard((s) => (s.focusRequest?.orderId === id ? s.focusRequest.seq : 0));
  useEffect(() => {
    if (focusSeq > 0 && !measuring) ref.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [focusSeq, measuring]);

  const dead = order.status === 'cancelado' && !readOnly;
  const moves = movesOf(changes);
  const lastMove = moves[moves.length - 1];
  const waiting = (changes ?? []).filter((c) => c.phase === 'queued').length;
  const sending = !waiting && (changes ?? []).some(isWaiting);
  const cooking = ticket.shownStatus === 'recibido' || ticket.shownStatus === 'en_preparacion';
  // What the card shows of the time, in one subscription to the screen's clock (app-context.tsx):
  // it re-renders when one of them changes. The running timer's seconds are TicketTimer's own.
  const { recalled, held, timed, level, standing, countdown, flashKind } = useClockFields((now) => {
    const engineNow = now + clockOffset;
    const due = kitchen.countdown;
    const left = due ? due.at - engineNow : 0;
    return {
      recalled: kitchen.recalled_until !== null && kitchen.recalled_until > engineNow,
      held: lastMove?.phase === 'held' && lastMove.deadline > now,
      timed: !readOnly && ticket.kitchen_since !== null,
      level: cooking ? timerLevel(elapsedMs(ticket, engineNow), thresholds) : 'ok',
      // Issue 32: against the customer's promise (colour only: nothing drawn moves the planned layout).
      standing: readOnly ? null : promiseStanding(ticket, engineNow),
      countdown: !due
        ? null
        : due.kind === 'scheduled'
          ? left > 0
            ? t('ticket.starts_in', { time: formatElapsed(left) })
            : t('ticket.starts_now')
          : left > 0
            ? t('ticket.payment_deadline', { time: formatElapsed(left) })
            : t('ticket.waiting_payment', { time: formatElapsed(-left) }),
      flashKind: flash && flash.until > now ? flash.kind : null,
    };
  });
  // A managed order moves where it is managed: the kitchen gets no button the engine would refuse.
  const managedBy = kitchen.managed_by ?? (order.managed_by_integrator ? t('ticket.manager_unknown') : null);
  const managed = managedBy !== null;
  // A station screen strikes its items; the order itself is bumped by expo.
  const onStation = stationFilter !== null;
  const bump = readOnly || dead || managed || onStation ? null : bumpOf(ticket);
  const cancellable = !readOnly && !dead && !managed && !onStation && canCancel(ticket);
  const reprintable = useBoard((s) => s.printerCount > 0) && !readOnly && !dead;
  const allDone = kitchen.items.length > 0 && kitchen.items.every((item) => itemDone(changes, item.index, item.done));
  const suggested = bump !== null && allDone && (kitchen.suggested_target === bump || kitchen.suggested_target === null) ? bump : null;
  const canStrike = !readOnly && !dead;
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
    fragment && fragment.parts > 1 ? 'split' : '',
    fragment ? 'fragment' : '',
    showState ? 'show-state' : '',
    waiting ? 'waiting' : '',
    standing === 'late' || standing === 'due' ? `promise-${standing}` : '',
  ].filter(Boolean);
  const promiseTitle =
    (standing === 'late' || standing === 'due') && kitchen.promised_ready_at !== undefined
      ? t(standing === 'late' ? 'ticket.promise_late' : 'ticket.promise_due', { time: formatClock(kitchen.promised_ready_at, timeZone, language) })
      : undefined;


  const onBump = (e: { stopPropagation(): void; timeStamp: number; nativeEvent: Event }) => {
    e.stopPropagation();
    // A finger (or a pen) slips onto whatever appears under it; a mouse stays where it clicked.
    const anywhere = !('pointerType' in e.nativeEvent) || (e.nativeEvent as PointerEvent).pointerType !== 'mouse';
    board.getState().bump(id, ticket.shownStatus, e.timeStamp, anywhere);
  };
  const notice = dead
    ? { className: 'dead-banner', text: t('ticket.cancelled_elsewhere'), testId: undefined, code: undefined }
    : flashKind === 'refused' && flash?.code
      ? { className: 'refused-banner', text: refusalText(t, flash.code, { number: order.number, manager: managedBy ?? t('ticket.manager_unknown') }), testId: 'refused', code: flash.code }
      : waiting > 0
        ? { className: 'waiting-banner', text: t('ticket.waiting_engine', { count: waiting }), testId: 'waiting', code: undefined }
        : flashKind === 'changed'
          ? { className: 'changed-banner', text: t('ticket.changed'), testId: undefined, code: undefined }
          : held && lastMove
            ? { className: 'held', text: t('ticket.held', { target: t(`status.${lastMove.target}`) }), testId: undefined, code: undefined }
            : sending
              ? { className: 'sending', text: t('ticket.sending'), testId: undefined, code: undefined }
              : suggested
                ? { className: 'suggested', text: t('ticket.suggest', { action: t(`action.${suggested}`) }), testId: 'suggested', code: undefined }
                : null;
  const continues = fragment !== undefined && fragment.part < fragment.parts - 1;
  // A fragment's part ("1/2 →"): under the bump's word where there is a bump (beside the type, on a
  // tablet's card, it was squeezed to a sliver: no room for both), else among the header's badges.
  const part = fragment && fragment.parts > 1 && (
    <span className={bump ? 'bump-part' : 'badge badge-split'} data-testid="split" title={continues ? t('ticket.continues') : undefined}>
      {t('ticket.part', { part: fragment.part + 1, parts: fragment.parts })}
      {continues ? ' →' : ''}
    </span>
  );
  const shownBlocks = fragment ? blocks.slice(fragment.from, fragment.to) : blocks;
  const orderAllergy = allergic(order.notes);

  const buttons = (reprintable || (cancellable && onCancel)) && (
    <span className="ticket-buttons">
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
          <PrinterIcon />
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
    </span>
  );

  const block = (b: TicketBlock, at: number) => {
    const key = `${b.kind}:${b.index ?? ''}`;
    const index = (fragment?.from ?? 0) + at;
    switch (b.kind) {
      case 'state':
        return (
          <div key={key} data-block={index} className={`state-band band-${ticket.shownStatus}`}>
            {t(`status.${ticket.shownStatus}`)}
          </div>
        );
      case 'order-note':
        return (
          <div key={key} data-block={index} className={`order-note ${orderAllergy ? 'allergen' : ''}`} data-allergy={orderAllergy ? 'true' : 'false'}>
            {orderAllergy ? <span className="allergen-tag">{t('ticket.allergen_order')}</span> : <strong>{t('ticket.order_note')}:</strong>} {order.notes}
          </div>
        );
      case 'item': {
        const item = kitchen.items.find((x) => x.index === b.index);
        if (!item) return null;
        const done = itemDone(changes, item.index, item.done);
        // Started (issue 32): drawn in progress over the line's own box, so nothing moves under the finger.
        const started = !readOnly && itemStarted(changes, item);
        // The engine's start once it has one (its clock, which the board's timers follow), else the tap's.
        const startedAt = started ? (item.started_at !== undefined ? item.started_at - clockOffset : (pendingStartOf(changes, item.index)?.at ?? null)) : null;
        const noteIsAllergy = allergic(item.notes);
        return (
          <div
            key={key}
            data-block={index}
            className={`ticket-item ${done ? 'done' : ''} ${started ? 'started' : ''} ${canStrike ? 'strikable' : ''}`}
            data-testid="item"
            data-done={done ? 'true' : 'false'}
            data-started={started ? 'true' : 'false'}
            data-station={item.station_id ?? ''}
            onClick={(e) => {
              if (!canStrike) return;
              e.stopPropagation();
              // The click that ends a long press is not a strike.
              if (longPress.consumeClick()) return;
              board.getState().tapItem(id, item.index, e.timeStamp);
            }}
            {...(canStrike ? longPress.handlers(item.index) : {})}
          >
            <span className="item-line">
              <span className="qty">{item.quantity}×</span> <span className="item-name">{item.name}</span>
              {/* Started, a held line keeps its note's room until the engine has fired it (its height is planned with it). */}
              {item.held_until !== undefined && !done && <HeldItemNote at={item.held_until} hidden={started} />}
            </span>
            {started && <StartedMark since={startedAt} />}
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
            {asking === item.index && (
              <SoldOutAsk name={item.name} ask={(soldOut) => api.setItemSoldOut({ order_id: order.id, item_index: item.index, sold_out: soldOut })} onClose={() => setAsking(null)} />
            )}
          </div>
        );
      }
      case 'when':
        return (
          <div key={key} data-block={index} className="ticket-when">
            {order.scheduled_for && <div className="ticket-scheduled">{t('ticket.scheduled', { time: formatDateTime(order.scheduled_for, timeZone, language) })}</div>}
            {countdown && (
              <div className="ticket-countdown" data-testid="countdown">
                {countdown}
              </div>
            )}
          </div>
        );
      case 'facts':
        return (
          <div key={key} data-block={index} className="ticket-facts-block">
            {readOnly || dead ? (
              <TicketFacts ticket={ticket} locationName={locationName} compact={compact} />
            ) : (
              // The expo's Detalles: what a rush leaves off the ticket (address, phone, courier,
              // stations) is a tap on who and how it is paid away, in the sheet a station opens
              // from its header, so the bump keeps its place.
              <div
                role="button"
                tabIndex={0}
                className="facts-details"
                data-testid="details"
                aria-expanded={details}
                aria-label={t('ticket.details')}
                title={t('ticket.details')}
                onClick={(e) => {
                  e.stopPropagation();
                  setDetails(true);
                }}
                onKeyDown={(e) => {
                  if (e.key !== 'Enter' && e.key !== ' ') return;
                  e.preventDefault();
                  e.stopPropagation();
                  setDetails(true);
                }}
              >
                <TicketFacts ticket={ticket} locationName={locationName} compact={compact} />
              </div>
            )}
            {!buttonsInHead && buttons}
          </div>
        );
      case 'foot':
        return (
          <footer key={key} data-block={index} className="ticket-actions">
            <span className="foot-space" />
            {!buttonsInHead && buttons}
          </footer>
        );
    }
  };

  return (
    <article
      ref={ref}
      className={classes.join(' ')}
      title={promiseTitle}
      data-promise={standing ?? ''}
      data-order-id={id}
      data-number={order.number}
      data-status={ticket.shownStatus}
      data-server-status={order.status}
      data-ringing={ringing ? 'true' : 'false'}
      data-flash={flashKind ?? ''}
      data-waiting={waiting > 0 ? 'true' : 'false'}
      data-part={fragment ? fragment.part + 1 : 1}
      data-parts={fragment ? fragment.parts : 1}
      style={fragment ? { height: fragment.height } : undefined}
      onClick={() => board.getState().touch(id)}
    >
      <header className="ticket-head">
        <div className="head-info">
          {/* The number and the timer, which never give way; then the type, whole, and the badges or a notice, which do (with an ellipsis). */}
          <div className="head-line head-first">
            {/* A replica's own order once the upstream numbered it: "1042 · L7", as printed and on the pickup screen. */}
            <span className="ticket-number" data-testid="ticket-number">#{kitchen.shown_number ?? order.number}</span>
            {timed && <TicketTimer ticket={ticket} level={level} clockOffset={clockOffset} />}
          </div>
          <div className="head-line head-second">
            {notice ? (
              <div className={`head-notice ${notice.className}`} data-testid={notice.testId} data-code={notice.code} title={notice.text}>
                {notice.text}
              </div>
            ) : (
              <div className="head-line head-tags">
                <span className={`ticket-type type-${order.type}`}>{t(order.type === 'delivery' ? 'ticket.delivery' : 'ticket.retiro')}</span>
                {order.test && <span className="badge badge-test" data-testid="test-label">{t('ticket.test')}</span>}
                {ringing && <span className="badge badge-new">{t('ticket.new')}</span>}
                {recalled && <span className="badge badge-recalled" data-testid="recalled">{t('ticket.recalled')}</span>}
                {managed && (readOnly || dead) && <span className="badge badge-pos" title={t('ticket.managed_by', { manager: managedBy })}>{kitchen.managed_by ?? t('ticket.pos')}</span>}
                {!bump && part}
              </div>
            )}
          </div>
        </div>
        {buttonsInHead && (fragment?.part ?? 0) === 0 && buttons}
        {onStation && !readOnly && !dead && (
          // A station's ticket shows only what it cooks; who, where and how it is paid are a tap away,
          // where the expo's bump would be.
          <button
            type="button"
            className="btn btn-secondary btn-details"
            data-testid="details"
            aria-expanded={details}
            onClick={(e) => {
              e.stopPropagation();
              setDetails(true);
            }}
          >
            {t('ticket.details')}
          </button>
        )}
        {details && <TicketDetailsSheet ticket={ticket} locationName={locationName} onClose={() => setDetails(false)} />}
        {managed && !readOnly && !dead && (
          // Where the bump would be: who moves this order, so the missing button explains itself.
          <div className="managed-by" data-testid="managed-by" title={t('ticket.managed_by', { manager: managedBy })}>
            {t('ticket.managed_by', { manager: managedBy })}
          </div>
        )}
        {bump && (
          <button type="button" className={`btn btn-bump bump-${bump} ${suggested ? 'is-suggested' : ''} ${part ? 'with-part' : ''}`} data-testid="bump" data-target={bump} onClick={onBump}>
            {part ? <span className="bump-action">{t(`action.${bump}`)}</span> : t(`action.${bump}`)}
            {part}
          </button>
        )}
      </header>
      <div className="ticket-body">{shownBlocks.map(block)}</div>
      {readOnly && (
        <div className="ticket-final">
          {t(`status.${order.status}`)} · {formatClock(order.updated_at, timeZone, language)}
        </div>
      )}
    </article>
  );
});

/**
 * The ticket's running timer, its own component: its seconds change every second on every card
 * in view, and re-rendering only this span, not the whole card (items, facts, buttons), each
 * second keeps the board's ticks small and a tick that lands during a change short (bench row 5).
 */
const TicketTimer = memo(function TicketTimer({ ticket, level, clockOffset }: { ticket: ShownTicket; level: string; clockOffset: number }) {
  const text = useClock((now) => formatElapsed(elapsedMs(ticket, now + clockOffset)));
  return (
    <span className={`ticket-timer level-${level}`} data-testid="timer" data-level={level}>
      {text}
    </span>
  );
});
