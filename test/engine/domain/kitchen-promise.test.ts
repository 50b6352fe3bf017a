import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promiseMargin, scheduleOrder, MARGIN_SCALE_OFFSET_SECONDS, MIN_CALIBRATION, QUANTILE_HEADROOM, type OpenLine } from '../../../src/engine/domain/kitchen-promise.ts';
import { quantile } from '../../../src/engine/domain/prep-times.ts';

const NOW = 1_000_000_000;
const MIN = 60_000;
const grill = (firedMinutesAgo: number, minutes: number, startedMinutesAgo: number | null = null): OpenLine => ({
  station_id: 'plancha',
  fired_at: NOW - firedMinutesAgo * MIN,
  started_at: startedMinutesAgo === null ? null : NOW - startedMinutesAgo * MIN,
  seconds: minutes * 60,
});
const burger = { station_id: 'plancha', seconds: 5 * 60, p90_seconds: 7 * 60 };

test('an empty kitchen: ready after the line\'s own time', () => {
  const result = scheduleOrder({ now: NOW, cooks: new Map([['plancha', 1]]), open: [], lines: [burger] });
  assert.equal(result.expected_ready_at, NOW + 5 * MIN);
});

test('the promise grows with the queue, line by line', () => {
  let previous = 0;
  for (let queued = 0; queued <= 6; queued++) {
    const open = Array.from({ length: queued }, () => grill(0, 5));
    const ready = scheduleOrder({ now: NOW, cooks: new Map([['plancha', 1]]), open, lines: [burger] }).expected_ready_at;
    assert.equal(ready, NOW + (queued + 1) * 5 * MIN);
    assert.ok(ready > previous);
    previous = ready;
  }
});

test('a cook added shrinks it: the queue is shared', () => {
  const open = Array.from({ length: 6 }, () => grill(0, 5));
  const one = scheduleOrder({ now: NOW, cooks: new Map([['plancha', 1]]), open, lines: [burger] }).expected_ready_at;
  const two = scheduleOrder({ now: NOW, cooks: new Map([['plancha', 2]]), open, lines: [burger] }).expected_ready_at;
  const three = scheduleOrder({ now: NOW, cooks: new Map([['plancha', 3]]), open, lines: [burger] }).expected_ready_at;
  assert.equal(one, NOW + 35 * MIN);
  assert.equal(two, NOW + 20 * MIN);
  assert.equal(three, NOW + 15 * MIN);
});

test('a line started earlier holds its cook only for what is left of it; one overdue, for a little', () => {
  const halfway = scheduleOrder({ now: NOW, cooks: new Map(), open: [grill(4, 6, 3)], lines: [burger] }).expected_ready_at;
  assert.equal(halfway, NOW + 3 * MIN + 5 * MIN);
  const overdue = scheduleOrder({ now: NOW, cooks: new Map(), open: [grill(20, 6, 20)], lines: [burger] }).expected_ready_at;
  assert.ok(overdue > NOW + 5 * MIN && overdue < NOW + 7 * MIN, 'a line past its time still takes some');
});

test('stations work side by side; the order is ready with its slowest line; a line of no station is ready at once', () => {
  const lines = [burger, { station_id: 'horno', seconds: 12 * 60, p90_seconds: 15 * 60 }, { station_id: null, seconds: 0, p90_seconds: 0 }];
  const result = scheduleOrder({ now: NOW, cooks: new Map(), open: [grill(0, 5)], lines });
  assert.equal(result.expected_ready_at, NOW + 12 * MIN);
  assert.deepEqual(result.lines.map((l) => (l.finish_at - NOW) / MIN), [10, 12, 0]);
});

test('the margin: a prior from the spread until enough orders were ready, then their lateness quantile, per second of wait', () => {
  const prior = promiseMargin([], quantile, 0.9, { lines: [burger], wait_seconds: 600 });
  assert.deepEqual(prior, { seconds: 120 + 60, basis: 'prior' });
  // Each past order was late by a tenth of its expected wait plus the offset, or less.
  const outcomes = Array.from({ length: MIN_CALIBRATION }, (_, i) => {
    const wait = i * 60;
    return { wait_seconds: wait, lateness_seconds: ((i % 10) / 100) * (wait + MARGIN_SCALE_OFFSET_SECONDS) };
  });
  const scaled = outcomes.map((o) => o.lateness_seconds / (o.wait_seconds + MARGIN_SCALE_OFFSET_SECONDS));
  const short = promiseMargin(outcomes, quantile, 0.9, { lines: [burger], wait_seconds: 0 });
  const long = promiseMargin(outcomes, quantile, 0.9, { lines: [burger], wait_seconds: 1800 });
  assert.equal(short.basis, 'calibrated');
  const aimed = 0.9 + 0.1 * QUANTILE_HEADROOM;
  assert.ok(Math.abs(short.seconds - quantile(scaled, aimed) * MARGIN_SCALE_OFFSET_SECONDS) < 1e-9);
  assert.ok(Math.abs(long.seconds - quantile(scaled, aimed) * (1800 + MARGIN_SCALE_OFFSET_SECONDS)) < 1e-9, 'a longer wait gets a wider margin');
  const early = outcomes.map((o) => ({ ...o, lateness_seconds: -o.lateness_seconds - 1 }));
  assert.equal(promiseMargin(early, quantile, 0.9, { lines: [], wait_seconds: 0 }).seconds, 0, 'never below the expected time');
});
