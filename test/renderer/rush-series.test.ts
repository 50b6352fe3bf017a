// The rush strip as drawn (issue 33): orders in progress stand at the instants they were counted
// (each slot's end, and now in the open slot), not at a slot's start. A new user's "Hoy" with five
// orders arrived in the last ten minutes showed a vertical spike at the open slot: its count, taken
// now, drawn at the slot's start, beside the count of the slot before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RUSH_SLOT_MS, rushStrip } from '../../src/engine/domain/kitchen-report/rush-strip.ts';
import type { Ticket } from '../../src/engine/domain/kitchen-report/tickets.ts';
import { hasRush, rushSeries } from '../../src/renderer/src/reports/rush-series.ts';

const MINUTE = 60_000;
const dayStart = Date.UTC(2026, 10, 29, 3, 0); // 00:00 in Santiago (UTC−3)
const boundaries = Array.from({ length: 24 * 4 + 1 }, (_, i) => dayStart + i * RUSH_SLOT_MS);
const clock = (h: number, m: number) => dayStart + (h * 60 + m) * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();

function ticket(id: string, fired: number, ready: number | null, cancelled: number | null = null): Ticket {
  return { order_id: id, channel: 'web', fired_at: fired, ready_at: ready, seconds: ready === null ? null : (ready - fired) / 1000, cancelled_at: cancelled, stations: new Map(), lines: 1, excluded: null };
}

/** The report's rush strip over the engine's own figure code, as the API gives it (instants as text). */
function report(tickets: Ticket[], now: number) {
  return rushStrip(tickets, boundaries, now).map((s) => ({ ...s, start: iso(s.start), end: iso(s.end) }));
}

/** Orders in progress at an instant, counted from the tickets themselves: fired before it, not finished or cancelled before it. */
const inKitchenAt = (tickets: Ticket[], t: number) => tickets.filter((k) => k.fired_at < t && (k.ready_at ?? k.cancelled_at ?? Infinity) >= t).length;

test('five orders in the last ten minutes: the count of now stands at now, the open slot starts from the count at its start', () => {
  const now = clock(11, 55);
  const tickets = [46, 48, 50, 52, 54].map((m, i) => ticket(`t${i}`, clock(11, m), null));
  const series = rushSeries(report(tickets, now), iso(now));
  assert.deepEqual(series.x, [clock(11, 30), clock(11, 45), now, clock(12, 0)].map((ms) => ms / 1000));
  assert.deepEqual(series.inProgress, [0, 0, 5, null], 'zero at 11:45, five at 11:55, nothing counted at 12:00');
  assert.deepEqual(series.finished, [0, 0, undefined, null], 'bars at slot starts only; none for the slot not begun');
  assert.ok(hasRush(report(tickets, now)));
});

test('every count drawn equals the tickets in the kitchen at its instant, and none is drawn after now', () => {
  // A service of 45 orders from 12:00, some finished, some cancelled, some still open at 13:20.
  const tickets: Ticket[] = [];
  for (let n = 0; n < 45; n++) {
    const fired = clock(12, 0) + n * 97_000;
    const ready = n % 5 === 4 ? null : fired + (6 + ((n * 7) % 23)) * MINUTE;
    tickets.push(n % 11 === 3 ? ticket(`c${n}`, fired, null, fired + 4 * MINUTE) : ticket(`t${n}`, fired, ready));
  }
  const now = clock(13, 20);
  const series = rushSeries(report(tickets, now), iso(now));
  const counted = series.x.map((s, i) => [s * 1000, series.inProgress[i]] as const).filter(([, v]) => v !== null);
  assert.ok(counted.length >= 6, `counts along the service (${counted.length})`);
  for (const [t, v] of counted) assert.equal(v, inKitchenAt(tickets, t), `in progress at ${iso(t)}`);
  assert.equal(counted.at(-1)![0], now, 'the last count is now');
  assert.ok(series.x.every((s, i) => s * 1000 <= now || (series.inProgress[i] === null && series.finished[i] !== 0)), 'nothing counted or finished after now');
  assert.deepEqual([...series.x].sort((a, b) => a - b), series.x, 'instants ascending');
});

test('a past day: each count at its slot end; the line and the axis end at the last slot drawn', () => {
  const tickets = [ticket('a', clock(20, 5), clock(20, 25)), ticket('b', clock(20, 10), clock(21, 40))];
  const series = rushSeries(report(tickets, clock(23, 59) + 2 * 86_400_000), iso(clock(23, 59) + 2 * 86_400_000));
  // Slots 19:45 (the one before) … 21:45 (the one after 21:30): counts at 20:00 … 22:00.
  assert.equal(series.x[0], clock(19, 45) / 1000);
  assert.equal(series.x.at(-1), clock(22, 0) / 1000);
  assert.deepEqual(series.inProgress, [0, 0, 2, 1, 1, 1, 1, 1, 0, 0]);
  assert.deepEqual(series.finished.slice(0, 4), [0, 0, 1, 0]);
  assert.equal(series.finished.at(-1), undefined, 'the last end is no slot start: no bar there');
  assert.equal(series.p50[2], 20, 'ticket a: 20 minutes, in its slot');
});

test('a day with nothing: no rush to draw', () => {
  assert.equal(hasRush(report([], clock(12, 0))), false);
});
