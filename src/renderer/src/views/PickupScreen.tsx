// "Pantalla de retiro": the customers' screen by the counter. Two lists of numbers in type as large
// as the count allows (pickup-layout.ts), "Preparando" and "¡Listo para retirar!"; a number that
// turns ready chimes and stands out for a few seconds, and leaves once delivered. It reads its own
// narrow channel (numbers, and a first name only where the restaurant chose to show them) and hears
// the live stream only as a doorbell (and a heartbeat: without one for a while it says its numbers
// may be out of date, like the board). Its language: the screen's own choice if it made one, else
// the restaurant's for its pickup screens (Pantallas de cocina, `npm run restaurant -- pickup-screen`).
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { KitchenApi } from '../api.ts';
import type { PickupBoard, PickupNumber } from '../../../shared/screen-contract/pickup.ts';
import { DEFAULT_LANGUAGE, type Language } from '../../../shared/locale.ts';
import { translate } from '../i18n.ts';
import { canvasEm, fitPickupNumbers, NAME_EM, type PickupFit } from '../pickup-layout.ts';
import chime from '../../../../resources/sounds/new-order.wav';

/** How long a number just ready stands out. */
export const READY_HIGHLIGHT_MS = 10_000;
/** Without a word from the engine this long (before its heartbeat says otherwise), the numbers may be stale. */
const DEFAULT_STALE_MS = 15_000;
/** Settings change without an order changing: a heartbeat reads the board again after this long. */
const REREAD_MS = 60_000;
/** The lists' font (styles.css .pickup-screen), measured to size the numbers. */
const FONT_FAMILY = 'system-ui, sans-serif';

/** The largest type a list may take, as a share of its height: one ready number is huge, one preparing less so. */
const MAX_FONT_SHARE = { ready: 0.45, preparing: 0.3 } as const;

export function PickupScreen({ api, ownLanguage = null }: { api: KitchenApi; ownLanguage?: Language | null }) {
  const [board, setBoard] = useState<PickupBoard | null>(null);
  const [offset, setOffset] = useState(0);
  const [heardAt, setHeardAt] = useState(() => Date.now());
  const [staleAfter, setStaleAfter] = useState(DEFAULT_STALE_MS);
  const [now, setNow] = useState(() => Date.now());
  const known = useRef<Set<string> | null>(null);
  const reading = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  const readAt = useRef(0);

  const read = useCallback(() => {
    if (reading.current) {
      again.current = true;
      return;
    }
    reading.current = (async () => {
      do {
        again.current = false;
        try {
          readAt.current = Date.now();
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
        if (Date.now() - readAt.current > REREAD_MS) read();
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

  const language = ownLanguage ?? board?.language ?? DEFAULT_LANGUAGE;
  const stale = now - heardAt > staleAfter;
  const engineNow = now + offset;
  const justReady = (n: PickupNumber) => n.ready_at !== null && engineNow - n.ready_at < READY_HIGHLIGHT_MS;
  return (
    <main className="pickup-screen" data-testid="pickup-screen" data-stale={stale ? 'true' : 'false'} lang={language === 'es' ? 'es-CL' : 'en'}>
      <PickupColumn title={translate(language, 'pickup.preparing')} state="preparing" numbers={board?.preparing ?? []} highlight={() => false} />
      <PickupColumn title={translate(language, 'pickup.ready')} state="ready" numbers={board?.ready ?? []} highlight={justReady} />
      {stale && (
        <p className="pickup-stale" role="status" data-testid="pickup-stale">
          {translate(language, 'pickup.stale')}
        </p>
      )}
    </main>
  );
}

function PickupColumn(props: { title: string; state: 'preparing' | 'ready'; numbers: PickupNumber[]; highlight(n: PickupNumber): boolean }) {
  const { title, state, numbers, highlight } = props;
  const list = useRef<HTMLOListElement>(null);
  const [box, setBox] = useState({ width: 0, height: 0 });
  const [measure] = useState(() => ({ numberEm: canvasEm(800, FONT_FAMILY) ?? undefined, nameEm: canvasEm(600, FONT_FAMILY) ?? undefined }));
  // The list's own size (what the header and the orientation leave it), followed as it changes.
  useLayoutEffect(() => {
    const element = list.current;
    if (!element) return;
    const measure = () => setBox({ width: element.clientWidth, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const fit: PickupFit = fitPickupNumbers({ ...box, numbers, ...measure, maxFontPx: Math.max(24, box.height * MAX_FONT_SHARE[state]) });
  return (
    <section className={`pickup-column pickup-${state}`}>
      <h1>{title}</h1>
      <ol
        ref={list}
        data-columns={fit.columns}
        style={{ fontSize: `${fit.fontPx}px`, gridTemplateColumns: `repeat(${fit.columns}, minmax(0, 1fr))` }}
      >
        {numbers.map((n) => (
          <li key={n.number} data-pickup-number={n.number} data-state={state} className={highlight(n) ? 'just-ready' : ''}>
            <span className="pickup-number">
              {n.number}
              {n.hub_number && <small className="pickup-hub-number"> · {n.hub_number}</small>}
            </span>
            {n.first_name !== undefined && (
              <span className="pickup-name" style={{ fontSize: `${NAME_EM}em` }}>
                {n.first_name}
              </span>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
