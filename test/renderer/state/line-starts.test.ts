// The board's per-line start (issue 32), as state: the first tap on a line of a cooking ticket starts
// it, held for the undo window like a bump; the next tap bumps it (the start, if still held, sent
// first); a double touch is one tap; the undo tray takes a start back before it is sent; a line
// started elsewhere (the feed's word) is bumped by the first tap here.
import { test, describe, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { BoardSnapshot, KitchenOrder, KitchenTicket, LivePush } from '../../../src/shared/screen-contract/kitchen.ts';
import { ScreenCallError } from '../../../src/renderer/src/api.ts';
import { createBoardState, HOLD_MS, type BoardStateApi } from '../../../src/renderer/src/state/board-state.ts';
import { itemDone, itemStarted, storagePending, TAP_GUARD_MS } from '../../../src/renderer/src/state/board/pending-slice.ts';
import { FakeClock, order, settle, ticket } from './fakes.ts';

type Call = { kind: 'start'; index: number; started: boolean } | { kind: 'done'; index: number; done: boolean };

const lines = [
  { name: 'Churrasco', quantity: 1, notes: null, modifiers: [] },
  { name: 'Empanada de queso', quantity: 2, notes: null, modifiers: [] },
];

describe('a line started at its station (board state)', () => {
  let clock: FakeClock;
  let calls: Call[];
  let refuse: string | null;
  let kept: Map<string, string>;
  let board: BoardStateApi;
  let tickets: KitchenTicket[];
  let seq: number;

  const storage = () => ({ getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v) });
  const make = (status: KitchenOrder['status'] = 'recibido') => ticket(order({ status, items: lines }));
  const snapshot = (now: number): BoardSnapshot => ({
    restaurant: { id: 'r1', name: 'R', time_zone: 'America/Santiago' },
    locations: [{ location_id: 'loc-1', name: 'Centro', is_active: true }],
    stations: [],
    allergy_words: [],
    tickets,
    day_start: Date.parse('2026-11-21T00:00:00-03:00'),
    now,
    cursor: 10,
  });
  const build = async () => {
    const answer = async (request: { order_id: string }) => {
      if (refuse) throw new ScreenCallError({ code: refuse, message: 'no' });
      return board.getState().tickets[request.order_id]!;
    };
    board = createBoardState({
      ...clock.deps,
      pendingStorage: storagePending(storage()),
      api: {
        boardSnapshot: async () => snapshot(clock.now),
        transitionOrder: () => Promise.reject(new Error('unused')),
        setItemStarted: ({ item_index, started, ...request }) => {
          calls.push({ kind: 'start', index: item_index, started });
          return answer(request);
        },
        setItemDone: ({ item_index, done, ...request }) => {
          calls.push({ kind: 'done', index: item_index, done });
          return answer(request);
        },
      },
    });
    await board.getState().load();
  };
  const item = (id: string, index: number) => {
    const line = board.getState().tickets[id]!.kitchen.items[index]!;
    const changes = board.getState().pending[id];
    return { started: itemStarted(changes, line), done: itemDone(changes, index, line.done) };
  };
  /** The feed brings the ticket with its lines as the engine now has them. */
  const feed = (t: KitchenTicket, marks: { index: number; started?: boolean; done?: boolean }[]) => {
    const kitchen = { ...t.kitchen, items: t.kitchen.items.map((i) => ({ ...i, ...marks.find((m) => m.index === i.index) })) };
    const push: LivePush = { kind: 'events', now: clock.now, events: [{ type: 'kitchen.item', order: t.order, kitchen, seq: ++seq, at: clock.now }] };
    board.getState().receive(push);
  };

  beforeEach(async () => {
    clock = new FakeClock();
    calls = [];
    refuse = null;
    kept = new Map();
    seq = 10;
    tickets = [make(), make('en_preparacion'), make('listo')];
    await build();
  });

  test('the first tap starts the line at once on the screen, held for the undo window, then sent; the feed settles it', async () => {
    const id = tickets[0]!.order.id;
    board.getState().tapItem(id, 0, 1000);
    assert.deepEqual(item(id, 0), { started: true, done: false });
    assert.deepEqual(item(id, 1), { started: false, done: false });
    await clock.advance(HOLD_MS - 1);
    assert.deepEqual(calls, [], 'held for the undo window');
    await clock.advance(1);
    assert.deepEqual(calls, [{ kind: 'start', index: 0, started: true }]);
    await settle();
    assert.equal(board.getState().pending[id]![0]!.phase, 'sent');
    feed(tickets[0]!, [{ index: 0, started: true }]);
    assert.equal(board.getState().pending[id], undefined, 'the feed shows it: nothing pending');
    assert.deepEqual(item(id, 0), { started: true, done: false });
  });

  test('the feed may bring the start back before the answer: nothing stays pending either way', async () => {
    const id = tickets[0]!.order.id;
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    // The engine's answer waits until the feed has shown the start.
    const slow = createBoardState({
      ...clock.deps,
      api: {
        boardSnapshot: async () => snapshot(clock.now),
        transitionOrder: () => Promise.reject(new Error('unused')),
        setItemDone: () => Promise.reject(new Error('unused')),
        setItemStarted: async () => {
          await answered;
          return tickets[0]!;
        },
      },
    });
    await slow.getState().load();
    board = slow;
    board.getState().tapItem(id, 0, 1000);
    await clock.advance(HOLD_MS);
    feed(tickets[0]!, [{ index: 0, started: true }]);
    assert.equal(board.getState().pending[id]![0]!.phase, 'sending');
    answer();
    await settle();
    assert.equal(board.getState().pending[id], undefined);
  });

  test('the second tap bumps it: the start still held is sent first, then the done mark', async () => {
    const id = tickets[1]!.order.id;
    board.getState().tapItem(id, 1, 1000);
    await clock.advance(TAP_GUARD_MS + 100);
    board.getState().tapItem(id, 1, 1000 + TAP_GUARD_MS + 100);
    assert.deepEqual(item(id, 1), { started: false, done: true });
    await settle();
    await settle();
    assert.deepEqual(calls, [{ kind: 'start', index: 1, started: true }, { kind: 'done', index: 1, done: true }]);
    // A third tap takes the bump back, as before: the line is started again (the engine kept its start).
    await clock.advance(TAP_GUARD_MS + 100);
    feed(tickets[1]!, [{ index: 1, done: true }]);
    board.getState().tapItem(id, 1, 1000 + 2 * (TAP_GUARD_MS + 100));
    await settle();
    assert.deepEqual(calls.at(-1), { kind: 'done', index: 1, done: false });
  });

  test('a double touch within the guard only starts the line', async () => {
    const id = tickets[0]!.order.id;
    board.getState().tapItem(id, 0, 5000);
    await clock.advance(150);
    board.getState().tapItem(id, 0, 5150);
    assert.deepEqual(item(id, 0), { started: true, done: false });
    assert.equal(board.getState().pending[id]!.length, 1);
    await clock.advance(HOLD_MS);
    assert.deepEqual(calls, [{ kind: 'start', index: 0, started: true }]);
  });

  test('undo takes back a held start: nothing is sent, the line is not started', async () => {
    const id = tickets[0]!.order.id;
    board.getState().tapItem(id, 0, 1000);
    assert.equal(board.getState().undo(id, 1000 + TAP_GUARD_MS * 2), true);
    assert.deepEqual(item(id, 0), { started: false, done: false });
    assert.equal(board.getState().undo(), false, 'nothing more to take back');
    await clock.advance(HOLD_MS * 2);
    assert.deepEqual(calls, []);
    // Once sent, the undo tray has nothing of it: the next tap is its bump.
    board.getState().tapItem(id, 0, 20_000);
    await clock.advance(HOLD_MS);
    assert.equal(board.getState().undo(id, 40_000), false);
    assert.deepEqual(calls, [{ kind: 'start', index: 0, started: true }]);
  });

  test('a line started on another screen shows started; the first tap here bumps it', async () => {
    const id = tickets[0]!.order.id;
    feed(tickets[0]!, [{ index: 1, started: true }]);
    assert.deepEqual(item(id, 1), { started: true, done: false });
    board.getState().tapItem(id, 1, 1000);
    assert.deepEqual(item(id, 1), { started: false, done: true });
    await settle();
    assert.deepEqual(calls, [{ kind: 'done', index: 1, done: true }]);
  });

  test('a line of a ticket that is ready is struck at once, not started', async () => {
    const id = tickets[2]!.order.id;
    board.getState().tapItem(id, 0, 1000);
    assert.deepEqual(item(id, 0), { started: false, done: true });
    await settle();
    assert.deepEqual(calls, [{ kind: 'done', index: 0, done: true }]);
  });

  test('a refused start goes back on the card with the engine\'s code', async () => {
    const id = tickets[0]!.order.id;
    refuse = 'ticket_finished';
    board.getState().tapItem(id, 0, 1000);
    await clock.advance(HOLD_MS);
    await settle();
    assert.deepEqual(item(id, 0), { started: false, done: false });
    assert.equal(board.getState().flashes[id]?.code, 'ticket_finished');
  });

  test('a start waiting for the engine survives a reload and is sent once it is back', async () => {
    const id = tickets[0]!.order.id;
    board.getState().tapItem(id, 0, 1000);
    assert.match(kept.get('comanda.pending-changes.v1') ?? '', /"kind":"start"/);
    await build();
    assert.deepEqual(item(id, 0), { started: true, done: false }, 'read back after the reload');
    board.getState().flush();
    await settle();
    assert.deepEqual(calls, [{ kind: 'start', index: 0, started: true }]);
  });
});
