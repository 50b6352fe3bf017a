// The pure rules of firing to finish together (issue 32): which lines to hold and when they fire.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIRE_AHEAD_MS, MAX_HOLD_MS, MIN_HOLD_MS, REPLAN_MS, decideHeldLines, firesNow, planHolds, replanShift } from '../../../src/engine/domain/finish-together.ts';
import { queueOpenLines, scheduleOrder } from '../../../src/engine/domain/kitchen-promise.ts';

const MIN = 60_000;

test('lines done well before the slowest are held by their slack; near ones and counter lines are not', () => {
  const schedule = scheduleOrder({
    now: 0,
    cooks: new Map([['horno', 1], ['plancha', 1], ['bar', 1]]),
    open: [],
    lines: [
      { station_id: 'horno', seconds: 600, p90_seconds: 700 },
      { station_id: 'plancha', seconds: 300, p90_seconds: 400 },
      { station_id: 'bar', seconds: 600 - MIN_HOLD_MS / 1000 + 1, p90_seconds: 600 },
      { station_id: null, seconds: 0, p90_seconds: 0 },
    ],
  });
  assert.deepEqual(planHolds(0, schedule), [{ index: 1, fire_at: 5 * MIN, target_ready_at: 10 * MIN }]);
});

test('a held line fires at its planned time, or earlier when fired now it would finish near its order', () => {
  const held = { fire_at: 5 * MIN, target_ready_at: 10 * MIN };
  assert.equal(firesNow(4 * MIN, held, 9 * MIN, null), false);
  assert.equal(firesNow(5 * MIN, held, 6 * MIN, null), true, 'never later than the screen says');
  assert.equal(firesNow(MIN, held, 10 * MIN - FIRE_AHEAD_MS, null), true, 'its station\'s queue would make it late');
  assert.equal(firesNow(MIN, held, 9 * MIN, 12 * MIN), false, 'its order\'s other lines are late: it waits for them');
});

test('lines that fire later do not delay a new order; an order\'s open lines\' finish is watched', () => {
  const cooks = new Map([['plancha', 1]]);
  const open = [
    { station_id: 'plancha', fired_at: 0, started_at: null, seconds: 300, order_id: 'a', item_index: 0 },
    { station_id: 'plancha', fired_at: 20 * MIN, started_at: null, seconds: 300, order_id: 'b', item_index: 1 },
  ];
  const result = scheduleOrder({ now: MIN, cooks, open, lines: [{ station_id: 'plancha', seconds: 300, p90_seconds: 300 }], watch: 'a' });
  assert.equal(result.expected_ready_at, 10 * MIN, 'behind a (done at 5), not behind b that fires at 20');
  assert.equal(result.watched_ready_at, 5 * MIN);
  assert.equal(scheduleOrder({ now: MIN, cooks, open, lines: [], watch: 'b' }).watched_ready_at, null, 'b has nothing fired yet');
});

test('a held line\'s plan moves later only when its order\'s fired lines are predicted a minute or more late', () => {
  const held = { target_ready_at: 10 * MIN };
  assert.equal(replanShift(held, null), 0);
  assert.equal(replanShift(held, 10 * MIN + REPLAN_MS - 1), 0);
  assert.equal(replanShift(held, 13 * MIN), 3 * MIN);
});

test('held lines are decided in one pass, soonest planned first: one that fires takes its cook, and the next waits behind it', () => {
  const cooks = new Map([['plancha', 1], ['horno', 1]]);
  // The oven has a's 10-minute line; the grill is idle.
  const queued = queueOpenLines({ now: 0, cooks, open: [{ station_id: 'horno', fired_at: 0, started_at: null, seconds: 600, order_id: 'a', item_index: 0 }] });
  const decisions = decideHeldLines(queued, [
    // b's grill line is due (its planned time came): it fires and holds the grill until 6 min.
    { order_id: 'b', station_id: 'plancha', seconds: 360, fire_at: 0, target_ready_at: 6 * MIN },
    // a's 5-minute grill line, planned at 5 for 10: behind b's it would be done at 11, so it goes now.
    { order_id: 'a', station_id: 'plancha', seconds: 300, fire_at: 5 * MIN, target_ready_at: 10 * MIN },
    // c's, planned far ahead, waits; a's 1-minute line was planned for a target of 7 but a's oven
    // line is done at 10: its plan moves 3 minutes later, and it waits (behind b's it would be done at 7).
    { order_id: 'c', station_id: 'plancha', seconds: 60, fire_at: 30 * MIN, target_ready_at: 40 * MIN },
    { order_id: 'a', station_id: 'plancha', seconds: 60, fire_at: 4 * MIN, target_ready_at: 7 * MIN },
  ]);
  assert.deepEqual(
    decisions.map((d) => [d.line.order_id, d.line.fire_at / MIN, d.fires, d.shift / MIN]),
    [['b', 0, true, 0], ['a', 4, false, 3], ['a', 5, true, 0], ['c', 30, false, 0]],
  );
  assert.equal(queued.orders_ready_at.get('a'), 11 * MIN, 'a\'s line fired here counts in its finish');
});

test('a line is never held more than 30 minutes: behind a grill two hours deep it fires at 30, and a late order does not move it past that', () => {
  // Nobody cooks: 24 burgers of 5 minutes wait at the grill's one cook, so a new burger is 2 h 5 min away.
  const open = Array.from({ length: 24 }, (_, i) => ({ station_id: 'plancha', fired_at: 0, started_at: null, seconds: 300, order_id: `o${i}`, item_index: 0 }));
  const cooks = new Map([['plancha', 1], ['bar', 1]]);
  const schedule = scheduleOrder({ now: MIN, cooks, open, lines: [{ station_id: 'plancha', seconds: 300, p90_seconds: 400 }, { station_id: 'bar', seconds: 120, p90_seconds: 180 }] });
  assert.ok(schedule.expected_ready_at - MIN > 2 * 60 * MIN);
  const [plan] = planHolds(MIN, schedule);
  assert.equal(plan!.index, 1);
  assert.equal(plan!.fire_at, MIN + MAX_HOLD_MS, 'held 30 minutes, not until 2 minutes before the burger');
  // Held at 1 min, planned at 25: its order's grill line is now predicted an hour later than its target.
  const held = { order_id: 'new', station_id: 'bar', seconds: 120, held_at: MIN, fire_at: 25 * MIN, target_ready_at: 27 * MIN };
  const late = queueOpenLines({ now: 10 * MIN, cooks, open: [{ station_id: 'plancha', fired_at: 0, started_at: null, seconds: 87 * 60, order_id: 'new', item_index: 0 }] });
  const [decision] = decideHeldLines(late, [held]);
  assert.equal(decision!.shift, MIN + MAX_HOLD_MS - 25 * MIN, 'moved to 31 minutes, no later');
  assert.equal(decision!.fires, false);
});
