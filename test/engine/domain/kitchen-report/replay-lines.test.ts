// The replay's cook lanes (issue 33): the learning's rule (a line starts when a cook of its station is
// freed), the lane of the cook free the longest, an un-bump reopening a line, a line never bumped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayLines } from '../../../../src/engine/domain/kitchen-report/replay-lines.ts';
import type { LogEntry } from '../../../../src/engine/domain/kitchen-report/tickets.ts';

const entry = (order_id: string, kind: LogEntry['kind'], at: number, station_id: string | null = 'plancha', item_index = 0): LogEntry => ({
  order_id,
  item_index,
  kind,
  station_id,
  product_id: 'p',
  quantity: 1,
  channel: null,
  at,
});

test('with one cook, a line waits for the one before it; with two, they cook side by side', () => {
  const log = [entry('a', 'fired', 0), entry('b', 'fired', 10), entry('a', 'done', 100), entry('b', 'done', 150)];
  const one = replayLines(log, new Map([['plancha', 1]]));
  assert.deepEqual(one.map((l) => [l.order_id, l.lane, l.work_from, l.done_at]), [
    ['a', 0, 0, 100],
    ['b', 0, 100, 150],
  ]);
  const two = replayLines(log, new Map([['plancha', 2]]));
  assert.deepEqual(two.map((l) => [l.order_id, l.lane, l.work_from, l.done_at]), [
    ['a', 0, 0, 100],
    ['b', 1, 10, 150],
  ]);
});

test('a start tap after the cook was freed is when the line started', () => {
  const lines = replayLines([entry('a', 'fired', 0), entry('a', 'started', 40), entry('a', 'done', 100)], new Map());
  assert.deepEqual(lines.map((l) => [l.work_from, l.lane]), [[40, 0]]);
});

test('an un-bump opens the line again until its next bump; a line never bumped has no lane; a line without a station is left out', () => {
  const log = [
    entry('a', 'fired', 0),
    entry('a', 'done', 50),
    entry('a', 'undone', 60),
    entry('a', 'done', 90),
    entry('b', 'fired', 70),
    entry('b', 'started', 80),
    entry('c', 'fired', 75, null),
  ];
  const lines = replayLines(log, new Map([['plancha', 1]]));
  assert.deepEqual(lines.map((l) => [l.order_id, l.fired_at, l.work_from, l.done_at, l.lane]), [
    ['a', 0, 0, 50, 0],
    ['a', 60, 60, 90, 0],
    ['b', 70, 80, null, null],
  ]);
});

test('fired again before it was bumped (a recall), the unfinished stint is replaced', () => {
  const lines = replayLines([entry('a', 'fired', 0), entry('a', 'fired', 30), entry('a', 'done', 100)], new Map());
  assert.deepEqual(lines.map((l) => [l.fired_at, l.done_at]), [[30, 100]]);
});
