// This screen's own moves: held for the undo window, then sent one at a time per order. The reply
// only acknowledges a move; the ticket itself changes when the live feed brings the order back, and
// the acknowledged move stands in for it until then (so the card never jumps back).
import { bumpTarget, type PatchTarget } from '../../../../shared/order-states.ts';
import type { KitchenOrder } from '../../../../shared/ipc/kitchen.ts';
import { IpcCallError } from '../../api.ts';
import type { BoardContext, GetBoard, SetBoard } from './context.ts';

export interface Move {
  seq: number;
  target: PatchTarget;
  /** held: can still be undone; sending: asked, no answer yet; sent: the engine said yes, the feed has not shown it yet. */
  phase: 'held' | 'sending' | 'sent';
  /** When a held move is sent (epoch ms, screen clock). */
  deadline: number;
}

export interface MovesSlice {
  moves: Record<string, Move[]>;
  bump(orderId: string): void;
  cancel(orderId: string): void;
  /** Takes back the latest held move (of one order, or of any). */
  undo(orderId?: string): boolean;
  /**
   * The feed brought `order` changed: its own moves that it reflects are done; if it changed
   * otherwise, what this screen held on it (decided on a state that no longer holds) is dropped.
   * Says which it was.
   */
  reconcile(order: KitchenOrder): 'own' | 'dropped-held' | 'none';
}

export function createMovesSlice(set: SetBoard, get: GetBoard, ctx: BoardContext): MovesSlice {
  let moveSeq = 0;
  const timers = new Map<string, unknown>();

  const setMoves = (orderId: string, moves: Move[]) =>
    set((s) => {
      const { [orderId]: _old, ...rest } = s.moves;
      return { moves: moves.length > 0 ? { ...rest, [orderId]: moves } : rest };
    });
  const movesOf = (orderId: string) => get().moves[orderId] ?? [];

  const schedule = (orderId: string, at: number) => {
    const previous = timers.get(orderId);
    if (previous !== undefined) ctx.clearTimer(previous);
    timers.set(
      orderId,
      ctx.setTimer(() => {
        timers.delete(orderId);
        process(orderId);
      }, Math.max(0, at - ctx.now())),
    );
  };

  /** Sends the next held move of an order when its hold is over; one at a time, in order. */
  const process = (orderId: string) => {
    const moves = movesOf(orderId);
    if (moves.some((m) => m.phase === 'sending')) return;
    const next = moves.find((m) => m.phase === 'held');
    if (!next) return;
    if (next.deadline > ctx.now()) {
      schedule(orderId, next.deadline);
      return;
    }
    setMoves(orderId, moves.map((m) => (m.seq === next.seq ? { ...m, phase: 'sending' as const } : m)));
    ctx.api.transitionOrder({ order_id: orderId, target: next.target }).then(
      () => {
        get().heard();
        // Still there unless the feed already brought the change back (then it is done).
        setMoves(orderId, movesOf(orderId).map((m) => (m.seq === next.seq ? { ...m, phase: 'sent' as const } : m)));
        process(orderId);
      },
      (error: unknown) => {
        const reached = error instanceof IpcCallError;
        if (reached) get().heard();
        else get().lostEngine();
        // The engine said no (or could not be asked): what this screen stacked on that ticket goes
        // back; what it already accepted stays until the feed shows it.
        setMoves(orderId, movesOf(orderId).filter((m) => m.phase === 'sent'));
        const ticket = get().tickets[orderId];
        get().flash(orderId, { kind: 'refused', until: ctx.now() + ctx.flashMs });
        get().addToast({ kind: 'refused', orderId, number: ticket?.order.number ?? '?', code: reached ? error.code : 'unreachable' });
      },
    );
  };

  return {
    moves: {},

    bump(orderId) {
      const ticket = get().tickets[orderId];
      if (!ticket || ticket.order.status === 'cancelado' || ticket.order.status === 'entregado') return;
      get().touch(orderId);
      const moves = movesOf(orderId);
      const shown = moves.length ? moves[moves.length - 1]!.target : ticket.order.status;
      const target = bumpTarget(shown, ticket.order.type);
      if (!target) return;
      // A second tap on the same ticket confirms the first one at once.
      const released = moves.map((m) => (m.phase === 'held' ? { ...m, deadline: ctx.now() } : m));
      setMoves(orderId, [...released, { seq: ++moveSeq, target, phase: 'held', deadline: ctx.now() + ctx.holdMs }]);
      process(orderId);
    },

    cancel(orderId) {
      if (!get().tickets[orderId]) return;
      get().touch(orderId);
      const kept = movesOf(orderId).filter((m) => m.phase !== 'held');
      setMoves(orderId, [...kept, { seq: ++moveSeq, target: 'cancelado', phase: 'held', deadline: ctx.now() }]);
      process(orderId);
    },

    undo(orderId) {
      let latest: { orderId: string; move: Move } | null = null;
      for (const [id, moves] of Object.entries(get().moves)) {
        if (orderId !== undefined && id !== orderId) continue;
        for (const move of moves) {
          if (move.phase === 'held' && move.deadline > ctx.now() && (latest === null || move.seq > latest.move.seq)) latest = { orderId: id, move };
        }
      }
      if (!latest) return false;
      const { orderId: id, move } = latest;
      setMoves(id, movesOf(id).filter((m) => m.seq !== move.seq));
      set({ selectedId: id });
      return true;
    },

    reconcile(order) {
      const moves = movesOf(order.id);
      if (moves.length === 0) return 'none';
      const own = moves.findIndex((m) => m.phase !== 'held' && m.target === order.status);
      if (own >= 0) {
        setMoves(order.id, moves.slice(own + 1));
        return 'own';
      }
      const heldHere = moves.some((m) => m.phase === 'held');
      setMoves(order.id, moves.filter((m) => m.phase === 'sending'));
      return heldHere ? 'dropped-held' : 'none';
    },
  };
}
