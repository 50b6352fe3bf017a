// "Agotar" from a ticket: a long press on an item asks whether that dish is sold out ("86") at the
// ticket's location; one tap says yes, and the menu and POST /orders refuse it until it is offered
// again (the Stock screen) or the kitchen's day ends. A long press, not a tap: a tap strikes the item.
import { useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { errorMessage } from '../api.ts';
import { useT } from '../app-context.tsx';

/** How long a finger rests on an item before it asks (a strike is a quick tap). */
export const LONG_PRESS_MS = 600;

export interface LongPress {
  handlers(index: number): {
    onPointerDown(e: { pointerId: number }): void;
    onPointerUp(): void;
    onPointerLeave(): void;
    onPointerCancel(): void;
    onContextMenu(e: { preventDefault(): void }): void;
  };
  /** True once for the click that ends a long press (it must not strike the item too). */
  consumeClick(): boolean;
}

export function useLongPress(onLongPress: (index: number) => void): LongPress {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const fired = useRef(false);
  const cancel = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  };
  return {
    handlers: (index) => ({
      onPointerDown: () => {
        cancel();
        fired.current = false;
        timer.current = setTimeout(() => {
          timer.current = null;
          fired.current = true;
          onLongPress(index);
        }, LONG_PRESS_MS);
      },
      onPointerUp: cancel,
      onPointerLeave: cancel,
      onPointerCancel: cancel,
      // A browser's own long-press menu (Android) would cover the question.
      onContextMenu: (e) => e.preventDefault(),
    }),
    consumeClick: () => {
      const was = fired.current;
      fired.current = false;
      return was;
    },
  };
}

interface SoldOutAskProps {
  name: string;
  ask(soldOut: boolean): Promise<{ name: string; sold_out: boolean; simulated: boolean }>;
  onClose(): void;
}

export function SoldOutAsk({ name, ask, onClose }: SoldOutAskProps) {
  const t = useT();
  const [state, setState] = useState<{ kind: 'asking' } | { kind: 'busy' } | { kind: 'done'; text: string } | { kind: 'failed'; text: string }>({ kind: 'asking' });
  const answer = async () => {
    setState({ kind: 'busy' });
    try {
      const result = await ask(true);
      setState({ kind: 'done', text: t(result.simulated ? 'soldout.ticket_done_simulated' : 'soldout.ticket_done', { name: result.name }) });
    } catch (failure) {
      setState({ kind: 'failed', text: t('common.error', { message: errorMessage(failure) }) });
    }
  };
  // Drawn above the board, not inside the ticket: a ticket's fragment has a fixed height.
  return createPortal(
    // Taps here answer the question: they neither strike the item nor select the ticket.
    <div className="sold-out-ask" data-testid="sold-out-ask" role="dialog" aria-label={t('soldout.ticket_ask', { name })} onClick={(e) => e.stopPropagation()}>
      {state.kind === 'asking' || state.kind === 'busy' ? (
        <>
          <span>{t('soldout.ticket_ask', { name })}</span>
          <button type="button" className="btn btn-danger" data-testid="sold-out-confirm" disabled={state.kind === 'busy'} onClick={() => void answer()}>
            {t('soldout.mark')}
          </button>
          <button type="button" className="btn btn-secondary" data-testid="sold-out-dismiss" onClick={onClose}>
            {t('soldout.ticket_keep')}
          </button>
        </>
      ) : (
        <>
          <span role="status" data-testid="sold-out-result">{state.text}</span>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            {t('common.dismiss')}
          </button>
        </>
      )}
    </div>,
    document.body,
  );
}
