// Which tickets a cook can actually see right now: in the rendered window of their column, on the
// shown page and not scrolled out of their list. One IntersectionObserver for the whole screen;
// the columns count what they hide from it and the new-orders indicator announces what is hidden.
import { useEffect, type RefObject } from 'react';
import { createStore, useStore } from 'zustand';

const visible = createStore<{ ids: Record<string, true> }>(() => ({ ids: {} }));
let observer: IntersectionObserver | null = null;
let pending: Record<string, boolean> = {};
let flushScheduled = false;

const flush = () => {
  flushScheduled = false;
  const ids = { ...visible.getState().ids };
  for (const [id, isVisible] of Object.entries(pending)) {
    if (isVisible) ids[id] = true;
    else delete ids[id];
  }
  pending = {};
  visible.setState({ ids });
};

function note(id: string, isVisible: boolean) {
  pending[id] = isVisible;
  if (!flushScheduled) {
    flushScheduled = true;
    queueMicrotask(flush);
  }
}

function sharedObserver(): IntersectionObserver {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const id = (entry.target as HTMLElement).dataset.orderId;
        if (!id) continue;
        const viewport = entry.rootBounds?.height ?? window.innerHeight;
        // Mostly in view, or filling at least half the screen (a long ticket never fits whole).
        note(id, entry.isIntersecting && (entry.intersectionRatio >= 0.5 || entry.intersectionRect.height >= viewport / 2));
      }
    },
    { threshold: [0, 0.25, 0.5, 0.75, 1] },
  );
  return observer;
}

/** Tracks the element (a ticket with `data-order-id`) while it is mounted. */
export function useTrackVisibility(ref: RefObject<HTMLElement | null>, orderId: string, enabled = true): void {
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    const io = sharedObserver();
    io.observe(element);
    return () => {
      io.unobserve(element);
      note(orderId, false);
    };
  }, [ref, orderId, enabled]);
}

export const useVisibleIds = <T,>(select: (ids: Record<string, true>) => T): T => useStore(visible, (s) => select(s.ids));
