import { test, describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { BoardSnapshot, KitchenOrder, KitchenTicket, LivePush } from '../../../src/shared/screen-contract/kitchen.ts';
import type { PatchTarget } from '../../../src/shared/order-states.ts';
import { ScreenCallError } from '../../../src/renderer/src/api.ts';
import { createBoardState, HOLD_MS, isStale, shownTickets, STALE_AFTER_MS, type BoardStateApi, type PendingChange } from '../../../src/renderer/src/state/board-state.ts';
import { RATE_LIMITED_RETRY_MS, storagePending, TAP_GUARD_MS } from '../../../src/renderer/src/state/board/pending-slice.ts';
import { allDayCounts, lateKey, layoutBoard, PROMISE_DUE_MS, promiseStanding, todayStats, timerLevel } from '../../../src/renderer/src/board-logic.ts';
import { deferred, FakeClock, kitchenOf, order, settle, ticket } from './fakes.ts';

function snapshot(tickets: KitchenTicket[], now: number, cursor = 10): BoardSnapshot {
  return {
    restaurant: { id: 'r1', name: 'R', time_zone: 'America/Santiago' },
    locations: [{ location_id: 'loc-1', name: 'Centro', is_active: true }, { location_id: 'loc-2', name: 'Norte', is_active: true }],
    stations: [],
    allergy_words: [],
    tickets,
    day_start: Date.parse('2026-11-21T00:00:00-03:00'),
    now,
    cursor,
  };
}

describe('board board', () => {
  let clock: FakeClock;
  let calls: { order_id: string; target: PatchTarget }[];
  let keys: (string | undefined)[];
  let answers: ((request: { order_id: string; target: PatchTarget }) => Promise<KitchenTicket>) | null;
  let kept: Map<string, string>;
  const storage = () => ({ getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v) });
  let board: BoardStateApi;
  let initial: KitchenTicket[];
  let seq: number;

  const updated = (o: KitchenOrder, status: KitchenOrder['status'], minutes = 1): KitchenOrder => ({
    ...o,
    status,
    updated_at: new Date(Date.parse(o.updated_at) + minutes * 60_000).toISOString(),
  });
  const push = (events: { type: 'order.created' | 'order.updated'; order: KitchenOrder }[]): LivePush => ({
    kind: 'events',
    now: clock.now,
    events: events.map((e) => ({ ...e, kitchen: kitchenOf(e.order), seq: ++seq, at: clock.now })),
  });
  const shown = (id: string) => shownTickets(board.getState()).find((t) => t.order.id === id)?.shownStatus;

  beforeEach(async () => {
    clock = new FakeClock();
    calls = [];
    keys = [];
    kept = new Map();
    seq = 10;
    answers = null;
    initial = [ticket(order()), ticket(order({ type: 'delivery' })), ticket(order({ test: true, status: 'en_preparacion' }))];
    board = createBoardState({
      ...clock.deps,
      pendingStorage: storagePending(storage()),
      api: {
        boardSnapshot: async () => snapshot(initial, clock.now + 5000),
        transitionOrder: ({ change_id, ...request }) => {
          calls.push(request);
          keys.push(change_id);
          if (answers) return answers(request);
          const known = board.getState().tickets[request.order_id]!;
          return Promise.resolve({ ...known, order: updated(known.order, request.target) });
        },
      },
    });
    await board.getState().load();
  });

  test('loads the snapshot, with the engine clock offset', () => {
    const state = board.getState();
    assert.equal(state.loaded, true);
    assert.equal(Object.keys(state.tickets).length, 3);
    assert.equal(state.clockOffset, 5000);
    assert.equal(state.cursor, 10);
  });

  test("the clock offset follows the engine, not each push's delivery delay", () => {
    const status = { mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null } as const;
    // 40 ms late (a push in transit): the timers keep the offset they have.
    board.getState().receive({ kind: 'heartbeat', now: clock.now + 5000 - 40, status });
    assert.equal(board.getState().clockOffset, 5000);
    // The engine's clock moved by two seconds: the offset follows.
    board.getState().receive({ kind: 'heartbeat', now: clock.now + 7000, status });
    assert.equal(board.getState().clockOffset, 7000);
  });

  test('a heartbeat that says the disk is low is kept for the status strip until one says nothing of it', () => {
    const status = { mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null } as const;
    assert.equal(board.getState().lowDisk, null);
    board.getState().receive({ kind: 'heartbeat', now: clock.now + 7000, status, low_disk: { free_bytes: 180 * 1024 * 1024 } });
    assert.deepEqual(board.getState().lowDisk, { free_bytes: 180 * 1024 * 1024 });
    board.getState().receive({ kind: 'heartbeat', now: clock.now + 7000, status });
    assert.equal(board.getState().lowDisk, null);
  });

  test('a bump shows at once, is held for the undo window, then sent', async () => {
    const id = initial[0]!.order.id;
    board.getState().bump(id);
    assert.equal(shown(id), 'en_preparacion');
    assert.equal(board.getState().pending[id]![0]!.phase, 'held');
    await clock.advance(HOLD_MS - 1);
    assert.deepEqual(calls, []);
    await clock.advance(1);
    assert.deepEqual(calls, [{ order_id: id, target: 'en_preparacion' }]);
    await settle();
    // The reply only acknowledges: the ticket changes when the feed brings the order back.
    assert.equal(board.getState().tickets[id]!.order.status, 'recibido');
    assert.equal(board.getState().pending[id]![0]!.phase, 'sent');
    assert.equal(shown(id), 'en_preparacion');
    board.getState().receive(push([{ type: 'order.updated', order: updated(initial[0]!.order, 'en_preparacion') }]));
    assert.equal(board.getState().tickets[id]!.order.status, 'en_preparacion');
    assert.equal(board.getState().pending[id], undefined);
    assert.equal(board.getState().flashes[id], undefined);
  });

  test('the feed may bring the change back before the reply: the move is settled either way', async () => {
    const id = initial[0]!.order.id;
    const reply = deferred<KitchenTicket>();
    answers = () => reply.promise;
    board.getState().bump(id);
    await clock.advance(HOLD_MS);
    board.getState().receive(push([{ type: 'order.updated', order: updated(initial[0]!.order, 'en_preparacion') }]));
    assert.equal(board.getState().pending[id], undefined);
    reply.resolve({ ...initial[0]!, order: updated(initial[0]!.order, 'en_preparacion') });
    await settle();
    assert.equal(board.getState().pending[id], undefined);
    assert.equal(shown(id), 'en_preparacion');
    assert.equal(board.getState().flashes[id], undefined);
  });

  test('an engine out of reach: the tap is kept, waits on its card, survives a reload and is sent once with its key when the engine answers', async () => {
    const id = initial[0]!.order.id;
    answers = () => Promise.reject(new TypeError('Failed to fetch'));
    board.getState().bump(id);
    await clock.advance(HOLD_MS);
    await settle();
    // Kept, still shown where the cook put it, waiting; no "did not move" toast.
    assert.equal(shown(id), 'en_preparacion');
    assert.equal(board.getState().pending[id]![0]!.phase, 'queued');
    assert.equal(board.getState().toasts.length, 0);
    assert.equal(board.getState().engineLost, true);
    // An answer to some other call is not a heartbeat: the board stays stale until one comes (the
    // answer does say the engine is reachable: the change is tried again, and fails again here).
    await clock.advance(STALE_AFTER_MS + 1);
    board.getState().heard();
    assert.equal(isStale(board.getState(), clock.now), true);
    await settle();
    assert.equal(calls.length, 2);
    // The screen reloads: the change is read back from the screen's storage, still waiting.
    const reloaded = createBoardState({
      ...clock.deps,
      pendingStorage: storagePending(storage()),
      api: {
        boardSnapshot: async () => snapshot(initial, clock.now),
        transitionOrder: ({ change_id, ...request }) => {
          calls.push(request);
          keys.push(change_id);
          return Promise.resolve({ ...initial[0]!, order: updated(initial[0]!.order, request.target) });
        },
      },
    });
    assert.equal((reloaded.getState().pending[id] as PendingChange[])[0]!.phase, 'queued');
    // The engine answers (the snapshot): the change goes, with the same key as the first try.
    await reloaded.getState().load();
    await settle();
    assert.deepEqual(calls, Array(3).fill({ order_id: id, target: 'en_preparacion' }));
    assert.equal(new Set(keys).size, 1);
    assert.match(keys[0]!, /^[0-9a-f]{32}$/);
    assert.equal(reloaded.getState().pending[id]![0]!.phase, 'sent');
  });

  test('"too many changes" (rate_limited): the change waits a pause, not every heartbeat, and the engine is not called lost', async () => {
    const id = initial[0]!.order.id;
    answers = () => Promise.reject(new ScreenCallError({ code: 'rate_limited', message: 'too many changes from this screen' }));
    board.getState().bump(id);
    await clock.advance(HOLD_MS);
    await settle();
    assert.equal(calls.length, 1);
    assert.equal(board.getState().engineLost, false);
    // Heartbeats come (each flushes what waits): nothing is sent again before the pause is over.
    for (let i = 0; i < 3; i++) {
      board.getState().receive({ kind: 'heartbeat', now: clock.now, status: { mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null } });
      await clock.advance(RATE_LIMITED_RETRY_MS / 4);
      await settle();
    }
    assert.equal(calls.length, 1);
    answers = null;
    await clock.advance(RATE_LIMITED_RETRY_MS);
    await settle();
    assert.equal(calls.length, 2);
    assert.equal(board.getState().pending[id]![0]!.phase, 'sent');
  });

  test('a queued change the engine refuses once it is back shows as a refusal on its card', async () => {
    const id = initial[0]!.order.id;
    answers = () => Promise.reject(new TypeError('Failed to fetch'));
    board.getState().bump(id);
    await clock.advance(HOLD_MS);
    await settle();
    assert.equal(board.getState().pending[id]![0]!.phase, 'queued');
    answers = () => Promise.reject(new ScreenCallError({ code: 'illegal_transition', message: 'cancelled meanwhile' }));
    board.getState().receive({ kind: 'heartbeat', now: clock.now, status: { mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null } });
    await settle();
    assert.equal(board.getState().pending[id], undefined);
    assert.deepEqual(board.getState().flashes[id] && { kind: board.getState().flashes[id]!.kind, code: board.getState().flashes[id]!.code }, { kind: 'refused', code: 'illegal_transition' });
    assert.equal(shown(id), 'recibido');
  });

  test('touches compare their own timestamps: handled a second apart, touched 150 ms apart, one step; nothing else is touched by the second', async () => {
    const [a, b] = [initial[2]!.order.id, initial[0]!.order.id];
    const before = { a: shown(a), b: shown(b) };
    // The page was busy: the second touch is handled 1,056 ms after the first (the page's clock),
    // but the touches themselves were 150 ms apart (event.timeStamp).
    board.getState().bump(a, before.a, 10_000);
    await clock.advance(1056);
    board.getState().bump(a, shown(a), 10_150);
    assert.equal(board.getState().pending[a]!.filter((c) => c.kind === 'move').length, 1, 'one step');
    // Wherever the second touch lands: another ticket's bump, the undo tray, an item.
    board.getState().bump(b, before.b, 10_300);
    assert.equal(shown(b), before.b);
    assert.equal(board.getState().undo(a, 10_400), false);
    assert.equal(board.getState().pending[a]!.length, 1, 'the undo under the finger was not taken');
    // A touch after the guard is a new tap.
    board.getState().bump(b, before.b, 10_000 + TAP_GUARD_MS);
    assert.notEqual(shown(b), before.b);
    assert.equal(board.getState().undo(b, 10_000 + TAP_GUARD_MS * 3), true);
  });

  test('a double tap is one step; a tap meant for a state the screen no longer shows does nothing', async () => {
    const id = initial[1]!.order.id;
    board.getState().bump(id, 'recibido');
    await clock.advance(150);
    board.getState().bump(id, 'en_preparacion');
    assert.equal(shown(id), 'en_preparacion');
    assert.equal(board.getState().pending[id]!.length, 1);
    await clock.advance(TAP_GUARD_MS);
    // Drawn for 'recibido', but the screen already shows it in preparation: not two steps.
    board.getState().bump(id, 'recibido');
    assert.equal(shown(id), 'en_preparacion');
    // The same for an item: a second tap within the guard does not take the mark back.
    const itemsBoard = createBoardState({ ...clock.deps, api: { boardSnapshot: async () => snapshot(initial, clock.now), transitionOrder: () => Promise.reject(new Error('unused')), setItemDone: async () => initial[0]! } });
    await itemsBoard.getState().load();
    itemsBoard.getState().tapItem(initial[0]!.order.id, 0);
    await clock.advance(100);
    itemsBoard.getState().tapItem(initial[0]!.order.id, 0);
    assert.equal(itemsBoard.getState().pending[initial[0]!.order.id]!.filter((c) => c.kind === 'item').at(-1)!.kind === 'item' && (itemsBoard.getState().pending[initial[0]!.order.id]!.at(-1) as { done: boolean }).done, true);
  });

  test('undo (Esc) takes back the latest held bump and nothing is sent', async () => {
    const [a, b] = [initial[0]!.order.id, initial[1]!.order.id];
    board.getState().bump(a);
    await clock.advance(1000);
    board.getState().bump(b);
    assert.equal(board.getState().undo(), true);
    assert.equal(shown(b), 'recibido');
    assert.equal(shown(a), 'en_preparacion');
    assert.equal(board.getState().undo(), true);
    assert.equal(shown(a), 'recibido');
    assert.equal(board.getState().undo(), false);
    await clock.advance(HOLD_MS * 2);
    assert.deepEqual(calls, []);
  });

  test('a second tap confirms the first at once and holds the next step', async () => {
    const id = initial[1]!.order.id; // delivery: recibido → en_preparacion → listo → en_reparto → entregado
    board.getState().bump(id);
    await clock.advance(TAP_GUARD_MS);
    board.getState().bump(id);
    assert.equal(shown(id), 'listo');
    await settle();
    assert.deepEqual(calls.map((c) => c.target), ['en_preparacion']);
    await clock.advance(TAP_GUARD_MS);
    board.getState().bump(id);
    await settle();
    await clock.advance(TAP_GUARD_MS);
    board.getState().bump(id);
    assert.equal(shown(id), 'entregado');
    await settle();
    assert.deepEqual(calls.map((c) => c.target), ['en_preparacion', 'listo', 'en_reparto']);
    await clock.advance(HOLD_MS);
    assert.deepEqual(calls.map((c) => c.target), ['en_preparacion', 'listo', 'en_reparto', 'entregado']);
    assert.equal(shown(id), 'entregado');
  });

  test('a refusal rolls the card back and names the engine\'s code', async () => {
    const id = initial[0]!.order.id;
    answers = () => Promise.reject(new ScreenCallError({ code: 'illegal_transition', message: 'order 1 cannot go from cancelado to en_preparacion' }));
    board.getState().bump(id);
    await clock.advance(HOLD_MS);
    await settle();
    assert.equal(shown(id), 'recibido');
    const toast = board.getState().toasts.at(-1)!;
    assert.equal(toast.kind, 'refused');
    assert.equal(toast.kind === 'refused' && toast.code, 'illegal_transition');
    assert.equal(board.getState().engineLost, false);
    assert.equal(board.getState().flashes[id]?.kind, 'refused');
  });

  test('cancel is sent at once (the confirmation was the pause), after a move in flight', async () => {
    const id = initial[0]!.order.id;
    const first = deferred<KitchenTicket>();
    answers = (request) => (request.target === 'en_preparacion' ? first.promise : Promise.resolve({ ...initial[0]!, order: updated(initial[0]!.order, 'cancelado', 2) }));
    board.getState().bump(id);
    await clock.advance(TAP_GUARD_MS);
    board.getState().bump(id); // releases the first, holds 'listo'
    board.getState().cancel(id); // drops the held 'listo', queues the cancel behind the one in flight
    assert.equal(shown(id), 'cancelado');
    await settle();
    assert.deepEqual(calls.map((c) => c.target), ['en_preparacion']);
    first.resolve({ ...initial[0]!, order: updated(initial[0]!.order, 'en_preparacion') });
    await settle();
    await settle();
    assert.deepEqual(calls.map((c) => c.target), ['en_preparacion', 'cancelado']);
    assert.equal(shown(id), 'cancelado');
  });

  test('a new order rings until touched; a paid online order coming in rings too', () => {
    const fresh = order();
    board.getState().receive(push([{ type: 'order.created', order: fresh }]));
    assert.equal(board.getState().ringing[fresh.id], true);
    board.getState().touch(fresh.id);
    assert.equal(board.getState().ringing[fresh.id], undefined);
    assert.equal(board.getState().selectedId, fresh.id);

    const online = order({ status: 'pendiente_pago' });
    board.getState().receive(push([{ type: 'order.created', order: online }]));
    assert.equal(board.getState().ringing[online.id], undefined);
    board.getState().receive(push([{ type: 'order.updated', order: updated(online, 'recibido') }]));
    assert.equal(board.getState().ringing[online.id], true);
  });

  test('own changes come back quietly; a change made elsewhere flashes and drops what was held on it', async () => {
    const [a, b] = [initial[0]!.order, initial[1]!.order];
    board.getState().bump(a.id);
    await clock.advance(HOLD_MS);
    board.getState().receive(push([{ type: 'order.updated', order: updated(a, 'en_preparacion') }]));
    assert.equal(board.getState().flashes[a.id], undefined);

    board.getState().bump(b.id);
    board.getState().receive(push([{ type: 'order.updated', order: updated(b, 'cancelado') }]));
    assert.equal(board.getState().pending[b.id], undefined);
    assert.equal(board.getState().flashes[b.id]?.kind, 'cancelled');
    // Dead, but still where the cook was looking (where the held bump had put it), until the flash ends.
    assert.equal(shown(b.id), 'en_preparacion');
    await clock.advance(10_000);
    assert.equal(shown(b.id), 'cancelado');
    assert.deepEqual(calls, [{ order_id: a.id, target: 'en_preparacion' }]);
  });

  test('events already in the snapshot are ignored; pushes during a load wait for it', async () => {
    const before = board.getState().tickets;
    board.getState().receive({ kind: 'events', now: clock.now, events: [{ seq: 5, type: 'order.created', at: clock.now, order: order(), kitchen: kitchenOf(order()) }] });
    assert.equal(board.getState().tickets, before);
    const slow = deferred<BoardSnapshot>();
    const lateBoard = createBoardState({ ...clock.deps, api: { boardSnapshot: () => slow.promise, transitionOrder: () => Promise.reject(new Error('unused')) } });
    const loading = lateBoard.getState().load();
    const early = order();
    lateBoard.getState().receive({ kind: 'events', now: clock.now, events: [{ seq: 11, type: 'order.created', at: clock.now, order: early, kitchen: kitchenOf(early) }] });
    slow.resolve(snapshot([], clock.now, 10));
    await loading;
    assert.ok(lateBoard.getState().tickets[early.id]);
  });

  test('silence for a few seconds makes the board stale; the next word reloads it', async () => {
    assert.equal(isStale(board.getState(), clock.now), false);
    await clock.advance(STALE_AFTER_MS + 1);
    assert.equal(isStale(board.getState(), clock.now), true);
    let loads = 0;
    const reloading = createBoardState({
      ...clock.deps,
      api: { boardSnapshot: async () => (loads++, snapshot([], clock.now)), transitionOrder: () => Promise.reject(new Error('unused')) },
    });
    await reloading.getState().load();
    await clock.advance(STALE_AFTER_MS + 1);
    reloading.getState().receive({ kind: 'heartbeat', now: clock.now, status: { mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null } });
    await settle();
    assert.equal(loads, 2);
    assert.equal(isStale(reloading.getState(), clock.now), false);
  });

  test('a new order a re-read brings in rings, as one from the feed does', async () => {
    // The race board.e2e lost on a busy machine: a late heartbeat starts a re-read, the order is
    // placed before the engine reads it, and its event, arriving during the read, waits for it.
    const fresh = order();
    let reads = 0;
    const rereading = createBoardState({
      ...clock.deps,
      api: { boardSnapshot: async () => (reads++ === 0 ? snapshot(initial, clock.now) : snapshot([...initial, ticket(fresh)], clock.now, 11)), transitionOrder: () => Promise.reject(new Error('unused')) },
    });
    await rereading.getState().load();
    await clock.advance(STALE_AFTER_MS + 1);
    rereading.getState().receive({ kind: 'heartbeat', now: clock.now, status: { mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null } });
    rereading.getState().receive({ kind: 'events', now: clock.now, events: [{ seq: 11, type: 'order.created', at: clock.now, order: fresh, kitchen: kitchenOf(fresh) }] });
    await settle();
    assert.equal(reads, 2);
    assert.ok(rereading.getState().tickets[fresh.id]);
    assert.equal(rereading.getState().ringing[fresh.id], true);
    // What the board knew already comes back from the re-read as it was: nothing rings or flashes.
    for (const known of initial) {
      assert.equal(rereading.getState().ringing[known.order.id], undefined);
      assert.equal(rereading.getState().flashes[known.order.id], undefined);
    }
  });

  test('arrows walk the columns, Enter bumps the selection', () => {
    const state = board.getState();
    state.moveSelection('right');
    const first = board.getState().selectedId;
    assert.ok(first === initial[0]!.order.id || first === initial[1]!.order.id);
    board.getState().moveSelection('down');
    board.getState().moveSelection('right');
    assert.equal(board.getState().selectedId, initial[2]!.order.id);
    board.getState().moveSelection('left');
    board.getState().bumpSelected();
    const selected = board.getState().selectedId!;
    assert.equal(shown(selected), 'en_preparacion');
  });
});

describe('board rules', () => {
  const now = Date.parse('2026-11-21T20:00:00-03:00');
  const t = (o: KitchenOrder, shownStatus = o.status, since = Date.parse(o.created_at), ready: number | null = null) => ({ order: o, kitchen: kitchenOf(o), kitchen_since: since, ready_at: ready, shownStatus });

  test('columns, side lists, recall and the location filter', () => {
    const tickets = [
      t(order({ status: 'recibido' })),
      t(order({ status: 'en_reparto', location_id: 'loc-2' })),
      t(order({ status: 'programado', scheduled_for: '2026-11-21T22:00:00-03:00' })),
      t(order({ status: 'pendiente_pago' })),
      t(order({ status: 'cancelado' })),
    ];
    const layout = layoutBoard(tickets, null);
    assert.equal(layout.columns.recibido.length, 1);
    assert.equal(layout.columns.en_reparto.length, 1);
    assert.equal(layout.scheduled.length, 1);
    assert.equal(layout.awaitingPayment.length, 1);
    assert.equal(layout.recall.length, 1);
    assert.equal(layoutBoard(tickets, 'loc-2').columns.recibido.length, 0);
  });

  test('a cooking ticket against its promise: on time, due within 5 minutes, late past it; "Atrasados" shows the late ones alone', () => {
    const promised = (o: KitchenOrder, at: number, shownStatus = o.status) => ({ ...t(o, shownStatus), kitchen: { ...kitchenOf(o), promised_ready_at: at } });
    const onTime = promised(order({ status: 'recibido' }), now + PROMISE_DUE_MS + 1);
    const due = promised(order({ status: 'en_preparacion' }), now + PROMISE_DUE_MS);
    const late = promised(order({ status: 'recibido' }), now - 1);
    const readyLate = promised(order({ status: 'listo' }), now - 60_000);
    const none = t(order({ status: 'recibido' }));
    assert.deepEqual([onTime, due, late, readyLate, none].map((x) => promiseStanding(x, now)), ['on_time', 'due', 'late', null, null], 'a ready ticket is no longer late; one without a promise is neither');
    const tickets = [onTime, due, late, readyLate, none];
    assert.equal(lateKey(tickets, now), late.order.id);
    assert.equal(lateKey(tickets, now + PROMISE_DUE_MS + 2).split(',').length, 3, 'time passes: the others become late too');
    const layout = layoutBoard(tickets, null, { lateOnly: new Set(lateKey(tickets, now).split(',')) });
    assert.deepEqual(layout.columns.recibido.map((x) => x.order.id), [late.order.id]);
    assert.deepEqual([layout.columns.en_preparacion.length, layout.columns.listo.length, layout.recall.length], [0, 0, 0]);
    assert.equal(layoutBoard(tickets, null, { lateOnly: null }).columns.recibido.length, 3, 'off: every ticket');
  });

  test('all-day counts what is still to cook in real orders', () => {
    const two = { name: 'Completo', quantity: 2, notes: null, modifiers: [] };
    const tickets = [
      t(order({ items: [two] })),
      t(order({ status: 'en_preparacion', items: [two, { ...two, name: 'Cazuela', quantity: 1 }] })),
      t(order({ status: 'listo', items: [two] })),
      t(order({ test: true, items: [two] })),
    ];
    assert.deepEqual(allDayCounts(tickets, null), [
      { name: 'Completo', quantity: 4 },
      { name: 'Cazuela', quantity: 1 },
    ]);
  });

  test('today: orders, average time to ready, late tickets by the threshold', () => {
    const thresholds = { warn_minutes: 10, late_minutes: 20 };
    const at = (minutesAgo: number) => now - minutesAgo * 60_000;
    const tickets = [
      t(order({ status: 'listo' }), 'listo', at(40), at(30)), // 10 min
      t(order({ status: 'entregado' }), 'entregado', at(60), at(35)), // 25 min: late
      t(order({ status: 'en_preparacion' }), 'en_preparacion', at(21)), // cooking for 21 min: late
      t(order({ test: true })),
    ];
    const stats = todayStats(tickets, Date.parse('2026-11-21T00:00:00-03:00'), now, thresholds, null);
    assert.deepEqual(stats, { orders: 3, testOrders: 1, averageToReadyMs: 17.5 * 60_000, late: 2 });
    assert.equal(timerLevel(9 * 60_000, thresholds), 'ok');
    assert.equal(timerLevel(10 * 60_000, thresholds), 'warn');
    assert.equal(timerLevel(20 * 60_000, thresholds), 'late');
  });
});
