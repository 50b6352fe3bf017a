// The rush strip's orders in progress: counted at each past slot's end, at `now` in the slot that
// holds it, and unknown (null) for slots not begun — a "Hoy" report at 13:20 drew 12 orders in
// progress until 23:45.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RUSH_SLOT_MS, rushStrip } from '../../../../src/engine/domain/kitchen-report/rush-strip.ts';
import type { Ticket } from '../../../../src/engine/domain/kitchen-report/tickets.ts';

const MINUTE = 60_000;
const noon = Date.UTC(2026, 10, 28, 15, 0);

function ticket(id: string, firedMin: number, readyMin: number | null): Ticket {
  const fired_at = noon + firedMin * MINUTE;
  const ready_at = readyMin === null ? null : noon + readyMin * MINUTE;
  return { order_id: id, channel: 'web', fired_at, ready_at, seconds: ready_at === null ? null : (ready_at - fired_at) / 1000, cancelled_at: null, stations: new Map(), lines: 1, excluded: null };
}

const boundaries = Array.from({ length: 9 }, (_, i) => noon + i * RUSH_SLOT_MS); // 12:00 … 14:00, 8 slots

test('orders in progress: at the end of past slots, at now in the current one, null after it', () => {
  const tickets = [ticket('a', 5, 20), ticket('b', 10, null), ticket('c', 50, null), ticket('d', 52, 55)];
  const now = noon + 53 * MINUTE; // inside the fourth slot (12:45–13:00)
  const strip = rushStrip(tickets, boundaries, now);
  assert.deepEqual(strip.map((s) => s.in_progress), [2, 1, 1, 3, null, null, null, null]);
  assert.deepEqual(strip.map((s) => s.finished), [0, 1, 0, 1, 0, 0, 0, 0]);
});

test('a past day: every slot counted at its end', () => {
  const tickets = [ticket('a', 5, 20), ticket('b', 10, 100)];
  const strip = rushStrip(tickets, boundaries, noon + 24 * 60 * MINUTE);
  assert.deepEqual(strip.map((s) => s.in_progress), [2, 1, 1, 1, 1, 1, 0, 0]);
});
