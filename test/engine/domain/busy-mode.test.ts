import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NOT_BUSY, isSlowStation, nextBusyState, orderRetryAfterSeconds, refusesStoreFrontOrder, retryAfterSeconds, type BusyState } from '../../../src/engine/domain/busy-mode.ts';

const SETTINGS = { threshold_minutes: 30, after_minutes: 3, margin_minutes: 5, max_pauses_per_hour: 2 };
const MIN = 60_000;

/** Feeds waits a minute apart from `state`, returning the states and what changed. */
function run(state: BusyState, waits: number[], from = 0) {
  const changes: (string | null)[] = [];
  waits.forEach((wait, i) => {
    const next = nextBusyState(state, wait, from + i * MIN, SETTINGS);
    state = next.state;
    changes.push(next.change);
  });
  return { state, changes };
}

test('pauses after 3 minutes above the threshold, not before; a dip restarts the count', () => {
  assert.deepEqual(run(NOT_BUSY, [31, 31, 31, 31]).changes, [null, null, null, 'paused']);
  assert.deepEqual(run(NOT_BUSY, [31, 31, 29, 31, 31, 31]).changes, [null, null, null, null, null, null]);
});

test('resumes as soon as the wait is below the threshold minus the margin, not at the threshold', () => {
  const paused = run(NOT_BUSY, [31, 31, 31, 31]).state;
  assert.deepEqual(run(paused, [29, 26, 25, 24], 4 * MIN).changes, [null, null, null, 'resumed']);
});

test('at most 2 pauses an hour; the hour slides', () => {
  const waits = [31, 31, 31, 31, 10, 31, 31, 31, 31, 10, 31, 31, 31, 31, 31];
  const { state, changes } = run(NOT_BUSY, waits);
  assert.deepEqual(changes.filter((c) => c === 'paused').length, 2, 'a third pause within the hour is not taken');
  assert.equal(state.paused, false);
  const later = nextBusyState(state, 31, 69 * MIN, SETTINGS); // the pauses were at minutes 3 and 8
  assert.equal(later.change, 'paused', 'an hour after the first pauses the wait may pause it again');
});

test('an override wins over the wait until cleared, and does not count towards the hour', () => {
  const held: BusyState = { ...NOT_BUSY, override: 'resume' };
  assert.equal(run(held, [60, 60, 60, 60, 60]).state.paused, false);
  const forced = run({ ...NOT_BUSY, override: 'pause' }, [0]);
  assert.deepEqual([forced.state.paused, forced.changes[0], forced.state.recent_pauses.length], [true, 'paused', 0]);
});

test('Retry-After: the minutes until the wait could be below the margin, 1 to 30', () => {
  assert.equal(retryAfterSeconds({ ...NOT_BUSY, wait_minutes: 40 }, SETTINGS), 15 * 60);
  assert.equal(retryAfterSeconds({ ...NOT_BUSY, wait_minutes: 20 }, SETTINGS), 60);
  assert.equal(retryAfterSeconds({ ...NOT_BUSY, wait_minutes: 200 }, SETTINGS), 30 * 60);
});

test('paused by the wait, a store front\'s order is refused when its own wait is above the threshold; paused by a manager, always', () => {
  const settings = { threshold_minutes: 30, after_minutes: 3, margin_minutes: 5, max_pauses_per_hour: 2 };
  const paused = { ...NOT_BUSY, paused: true, changed_at: 1, wait_minutes: 40 };
  let asked = 0;
  // A light order: one dish at the slow station.
  const wait = (minutes: number) => () => {
    asked++;
    return { own_wait: minutes, slow_station_minutes: 3, one_dish_minutes: 3 };
  };
  assert.equal(refusesStoreFrontOrder(NOT_BUSY, settings, wait(90)), false, 'not paused: taken');
  assert.equal(asked, 0, 'its cost is not even asked for');
  assert.equal(refusesStoreFrontOrder(paused, settings, wait(30.5)), true);
  assert.equal(refusesStoreFrontOrder(paused, settings, wait(30)), false, 'within the threshold: taken');
  assert.equal(refusesStoreFrontOrder({ ...paused, override: 'pause' }, settings, wait(5)), true, "a manager's pause refuses a short cart too");
  assert.equal(orderRetryAfterSeconds(42, settings), 12 * 60);
  assert.equal(orderRetryAfterSeconds(30.2, settings), 60, 'at least a minute');
  assert.equal(orderRetryAfterSeconds(200, settings), 30 * 60, 'at most 30 minutes');
});

test('paused by the wait, a heavy order (more work at the slow stations than one dish) is refused even within the threshold; a light one is not', () => {
  const settings = { threshold_minutes: 25, after_minutes: 3, margin_minutes: 5, max_pauses_per_hour: 2 };
  const paused = { ...NOT_BUSY, paused: true, changed_at: 1, wait_minutes: 26 };
  // Minutes per cook at the slow stations: a 9-minute burger at a grill of 3 cooks is 3.
  const cost = (own_wait: number, slow_station_minutes: number) => () => ({ own_wait, slow_station_minutes, one_dish_minutes: 3 });
  assert.equal(refusesStoreFrontOrder(paused, settings, cost(22, 9)), true, 'three burgers: refused though promised within the threshold');
  assert.equal(refusesStoreFrontOrder(paused, settings, cost(22, 3)), false, 'one burger: taken while its own wait is within the threshold');
  assert.equal(refusesStoreFrontOrder(paused, settings, cost(12, 0)), false, 'drinks only (no slow station): taken');
  assert.equal(refusesStoreFrontOrder(paused, settings, cost(26, 0)), true, 'light but over the threshold itself: refused');
  assert.equal(refusesStoreFrontOrder({ ...paused, paused: false }, settings, cost(40, 30)), false, 'not paused: every order is taken');
  assert.equal(isSlowStation(20, settings), true, 'a station within the margin of the threshold is slow (busy mode would not resume for it)');
  assert.equal(isSlowStation(19.9, settings), false);
});
