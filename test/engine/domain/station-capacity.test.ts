// A station's units at once (issue 32, eleventh round): the capacity rule, how a line sits on it, and
// that a station the restaurant file says nothing of is scheduled exactly as before (one line per
// cook), compared on random loads with the schedule as it was written before slots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { queueOpenLines, scheduleOrder, type OpenLine } from '../../../src/engine/domain/kitchen-promise.ts';
import { lineUnits, stationCapacity, unitsPerLine } from '../../../src/engine/domain/station-capacity.ts';
import { linePrepSeconds } from '../../../src/engine/domain/prep-times.ts';

const NOW = 1_000_000_000;
const MIN = 60_000;

test('a grill\'s capacity grows with its cooks, an oven\'s racks do not', () => {
  assert.deepEqual(stationCapacity(1, undefined), { slots: 1, per_line: 1 });
  assert.deepEqual(stationCapacity(3, undefined), { slots: 3, per_line: 1 });
  assert.deepEqual(stationCapacity(2, { units_at_once: 6 }), { slots: 12, per_line: 6 });
  assert.deepEqual(stationCapacity(1, { units_at_once: 8, max_units_at_once: 8 }), { slots: 8, per_line: 8 });
  assert.deepEqual(stationCapacity(3, { units_at_once: 8, max_units_at_once: 8 }), { slots: 8, per_line: 8 });
  assert.deepEqual(stationCapacity(2, { units_at_once: 1, max_units_at_once: 1 }), { slots: 1, per_line: 1 }, 'one fryer for two cooks');
  assert.equal(unitsPerLine({ units_at_once: 6, max_units_at_once: 4 }), 4, 'a line never has more on than the station holds');
});

test('a line takes its units on together, in rounds of what one line may have on', () => {
  assert.deepEqual(lineUnits(3, 1), { units: 1, batches: 3 }, 'one at a time: one slot, its units side by side');
  assert.deepEqual(lineUnits(3, 6), { units: 3, batches: 1 });
  assert.deepEqual(lineUnits(9, 8), { units: 8, batches: 2 });
  const line = { product_id: 'p', quantity: 3, modifiers: [] };
  const prep = { product_seconds: { p: 600 }, option_seconds: {} };
  assert.equal(linePrepSeconds(line, prep, undefined).mean, 1200, 'before: each unit past the first adds half');
  assert.equal(linePrepSeconds(line, prep, undefined, 6).mean, 600, 'three patties on a grill of six: one patty\'s time');
});

test('lines at a station with units at once share its slots; a wide line waits for all it needs', () => {
  const cooks = new Map([['plancha', 1]]);
  const units = new Map([['plancha', { units_at_once: 4 }]]);
  const open: OpenLine[] = [
    { station_id: 'plancha', fired_at: NOW, started_at: null, seconds: 600, units: 3, order_id: 'a' },
    { station_id: 'plancha', fired_at: NOW, started_at: null, seconds: 300, units: 1, order_id: 'b' },
  ];
  const queued = queueOpenLines({ now: NOW, cooks, units, open });
  assert.equal(queued.orders_ready_at.get('a'), NOW + 10 * MIN);
  assert.equal(queued.orders_ready_at.get('b'), NOW + 5 * MIN, 'the fourth slot is free: beside the three');
  assert.equal(queued.queues.finishIfFiredNow('plancha', 300, 1), NOW + 10 * MIN, 'the grill is full until the first frees');
  assert.equal(queued.queues.finishIfFiredNow('plancha', 300, 2), NOW + 15 * MIN, 'two at once wait for the three to come off');
  const withOrder = scheduleOrder({ now: NOW, cooks, units, open, lines: [{ station_id: 'plancha', seconds: 300, p90_seconds: 400, units: 4 }] });
  assert.equal(withOrder.expected_ready_at, NOW + 15 * MIN, 'four at once: the whole grill, from when all of it is free');
});

/** The one-line-per-cook schedule as it was before slots (main at 975e5ad), the reference for a file that says nothing. */
function referenceReady(now: number, cooks: ReadonlyMap<string, number>, open: readonly OpenLine[], freed: ReadonlyMap<string, readonly number[]>): Map<string, number> {
  const free = new Map<string, number[]>();
  const cooksOf = (station: string) => {
    let list = free.get(station);
    if (!list) {
      const f = freed.get(station) ?? [];
      list = Array.from({ length: Math.max(1, cooks.get(station) ?? 1) }, (_, k) => f[k] ?? Number.NEGATIVE_INFINITY);
      free.set(station, list);
    }
    return list;
  };
  const earliest = (times: readonly number[]) => times.reduce((best, t, i) => (t < times[best]! ? i : best), 0);
  const ready = new Map<string, number>();
  const placed = (line: OpenLine, start: number) => {
    let finish = start + line.seconds * 1000;
    if (finish < now) finish = now + line.seconds * 1000 * 0.15;
    ready.set(line.order_id!, Math.max(ready.get(line.order_id!) ?? finish, finish));
    return finish;
  };
  const fired = open.filter((l) => l.fired_at <= now);
  for (const line of fired.filter((l) => l.started_explicit === true && l.started_at !== null).sort((a, b) => a.started_at! - b.started_at!)) {
    const c = cooksOf(line.station_id);
    const k = earliest(c);
    const finish = placed(line, line.started_at!);
    c[k] = c[k]! <= line.started_at! ? finish : Math.max(c[k]!, finish);
  }
  for (const line of fired.filter((l) => !(l.started_explicit === true && l.started_at !== null)).sort((a, b) => a.fired_at - b.fired_at)) {
    const c = cooksOf(line.station_id);
    const k = earliest(c);
    const finish = placed(line, Math.max(c[k]!, line.fired_at, line.started_at ?? Number.NEGATIVE_INFINITY));
    c[k] = Math.max(c[k]!, finish);
  }
  return ready;
}

test('a station the file says nothing of is scheduled as before: one line per cook', () => {
  const station = fc.constantFrom('plancha', 'horno', 'bar');
  const line = fc.record({
    station_id: station,
    fired: fc.integer({ min: -90, max: 5 }),
    started: fc.option(fc.integer({ min: -90, max: 0 })),
    explicit: fc.boolean(),
    minutes: fc.integer({ min: 1, max: 30 }),
    quantity: fc.integer({ min: 1, max: 4 }),
  });
  fc.assert(
    fc.property(fc.array(line, { maxLength: 40 }), fc.integer({ min: 1, max: 4 }), fc.array(fc.integer({ min: -60, max: 0 }), { maxLength: 4 }), (lines, grillCooks, bumps) => {
      const cooks = new Map([['plancha', grillCooks], ['horno', 1]]);
      const freed = new Map([['plancha', bumps.map((b) => NOW + b * MIN).sort((a, b) => b - a)]]);
      const open: OpenLine[] = lines.map((l, i) => ({
        station_id: l.station_id,
        fired_at: NOW + l.fired * MIN,
        started_at: l.started === null ? null : NOW + Math.max(l.started, l.fired) * MIN,
        started_explicit: l.explicit,
        // As the service times it: one slot, units side by side (the quantity factor).
        seconds: linePrepSeconds({ product_id: 'p', quantity: l.quantity, modifiers: [] }, { product_seconds: { p: l.minutes * 60 }, option_seconds: {} }, undefined).mean,
        units: lineUnits(l.quantity, 1).units,
        order_id: `o${i % 7}`,
      }));
      const queued = queueOpenLines({ now: NOW, cooks, freed, open });
      assert.deepEqual(queued.orders_ready_at, referenceReady(NOW, cooks, open, freed));
    }),
    { numRuns: 300 },
  );
});
