// Every change this screen makes to a ticket, in one place until the engine has it: bumps and line
// starts held for the undo window, item marks, and whatever was tapped while the engine could not be reached.
// Each change carries its own idempotency key, is sent one at a time per order, in order, and is
// kept (and survives a reload) until the engine answers: yes (the feed then shows it), or no (the
// card says so). A tap never moves an order more than one step beyond what the screen showed.
import { bumpTarget } from '../../../../shared/order-states.ts';
import { ScreenCallError } from '../../api.ts';
import type { KitchenTicket, TicketItem } from '../../../../shared/screen-contract/kitchen.ts';
import type { BoardContext, GetBoard, PendingBase, PendingChange, PendingMove, PendingSlice, PendingStart, PendingStorage, SetBoard } from './board-shape.ts';

/**
 * A second touch within this long of a touch that bumped is the same tap (a wet finger, a double
 * tap): ignored wherever it lands. Compared on the touches' own timestamps (`event.timeStamp`),
 * so a busy page that handles two touches 150 ms apart a second apart still sees 150 ms.
 */
export const TAP_GUARD_MS = 700;

/** After a "too many changes" answer, the change waits this long before it is sent again. */
export const RATE_LIMITED_RETRY_MS = 1000;

/** Codes that mean "not now" rather than "no": the change waits and is sent again. */
const RETRY_CODES = new Set(['engine_unreachable', 'internal_error', 'storage_full', 'storage_unavailable', 'rate_limited']);

export const movesOf = (changes: PendingChange[] | undefined): PendingMove[] => (changes ?? []).filter((c): c is PendingMove => c.kind === 'move');

/** Whether an item shows struck on this screen: its latest pending mark, else the engine's word. */
export function itemDone(changes: PendingChange[] | undefined, index: number, done: boolean): boolean {
  if (changes) {
    for (let i = changes.length - 1; i >= 0; i--) {
      const change = changes[i]!;
      if (change.kind === 'item' && change.index === index) return change.done;
    }
  }
  return done;
}

/**
 * Whether a line shows started on this screen (issue 32): not done, and its latest pending start
 * (the first tap on it), else the engine's word. A line un-done goes back to what the engine says.
 */
export function itemStarted(changes: PendingChange[] | undefined, item: Pick<TicketItem, 'index' | 'done' | 'started'>): boolean {
  if (itemDone(changes, item.index, item.done)) return false;
  if (changes) {
    for (let i = changes.length - 1; i >= 0; i--) {
      const change = changes[i]!;
      if (change.kind === 'start' && change.index === item.index) return change.started;
    }
  }
  return item.started === true;
}

/** The pending start of a line (the first tap on it, not yet shown back by the feed), if any. */
export function pendingStartOf(changes: PendingChange[] | undefined, index: number): PendingStart | undefined {
  return changes?.findLast((c): c is PendingStart => c.kind === 'start' && c.index === index);
}

/** A ticket whose lines a cook can start: in the kitchen and not ready yet (the engine refuses the others). */
const COOKING = new Set(['recibido', 'en_preparacion']);

/** Waiting for the engine: due but not yet accepted by it. */
export const isWaiting = (change: PendingChange) => change.phase === 'queued' || change.phase === 'sending';

function newKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether the ticket as the feed brought it says what an item mark or a start asked for. */
function reflects(ticket: KitchenTicket, change: Exclude<PendingChange, PendingMove>): boolean {
  const item = ticket.kitchen.items.find((i) => i.index === change.index);
  if (!item) return false;
  // A done line is neither started nor not: the start is settled by the bump that followed it.
  return change.kind === 'item' ? item.done === change.done : item.done || (item.started === true) === change.started;
}

export function createPendingSlice(set: SetBoard, get: GetBoard, ctx: BoardContext): PendingSlice {
  const restored = ctx.pendingStorage?.read() ?? {};
  let seq = Object.values(restored).flat().reduce((max, c) => Math.max(max, c.seq), 0);
  const timers = new Map<string, unknown>();
  /** Orders whose last send was refused as too many (rate_limited): not sent again before this. */
  const retryAt = new Map<string, number>();
  const lastTap = new Map<string, number>();
  /** The timestamp of the last touch that bumped a ticket (event.timeStamp's clock). */
  let lastBumpTouch: number | null = null;

  const setChanges = (orderId: string, changes: PendingChange[]) =>
    set((s) => {
      const { [orderId]: _old, ...rest } = s.pending;
      return { pending: changes.length > 0 ? { ...rest, [orderId]: changes } : rest };
    });
  const changesOf = (orderId: string) => get().pending[orderId] ?? [];
  const update = (orderId: string, seqOf: number, patch: Partial<PendingBase>) =>
    setChanges(orderId, changesOf(orderId).map((c) => (c.seq === seqOf ? ({ ...c, ...patch } as PendingChange) : c)));

  /** A touch within the guard after the touch that bumped: ignored, wherever it landed. */
  const afterBump = (touchedAt: number | undefined): boolean =>
    touchedAt !== undefined && lastBumpTouch !== null && touchedAt >= lastBumpTouch && touchedAt - lastBumpTouch < TAP_GUARD_MS;

  /** A second press on the same thing within the guard (keyboard, bump bar: no touch timestamp): ignored. */
  const repeated = (what: string, touchedAt?: number): boolean => {
    // Touches compare with touches (their own clock), key presses with key presses (the page's).
    const now = touchedAt ?? ctx.now();
    if (touchedAt !== undefined) what = `touch:${what}`;
    const last = lastTap.get(what);
    if (last !== undefined && now - last < TAP_GUARD_MS) return true;
    lastTap.set(what, now);
    return false;
  };

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

  /** A line a tap starts: not done nor started on this screen, in a ticket the kitchen is cooking. */
  const startable = (ticket: KitchenTicket, item: TicketItem): boolean => {
    if (!ctx.api.setItemStarted) return false;
    const changes = changesOf(ticket.order.id);
    const moves = movesOf(changes);
    const shown = moves.length ? moves[moves.length - 1]!.target : ticket.order.status;
    return COOKING.has(shown) && !itemDone(changes, item.index, item.done) && !itemStarted(changes, item);
  };

  const send = (change: PendingChange, orderId: string) =>
    change.kind === 'move'
      ? ctx.api.transitionOrder({ order_id: orderId, target: change.target, change_id: change.key })
      : change.kind === 'start'
        ? ctx.api.setItemStarted!({ order_id: orderId, item_index: change.index, started: change.started, change_id: change.key })
        : ctx.api.setItemDone!({ order_id: orderId, item_index: change.index, done: change.done, change_id: change.key });

  /** Sends the next due change of an order; one at a time, in order. */
  const process = (orderId: string) => {
    const changes = changesOf(orderId);
    if (changes.some((c) => c.phase === 'sending')) return;
    const next = changes.find((c) => c.phase === 'held' || c.phase === 'queued');
    if (!next) return;
    if (next.phase === 'held' && next.deadline > ctx.now()) {
      schedule(orderId, next.deadline);
      return;
    }
    // Known to be out of reach: it waits for the next word from the engine (flush).
    if (get().engineLost) {
      if (next.phase !== 'queued') update(orderId, next.seq, { phase: 'queued' });
      return;
    }
    const notBefore = retryAt.get(orderId);
    if (notBefore !== undefined && notBefore > ctx.now()) {
      schedule(orderId, notBefore);
      return;
    }
    retryAt.delete(orderId);
    update(orderId, next.seq, { phase: 'sending' });
    send(next, orderId).then(
      () => {
        get().heard();
        // Still there unless the feed already brought the change back (then it is done).
        update(orderId, next.seq, { phase: 'sent' });
        // A line's mark or start the feed brought before this answer is done now.
        const shown = get().tickets[orderId];
        if (next.kind !== 'move' && shown) get().settleItems(shown);
        process(orderId);
      },
      (error: unknown) => {
        const refused = error instanceof ScreenCallError && !RETRY_CODES.has(error.code);
        if (error instanceof ScreenCallError && error.code === 'rate_limited') {
          // The engine answered "not so fast": it is there; the change is sent again after a
          // pause, not at every heartbeat (retrying at once kept the limit from ever refilling).
          get().heard();
          update(orderId, next.seq, { phase: 'queued' });
          retryAt.set(orderId, ctx.now() + RATE_LIMITED_RETRY_MS);
          schedule(orderId, ctx.now() + RATE_LIMITED_RETRY_MS);
          return;
        }
        if (!refused) {
          get().lostEngine();
          update(orderId, next.seq, { phase: 'queued' });
          return;
        }
        get().heard();
        // The engine said no: this change and what this screen stacked on it go; what it already
        // accepted stays until the feed shows it.
        setChanges(
          orderId,
          changesOf(orderId).filter((c) => c.phase === 'sent' || (c.seq !== next.seq && !(next.kind === 'move' && c.kind === 'move'))),
        );
        const ticket = get().tickets[orderId];
        get().flash(orderId, { kind: 'refused', until: ctx.now() + ctx.flashMs, code: error.code });
        get().addToast({ kind: 'refused', orderId, number: ticket?.order.number ?? '?', code: error.code });
        process(orderId);
      },
    );
  };

  // What was waiting when the page closed waits again (an answer it never got is asked again,
  // with the same key: applied once).
  const pending: Record<string, PendingChange[]> = {};
  for (const [orderId, changes] of Object.entries(restored)) {
    const waiting = changes.filter((c) => c.phase !== 'sent').map((c) => ({ ...c, phase: 'queued' as const }));
    if (waiting.length > 0) pending[orderId] = waiting;
  }

  return {
    pending,

    bump(orderId, seen, touchedAt, anywhere = true) {
      if (anywhere && afterBump(touchedAt)) return;
      const ticket = get().tickets[orderId];
      if (!ticket || ticket.order.status === 'cancelado' || ticket.order.status === 'entregado') return;
      const moves = movesOf(changesOf(orderId));
      const shown = moves.length ? moves[moves.length - 1]!.target : ticket.order.status;
      if (seen !== undefined && seen !== shown) return;
      const target = bumpTarget(shown, ticket.order.type);
      if (!target || ((touchedAt === undefined || !anywhere) && repeated(`move:${orderId}`, touchedAt))) return;
      if (touchedAt !== undefined && anywhere) lastBumpTouch = touchedAt;
      get().touch(orderId);
      const now = ctx.now();
      // A second tap on the same ticket (after the guard) confirms the first one at once.
      const released = changesOf(orderId).map((c) => (c.phase === 'held' ? { ...c, deadline: now } : c));
      setChanges(orderId, [...released, { kind: 'move', seq: ++seq, key: newKey(), target, from: shown, phase: 'held', deadline: now + ctx.holdMs, at: now }]);
      process(orderId);
    },

    cancel(orderId) {
      const ticket = get().tickets[orderId];
      if (!ticket) return;
      get().touch(orderId);
      const now = ctx.now();
      const kept = changesOf(orderId).filter((c) => !(c.kind === 'move' && c.phase === 'held'));
      const moves = movesOf(kept);
      const from = moves.length ? moves[moves.length - 1]!.target : ticket.order.status;
      setChanges(orderId, [...kept, { kind: 'move', seq: ++seq, key: newKey(), target: 'cancelado', from, phase: 'held', deadline: now, at: now }]);
      process(orderId);
    },

    tapItem(orderId, index, touchedAt) {
      if (afterBump(touchedAt)) return;
      const ticket = get().tickets[orderId];
      const item = ticket?.kitchen.items.find((i) => i.index === index);
      if (!ticket || !item || !ctx.api.setItemDone || repeated(`item:${orderId}:${index}`, touchedAt)) return;
      get().touch(orderId);
      const now = ctx.now();
      // The first tap on a line of a cooking ticket starts it (issue 32): held for the undo window,
      // like a bump, so a wrong line is taken back before the engine logs it.
      if (startable(ticket, item)) {
        setChanges(orderId, [...changesOf(orderId), { kind: 'start', seq: ++seq, key: newKey(), index, started: true, phase: 'held', deadline: now + ctx.holdMs, at: now }]);
        process(orderId);
        return;
      }
      // The next tap is its bump: a start still held on it is confirmed at once, and goes first.
      const changes = changesOf(orderId).map((c) => (c.kind === 'start' && c.index === index && c.phase === 'held' ? { ...c, deadline: now } : c));
      const done = !itemDone(changes, index, item.done);
      // A mark not yet sent is replaced; one that only undoes it is not sent at all.
      const unsent = (c: PendingChange) => c.kind === 'item' && c.index === index && (c.phase === 'held' || c.phase === 'queued');
      const kept = changes.filter((c) => !unsent(c));
      const needed = itemDone(kept, index, item.done) !== done;
      setChanges(orderId, needed ? [...kept, { kind: 'item', seq: ++seq, key: newKey(), index, done, phase: 'held', deadline: now, at: now }] : kept);
      process(orderId);
    },

    undo(orderId, touchedAt) {
      if (afterBump(touchedAt)) return false;
      let latest: { orderId: string; change: PendingChange } | null = null;
      for (const [id, changes] of Object.entries(get().pending)) {
        if (orderId !== undefined && id !== orderId) continue;
        for (const change of changes) {
          if (change.kind !== 'item' && change.phase === 'held' && change.deadline > ctx.now() && (latest === null || change.seq > latest.change.seq)) latest = { orderId: id, change };
        }
      }
      if (!latest) return false;
      const { orderId: id, change } = latest;
      setChanges(id, changesOf(id).filter((c) => c.seq !== change.seq));
      set({ selectedId: id });
      return true;
    },

    flush() {
      for (const [orderId, changes] of Object.entries(get().pending)) {
        if (changes.some((c) => c.phase === 'queued')) process(orderId);
      }
    },

    reconcile(order) {
      const changes = changesOf(order.id);
      const moves = movesOf(changes);
      if (moves.length === 0) return 'none';
      const own = moves.findIndex((m) => m.phase !== 'held' && m.target === order.status);
      if (own >= 0) {
        const done = new Set(moves.slice(0, own + 1).map((m) => m.seq));
        setChanges(order.id, changes.filter((c) => !done.has(c.seq)));
        return 'own';
      }
      const heldHere = moves.some((m) => m.phase === 'held');
      // What waits for the engine stays: the engine decides, and a refusal shows on the card.
      setChanges(order.id, changes.filter((c) => c.kind !== 'move' || c.phase === 'sending' || c.phase === 'queued'));
      return heldHere ? 'dropped-held' : 'none';
    },

    recall(orderId) {
      if (!ctx.api.recallOrder) return;
      ctx.api.recallOrder({ order_id: orderId }).then(
        () => get().heard(),
        (error: unknown) => {
          const reached = error instanceof ScreenCallError && !RETRY_CODES.has(error.code);
          if (reached) get().heard();
          else get().lostEngine();
          get().addToast({ kind: 'refused', orderId, number: get().tickets[orderId]?.order.number ?? '?', code: error instanceof ScreenCallError ? error.code : 'unreachable' });
        },
      );
    },

    reprint(orderId) {
      if (!ctx.api.reprintOrder) return;
      ctx.api.reprintOrder({ order_id: orderId }).then(
        () => get().heard(),
        (error: unknown) => {
          const reached = error instanceof ScreenCallError && !RETRY_CODES.has(error.code);
          if (reached) get().heard();
          else get().lostEngine();
          get().addToast({ kind: 'refused', orderId, number: get().tickets[orderId]?.order.number ?? '?', code: error instanceof ScreenCallError ? error.code : 'unreachable' });
        },
      );
    },

    retryPrinter(printerId) {
      if (!ctx.api.retryPrinter) return;
      ctx.api.retryPrinter({ printer_id: printerId }).then(
        () => get().heard(),
        (error: unknown) => {
          const reached = error instanceof ScreenCallError && !RETRY_CODES.has(error.code);
          if (reached) get().heard();
          else get().lostEngine();
        },
      );
    },

    settleItems(ticket) {
      const changes = changesOf(ticket.order.id);
      if (!changes.some((c) => c.kind !== 'move')) return;
      const kept = changes.filter((c) => !(c.kind !== 'move' && c.phase === 'sent' && reflects(ticket, c)));
      if (kept.length !== changes.length) setChanges(ticket.order.id, kept);
    },
  };
}

/** Pending changes kept in a Storage (localStorage), read back leniently: bad entries are skipped. */
export function storagePending(storage: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null, key = 'comanda.pending-changes.v1'): PendingStorage {
  return {
    read() {
      try {
        const parsed: unknown = JSON.parse(storage?.getItem(key) ?? '{}');
        if (!parsed || typeof parsed !== 'object') return {};
        const out: Record<string, PendingChange[]> = {};
        for (const [orderId, list] of Object.entries(parsed as Record<string, unknown>)) {
          if (!Array.isArray(list)) continue;
          const valid = list.filter(
            (c): c is PendingChange =>
              !!c &&
              typeof c === 'object' &&
              typeof c.key === 'string' &&
              typeof c.seq === 'number' &&
              (c.kind === 'move'
                ? typeof c.target === 'string'
                : c.kind === 'item'
                  ? typeof c.index === 'number' && typeof c.done === 'boolean'
                  : c.kind === 'start' && typeof c.index === 'number' && typeof c.started === 'boolean'),
          );
          if (valid.length > 0) out[orderId] = valid;
        }
        return out;
      } catch {
        return {};
      }
    },
    write(pending) {
      try {
        storage?.setItem(key, JSON.stringify(pending));
      } catch {
        // A full or private storage: the changes hold until the page reloads.
      }
    },
  };
}
