// The board's re-read of its snapshot (the 5-minute one, a reconnect after the hub rebooted) is one
// change to the board's state: tickets that come back unchanged keep their identity (their cards do
// not draw again), what changed is pointed out as from the feed. It was a copy of the tickets map and
// a notice to every reader per ticket: O(n²), the long task of issue 33's throttled Informes replay.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import type { BoardSnapshot, KitchenOrder, KitchenTicket } from '../../../src/shared/screen-contract/kitchen.ts';
import { createBoardState, shownTickets, type BoardState, type BoardStateApi } from '../../../src/renderer/src/state/board-state.ts';
import { FakeClock, order, ticket } from './fakes.ts';

/** The snapshot as the wire brings it: new objects every time, whatever the engine holds. */
function snapshotOf(tickets: KitchenTicket[], now: number): BoardSnapshot {
  return structuredClone({
    restaurant: { id: 'r1', name: 'R', time_zone: 'America/Santiago' },
    locations: [{ location_id: 'loc-1', name: 'Centro', is_active: true }],
    stations: [],
    allergy_words: [],
    tickets,
    day_start: Date.parse('2026-11-21T00:00:00-03:00'),
    now,
    cursor: 10,
  });
}

function kitchenWith(count: number) {
  const clock = new FakeClock();
  const statuses = ['recibido', 'en_preparacion', 'listo'] as const;
  const held: KitchenTicket[] = Array.from({ length: count }, (_, i) =>
    ticket(order({ status: statuses[i % 3], items: [{ name: 'Completo italiano', quantity: 2, notes: i % 5 === 0 ? 'sin mayo' : null, modifiers: [] }, { name: 'Bebida', quantity: 1, notes: null, modifiers: [] }] })),
  );
  /** A snapshot read off the wire ahead (the cost measured is the board's, not the copy's). */
  const ready: { next: BoardSnapshot | null } = { next: null };
  const board = createBoardState({
    ...clock.deps,
    api: {
      boardSnapshot: async () => {
        const next = ready.next ?? snapshotOf(held, clock.now);
        ready.next = null;
        return next;
      },
      transitionOrder: () => Promise.reject(new Error('unused')),
    },
  });
  return { clock, held, board, ready };
}

/** Readers as the board has them: each card its own slice of the state, and the lanes every ticket. */
function readLikeTheBoard(board: BoardStateApi) {
  const seen = { notices: 0, ticketMaps: new Set<BoardState['tickets']>() };
  board.subscribe((state) => {
    seen.notices++;
    seen.ticketMaps.add(state.tickets);
  });
  for (const id of Object.keys(board.getState().tickets)) {
    let last = board.getState().tickets[id];
    board.subscribe((state) => {
      const now = state.tickets[id];
      if (now !== last) last = now;
    });
  }
  board.subscribe((state) => void shownTickets(state));
  return seen;
}

const changedElsewhere = (o: KitchenOrder): KitchenOrder => ({ ...o, status: 'listo', updated_at: new Date(Date.parse(o.updated_at) + 60_000).toISOString() });

describe('the board re-reads its snapshot', () => {
  test('a re-read of 360 tickets is one notice: unchanged tickets keep their identity, a changed one flashes, a new one rings', async () => {
    const { held, board } = kitchenWith(360);
    await board.getState().load();
    const before = board.getState().tickets;
    const seen = readLikeTheBoard(board);
    // Meanwhile, unseen by the feed: one order moved at another screen, one came in.
    const moved = held[1]!;
    held[1] = { ...moved, order: changedElsewhere(moved.order) };
    const fresh = ticket(order());
    held.push(fresh);

    await board.getState().load();

    assert.equal(seen.notices, 1, 'one notice for the whole re-read');
    assert.equal(seen.ticketMaps.size, 1, 'one new tickets map');
    const after = board.getState().tickets;
    assert.equal(Object.keys(after).length, 361);
    const kept = held.filter((t) => t !== held[1] && t !== fresh).filter((t) => after[t.order.id] === before[t.order.id]);
    assert.equal(kept.length, 359, 'every unchanged ticket is the same object as before');
    assert.notEqual(after[moved.order.id], before[moved.order.id]);
    assert.equal(after[moved.order.id]!.order.status, 'listo');
    assert.equal(board.getState().flashes[moved.order.id]?.kind, 'changed');
    assert.equal(board.getState().ringing[fresh.order.id], true);
    assert.equal(board.getState().ringing[held[0]!.order.id], undefined, 'what the board knew does not ring again');
  });

  test('a ticket whose kitchen data alone changed (a line struck at another screen) is taken in quietly', async () => {
    const { held, board } = kitchenWith(3);
    await board.getState().load();
    const struck = held[0]!;
    held[0] = { ...struck, kitchen: { ...struck.kitchen, items: struck.kitchen.items.map((item, i) => (i === 0 ? { ...item, done: true } : item)) } };
    await board.getState().load();
    assert.equal(board.getState().tickets[struck.order.id]!.kitchen.items[0]!.done, true);
    assert.equal(board.getState().flashes[struck.order.id], undefined);
  });

  test('a ticket gone from the snapshot (finished, another day) leaves the board', async () => {
    const { held, board } = kitchenWith(3);
    await board.getState().load();
    const gone = held.pop()!;
    await board.getState().load();
    assert.equal(board.getState().tickets[gone.order.id], undefined);
  });

  test('what a re-read of 45 and of 360 tickets costs (said, not bounded: the diagnostics, snapshot already parsed)', async (t) => {
    for (const count of [45, 360]) {
      const { board, held, clock, ready } = kitchenWith(count);
      await board.getState().load();
      const seen = readLikeTheBoard(board);
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        ready.next = snapshotOf(held, clock.now);
        const started = performance.now();
        await board.getState().load();
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      t.diagnostic(`re-read of ${count} tickets: median ${times[3]!.toFixed(2)} ms (min ${times[0]!.toFixed(2)}, max ${times[6]!.toFixed(2)}), ${seen.notices / 7} notices each, ${count + 2} readers`);
      assert.ok(seen.notices > 0);
    }
  });
});
