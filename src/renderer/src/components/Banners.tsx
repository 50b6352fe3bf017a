// The board's chrome in one slim strip at the bottom (stale data, the platform offline, sound,
// closed locations, storage, what waits to be sent), detail on tap; toasts float over the board at
// fixed sizes, and the undo tray has its place in the top bar, in the views' room against the tools:
// nothing the cook reads or taps moves, shrinks or is covered when they come.
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { DEFAULT_TIME_ZONE } from '../../../shared/locale.ts';
import { useApp, useBoard, useClock, useLocations, useNow, useSettings, useT } from '../app-context.tsx';
import { formatClock } from '../format.ts';
import { refusalText } from '../i18n.ts';
import { closedOnStrip, locationsOrderedSince } from '../closed-locations.ts';
import { kitchenWaitTexts } from '../kitchen-wait.ts';
import { isStale, type PendingMove, type PendingStart } from '../state/board-state.ts';
import type { KitchenTicket, LocationStatusEntry } from '../../../shared/screen-contract/kitchen.ts';
import { PrinterIcon } from './PrinterIcon.tsx';

export function StatusStrip({ board: onBoard, soundAllowed }: { board: boolean; soundAllowed: boolean }) {
  const t = useT();
  const now = useNow(1000);
  const status = useBoard((s) => s.status);
  const lowDisk = useBoard((s) => s.lowDisk);
  const stale = useBoard((s) => isStale(s, now));
  const lastHeardAt = useBoard((s) => s.lastHeardAt);
  const timeZone = useBoard((s) => s.restaurant?.time_zone ?? DEFAULT_TIME_ZONE);
  const language = useSettings((s) => s.settings.language);
  const apiUrl = useSettings((s) => s.info?.api_base_url ?? null);
  const engineLost = useBoard((s) => s.engineLost);
  const waiting = useBoard((s) => Object.values(s.pending).reduce((n, changes) => n + changes.filter((c) => c.phase === 'queued' || c.phase === 'sending').length, 0));
  const mode = status?.mode ?? 'standalone';
  const online = status?.online ?? false;
  // "En línea" only while heartbeats arrive: an answer to a tap is not a live feed.
  const connection = engineLost
    ? t('statusbar.unreachable')
    : status === null
      ? t('statusbar.connecting')
      : stale
        ? t('statusbar.stale')
        : t(online ? 'statusbar.online' : 'statusbar.offline');
  return (
    <footer
      className={`status-bar ${engineLost ? 'engine-lost' : ''} ${stale ? 'is-stale' : ''}`}
      data-testid="status-bar"
      data-engine={engineLost ? 'lost' : 'ok'}
      data-stale={stale ? 'true' : 'false'}
    >
      {stale ? (
        <span className="strip-chip chip-stale" role="alert" data-testid="stale-banner" title={t('board.stale', { seconds: Math.floor((now - lastHeardAt) / 1000) })}>
          ⚠ {t('strip.stale', { seconds: Math.floor((now - lastHeardAt) / 1000) })}
        </span>
      ) : (
        <span className={`status-dot ${engineLost ? 'offline' : status === null ? '' : online ? 'online' : 'offline'}`} aria-hidden="true" />
      )}
      <span data-testid="connection" className="strip-text">
        {t(mode === 'connected' ? 'statusbar.connected' : 'statusbar.standalone')} · {connection}
      </span>
      {onBoard && <KitchenWaitChips />}
      {!stale && status && status.mode === 'connected' && !status.online && (
        <span className="strip-chip chip-offline" role="alert" data-testid="offline-banner" title={t('board.offline', { time: status.last_sync_at ? formatClock(status.last_sync_at, timeZone, language) : '—' })}>
          {t('strip.platform_offline')}
        </span>
      )}
      {waiting > 0 && (
        <span className="strip-chip chip-waiting" data-testid="pending-count" data-count={waiting}>
          {t('strip.waiting', { count: waiting })}
        </span>
      )}
      {onBoard && soundAllowed === false && (
        <span className="strip-chip chip-sound" data-testid="sound-prompt">
          {t('strip.sound')}
        </span>
      )}
      {onBoard && <ClosedLocations />}
      {onBoard && <LateOnlyChip />}
      <PrintingChips />
      {lowDisk && !status?.storage_full && (
        // Heard before writes stop: below 64 MB the engine will not start, and a full disk stops orders.
        <span className="strip-chip chip-error" data-testid="low-disk" role="alert" data-free-bytes={lowDisk.free_bytes}>
          {t('strip.low_disk', { mb: Math.floor(lowDisk.free_bytes / (1024 * 1024)) })}
        </span>
      )}
      {status?.storage_full && (
        <span className="strip-chip chip-error" data-testid="storage-full" title={t('statusbar.storage_full')}>
          {t('strip.storage_full')}
        </span>
      )}
      {mode === 'connected' && (
        <span data-testid="last-sync" className="strip-text">
          {t('statusbar.last_sync', { time: status?.last_sync_at ? formatClock(status.last_sync_at, timeZone, language) : t('statusbar.never') })}
        </span>
      )}
      {(status?.queued ?? 0) > 0 && <span data-testid="queued" className="strip-text">{t('statusbar.queued', { count: status!.queued })}</span>}
      {(status?.conflicts ?? 0) > 0 && (
        <span className="status-conflicts strip-text" data-testid="conflicts">
          {t('statusbar.conflicts', { count: status!.conflicts })}
        </span>
      )}
      {status?.error && (
        <span className="status-error strip-text" data-testid="connection-error" title={status.error}>
          {status.error}
        </span>
      )}
      {apiUrl && <span className="muted strip-text strip-api">{t('statusbar.api', { url: apiUrl })}</span>}
    </footer>
  );
}

/**
 * The kitchen's wait of the locations this board shows (issue 32), as the engine's heartbeat says it:
 * "Espera ~18 min", "Pausado: espera 32 min" while busy mode has paused the store fronts. The first
 * to give up room on a narrow strip (its short form on a phone, then an ellipsis), never the rest.
 */
function KitchenWaitChips() {
  const t = useT();
  const waits = useLocations((s) => s.kitchenWaits);
  const locations = useBoard((s) => s.locations);
  const filter = useBoard((s) => s.locationFilter);
  const closed = useLocations((s) => (s.view?.world === 'live' ? s.view.data.filter((l) => !l.open_now).map((l) => l.location_id).join(',') : ''));
  if (!waits) return null;
  const texts = kitchenWaitTexts(t, waits, locations, filter, new Set(closed.split(',')));
  if (texts.length === 0) return null;
  return (
    <span className="strip-waits" data-testid="kitchen-waits">
      {texts.map((wait) => (
        <span
          key={wait.location_id}
          className={`strip-chip chip-kitchen-wait ${wait.paused ? 'is-paused' : ''}`}
          data-testid="kitchen-wait-chip"
          data-location-id={wait.location_id}
          data-minutes={wait.minutes}
          data-paused={wait.paused ? 'true' : 'false'}
          title={`${wait.text} · ${t('strip.kitchen_wait_title')}`}
        >
          <span className="wait-long">{wait.text}</span>
          <span className="wait-short">{wait.short}</span>
        </span>
      ))}
    </span>
  );
}

/** The board shows the late tickets alone ("Atrasados", issue 32): said on the strip, a tap shows every ticket again. */
function LateOnlyChip() {
  const t = useT();
  const { board } = useApp();
  const lateOnly = useBoard((s) => s.lateOnly);
  if (!lateOnly) return null;
  return (
    <button type="button" className="strip-chip chip-late-only" data-testid="late-only-chip" onClick={() => board.getState().setLateOnly(false)}>
      {t('strip.late_only')}
    </button>
  );
}

/**
 * The closed locations this board shows, each kind in its own chip; a tap gives the detail and the
 * way to reopen. Red only where orders stopped (closed-locations.ts): a location closed before it
 * took any order today is said plainly.
 */
function ClosedLocations() {
  const { locations } = useApp();
  const view = useLocations((s) => s.view);
  const filter = useBoard((s) => s.locationFilter);
  const orderedToday = useBoard((s) => locationsOrderedSince(s.tickets, s.dayStart));
  const [open, setOpen] = useState<'stopped' | 'idle' | null>(null);
  if (!view || view.world !== 'live') return null;
  const { stopped, idle } = closedOnStrip(view.data, orderedToday, filter);
  if (stopped.length === 0 && idle.length === 0) return null;
  const toggle = (kind: 'stopped' | 'idle') => setOpen(open === kind ? null : kind);
  const reopen = (locationId: string) => {
    setOpen(null);
    void locations.getState().setOpen(locationId, true);
  };
  return (
    <span className="strip-closed" data-testid="location-closed-banner">
      {stopped.length > 0 && <ClosedChip kind="stopped" closed={stopped} open={open === 'stopped'} onToggle={() => toggle('stopped')} onReopen={reopen} />}
      {idle.length > 0 && <ClosedChip kind="idle" closed={idle} open={open === 'idle'} onToggle={() => toggle('idle')} onReopen={reopen} />}
    </span>
  );
}

function ClosedChip(props: { kind: 'stopped' | 'idle'; closed: LocationStatusEntry[]; open: boolean; onToggle: () => void; onReopen: (locationId: string) => void }) {
  const t = useT();
  const view = useLocations((s) => s.view);
  const busy = useLocations((s) => s.busy);
  const names = props.closed.map((l) => l.name).join(', ');
  return (
    <>
      <button
        type="button"
        className={`strip-chip chip-closed ${props.kind === 'stopped' ? 'is-stopped' : 'is-idle'}`}
        data-testid="location-closed-chip"
        data-kind={props.kind}
        aria-expanded={props.open}
        onClick={props.onToggle}
      >
        <span className="closed-long">{t(props.kind === 'stopped' ? 'strip.closed' : 'strip.closed_short', { names })}</span>
        <span className="closed-short">{t('strip.closed_short', { names })}</span>
      </button>
      {props.open && (
        <span className="strip-popover" role="dialog">
          <span>{t('board.location_closed', { names })}</span>
          {view?.register_mode === 'manual' &&
            props.closed.map((l) => (
              <button
                key={l.location_id}
                type="button"
                className="btn btn-primary"
                data-testid="location-reopen"
                disabled={busy[l.location_id] === true}
                onClick={() => props.onReopen(l.location_id)}
              >
                {t('board.reopen', { name: l.name })}
              </button>
            ))}
        </span>
      )}
    </>
  );
}

export function Toasts() {
  const t = useT();
  const { board } = useApp();
  const toasts = useBoard((s) => s.toasts);
  if (toasts.length === 0) return null;
  return (
    <div className="toasts" aria-live="assertive">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} role="alert" data-testid="toast" data-kind={toast.kind} data-code={toast.kind === 'refused' ? toast.code : undefined}>
          <span>
            {toast.kind === 'refused'
              ? refusalText(t, toast.code, { number: toast.number, manager: t('ticket.manager_unknown') })
              : `#${toast.number}: ${t('ticket.changed')} (${t(`status.${toast.status}`)})`}
          </span>
          <button type="button" className="btn btn-secondary" onClick={() => board.getState().dismissToast(toast.id)}>
            {t('common.dismiss')}
          </button>
        </div>
      ))}
    </div>
  );
}

/** A change held for its undo window: a bump, or a line's start (issue 32). */
type HeldChange = PendingMove | PendingStart;

/**
 * The moves and line starts still held, in a place of their own in the top bar, never over a ticket: the latest
 * one (a tap, or Esc, takes it back) and "+N" more, whose list opens on tap. A touch on it within
 * the tap guard of the touch that bumped is ignored (pending-slice.ts): a double tap on a bump is
 * never a bump and an undo.
 *
 * Its place (round 12): the right end of the views' nav, against the tools, out of the flow (nothing
 * moves when it comes), the nav's height (a 48-px target). Over the tools it hid "☰ Pantalla" and the
 * sound button; in the 34-px status strip it was under the board's touch targets. Where the nav has
 * room it says the whole move, else the gist ("Deshacer #7 · 5s", the card says the rest); the tabs
 * it must stand over give way (hidden) for those 5 s only, never cut or covered.
 */
export function UndoTray() {
  const t = useT();
  const pending = useBoard((s) => s.pending);
  const tickets = useBoard((s) => s.tickets);
  const [listOpen, setListOpen] = useState(false);
  const trayRef = useRef<HTMLDivElement>(null);
  const held = useClock((now) =>
    Object.entries(pending)
      .flatMap(([orderId, list]) => list.filter((c): c is HeldChange => c.kind !== 'item' && c.phase === 'held' && c.deadline > now).map((move) => ({ orderId, move })))
      .sort((a, b) => b.move.seq - a.move.seq)
      .map(({ orderId, move }) => `${orderId}|${move.seq}`)
      .join(','),
  );
  useFitInNav(trayRef, held !== '');
  if (held === '') return null;
  const entries = held.split(',').map((entry) => {
    const [orderId, seq] = entry.split('|') as [string, string];
    const move = (pending[orderId] ?? []).find((c) => c.seq === Number(seq)) as HeldChange | undefined;
    return { orderId, move };
  });
  const [latest, ...more] = entries;
  return (
    <div ref={trayRef} className="undo-tray" data-testid="undo-tray" role="region" aria-label={t('board.undo_tray')}>
      {listOpen && more.length > 0 && (
        <div className="undo-list" data-testid="undo-list">
          {more.map(({ orderId, move }) => move && <HeldMove key={move.seq} orderId={orderId} ticket={tickets[orderId]} move={move} />)}
        </div>
      )}
      <div className="undo-row">
        {latest?.move && <HeldMove orderId={latest.orderId} ticket={tickets[latest.orderId]} move={latest.move} />}
        {more.length > 0 && (
          <button type="button" className="btn btn-secondary undo-more" data-testid="undo-more" aria-expanded={listOpen} onClick={() => setListOpen(!listOpen)}>
            +{more.length}
          </button>
        )}
      </div>
    </div>
  );
}

/** The overlap of two boxes, in px (0 when they do not meet). */
const overlapOf = (a: DOMRect, b: DOMRect) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

/**
 * Fits the tray in its nav before the frame is painted, again whenever the tray or the nav resizes:
 * the whole move beside the tabs, else over the tabs (or the views' select) it must stand on, hidden
 * meanwhile (the words first: a line start says which line); where the nav is narrower than the whole
 * move, the gist, beside them or over them. The views are shown again when it goes.
 */
function useFitInNav(trayRef: RefObject<HTMLDivElement | null>, up: boolean) {
  useLayoutEffect(() => {
    const tray = trayRef.current;
    const nav = tray?.parentElement;
    if (!tray || !nav) return;
    const views = () => [...nav.children].filter((el): el is HTMLElement => el !== tray && el instanceof HTMLElement);
    const fit = () => {
      for (const view of views()) view.removeAttribute('data-under-tray');
      const fits = (form: 'long' | 'short', besideViews: boolean) => {
        tray.dataset.form = form;
        const box = tray.getBoundingClientRect();
        if (tray.scrollWidth > nav.clientWidth + 0.5) return false;
        return !besideViews || views().every((view) => overlapOf(box, view.getBoundingClientRect()) === 0);
      };
      if (!fits('long', true) && !fits('long', false) && !fits('short', true)) tray.dataset.form = 'short';
      const box = tray.getBoundingClientRect();
      for (const view of views()) view.toggleAttribute('data-under-tray', overlapOf(box, view.getBoundingClientRect()) > 0);
      // The list of the others opens under the tray, out of the top bar's clip.
      tray.style.setProperty('--tray-bottom', `${box.bottom + 4}px`);
      tray.style.setProperty('--tray-right', `${document.documentElement.clientWidth - box.right}px`);
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(nav);
    observer.observe(tray);
    return () => {
      observer.disconnect();
      for (const view of views()) view.removeAttribute('data-under-tray');
    };
  }, [trayRef, up]);
}

function HeldMove({ orderId, ticket, move }: { orderId: string; ticket: KitchenTicket | undefined; move: HeldChange }) {
  const t = useT();
  const number = ticket?.order.number ?? '?';
  const { board } = useApp();
  // The shared tick may be up to a tick old at the moment of the tap: read the clock itself.
  const seconds = useClock(() => Math.ceil((move.deadline - Date.now()) / 1000));
  if (seconds <= 0) return null;
  return (
    <button type="button" className="btn btn-undo" data-testid="undo" data-order-id={orderId} data-kind={move.kind} onClick={(e) => board.getState().undo(orderId, e.timeStamp)}>
      <span className="undo-long">
        {move.kind === 'move'
          ? t('board.undo_move', { number, target: t(`status.${move.target}`), undo: t('ticket.undo'), seconds })
          : t('board.undo_start', { number, item: ticket?.kitchen.items.find((i) => i.index === move.index)?.name ?? '?', undo: t('ticket.undo'), seconds })}
      </span>
      <span className="undo-short">{t('board.undo_short', { number, undo: t('ticket.undo'), seconds })}</span>
    </button>
  );
}

/**
 * Printers with jobs waiting or in trouble: "Plancha: sin papel · 3 en cola"; tickets the printer
 * never confirmed, set aside so the next ones print, with Reintentar.
 */
function PrintingChips() {
  const t = useT();
  const { board } = useApp();
  const printing = useBoard((s) => s.printing);
  return (
    <>
      {printing.map((p) => (
        <span
          key={p.printer_id}
          className={`strip-chip ${p.state === 'unreachable' || p.state === 'paper_out' || p.set_aside > 0 ? 'chip-error' : 'chip-waiting'}`}
          data-testid="print-status"
          data-printer={p.name}
          data-state={p.state}
          data-queued={p.queued}
          data-set-aside={p.set_aside}
          role={p.state === 'paper_out' || p.set_aside > 0 ? 'alert' : undefined}
        >
          <PrinterIcon size={16} /> {t(`print.state_${p.state}`, { name: p.name })}
          {p.queued > 0 ? ` · ${t('print.queued', { count: p.queued })}` : ''}
          {p.set_aside > 0 ? ` · ${t('print.set_aside', { count: p.set_aside })} ` : ''}
          {p.set_aside > 0 && (
            <button type="button" className="btn btn-retry-print" data-testid="retry-printer" onClick={() => board.getState().retryPrinter(p.printer_id)}>
              {t('print.retry')}
            </button>
          )}
        </span>
      ))}
    </>
  );
}
