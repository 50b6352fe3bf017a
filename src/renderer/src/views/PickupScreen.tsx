// "Pantalla de retiro": the customers' screen by the counter. Two lists of numbers in very large
// type, "Preparando" and "¡Listo para retirar!"; a number that turns ready chimes and stands out
// for a few seconds, and leaves once delivered. It reads its own narrow channel (numbers only) and
// hears the live stream only as a doorbell (and a heartbeat: without one for a while it says its
// numbers may be out of date, like the board).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { KitchenApi } from '../api.ts';
import type { PickupBoard } from '../../../shared/ipc/pickup.ts';
import chime from '../../../../resources/sounds/new-order.wav';

/** How long a number just ready stands out. */
export const READY_HIGHLIGHT_MS = 10_000;
/** Without a word from the engine this long (before its heartbeat says otherwise), the numbers may be stale. */
const DEFAULT_STALE_MS = 15_000;

export function PickupScreen({ api }: { api: KitchenApi }) {
  const [board, setBoard] = useState<PickupBoard | null>(null);
  const [offset, setOffset] = useState(0);
  const [heardAt, setHeardAt] = useState(() => Date.now());
  const [staleAfter, setStaleAfter] = useState(DEFAULT_STALE_MS);
  const [now, setNow] = useState(() => Date.now());
  const known = useRef<Set<string> | null>(null);
  const reading = useRef<Promise<void> | null>(null);
  const again = useRef(false);

  const read = useCallback(() => {
    if (reading.current) {
      again.current = true;
      return;
    }
    reading.current = (async () => {
      do {
        again.current = false;
        try {
          const next = await api.pickupBoard({});
          setBoard(next);
          setOffset(next.now - Date.now());
          setHeardAt(Date.now());
          // A number new to the ready list chimes (not those already there when the screen opened).
          const ready = new Set(next.ready.map((n) => n.number));
          if (known.current !== null && [...ready].some((n) => !known.current!.has(n))) void new Audio(chime).play().catch(() => {});
          known.current = ready;
        } catch {
          // Unreachable for now: the stale notice says so; the next push reads again.
        }
      } while (again.current);
      reading.current = null;
    })();
  }, [api]);

  useEffect(() => {
    read();
    const stop = api.onLive((push) => {
      setHeardAt(Date.now());
      if (push.kind === 'heartbeat') {
        if (push.stale_after_ms) setStaleAfter(push.stale_after_ms);
        setOffset(push.now - Date.now());
        return;
      }
      read();
    });
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => {
      stop?.();
      clearInterval(timer);
    };
  }, [api, read]);

  const stale = now - heardAt > staleAfter;
  const engineNow = now + offset;
  return (
    <main className="pickup-screen" data-testid="pickup-screen" data-stale={stale ? 'true' : 'false'}>
      <section className="pickup-column pickup-preparing">
        <h1>Preparando</h1>
        <ol>
          {board?.preparing.map((n) => (
            <li key={n.number} data-pickup-number={n.number} data-state="preparing">
              {n.number}
            </li>
          ))}
        </ol>
      </section>
      <section className="pickup-column pickup-ready">
        <h1>¡Listo para retirar!</h1>
        <ol>
          {board?.ready.map((n) => (
            <li
              key={n.number}
              data-pickup-number={n.number}
              data-state="ready"
              className={n.ready_at !== null && engineNow - n.ready_at < READY_HIGHLIGHT_MS ? 'just-ready' : ''}
            >
              {n.number}
            </li>
          ))}
        </ol>
      </section>
      {stale && (
        <p className="pickup-stale" role="status" data-testid="pickup-stale">
          Actualizando…
        </p>
      )}
    </main>
  );
}
