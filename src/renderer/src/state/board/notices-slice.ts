// What the board points out: tickets flashing (changed elsewhere, cancelled, refused), new orders
// ringing until touched, and toasts that say what went wrong in the cook's words.
import type { BoardContext, GetBoard, NoticesSlice, SetBoard, Toast } from './board-shape.ts';

/** How many toasts stay on screen at once (the oldest goes first). */
const MAX_TOASTS = 3;
/** A toast goes by itself after this long (the card it speaks of keeps its own mark meanwhile). */
const TOAST_MS = 10_000;

export function createNoticesSlice(set: SetBoard, get: GetBoard, ctx: BoardContext): NoticesSlice {
  let toastSeq = 0;
  return {
    flashes: {},
    ringing: {},
    toasts: [],
    flash(orderId, value) {
      set((s) => ({ flashes: { ...s.flashes, [orderId]: value } }));
      ctx.setTimer(() => {
        const current = get().flashes[orderId];
        if (current && current.until <= ctx.now()) {
          const { [orderId]: _gone, ...rest } = get().flashes;
          set({ flashes: rest });
        }
      }, ctx.flashMs + 50);
    },
    ring(orderId) {
      set((s) => ({ ringing: { ...s.ringing, [orderId]: true } }));
    },
    silence(orderId) {
      if (!get().ringing[orderId]) return;
      const { [orderId]: _r, ...ringing } = get().ringing;
      set({ ringing });
    },
    addToast(toast) {
      const id = ++toastSeq;
      set((s) => ({ toasts: [...s.toasts.slice(-(MAX_TOASTS - 1)), { ...toast, id } as Toast] }));
      ctx.setTimer(() => get().dismissToast(id), TOAST_MS);
    },
    dismissToast(id) {
      set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
    },
  };
}
