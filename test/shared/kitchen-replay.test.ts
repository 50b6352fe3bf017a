// The replay's steady frames (issue 33): while playing, a frame that draws the same board and bars
// as the last one keeps them (the screen then skips redrawing them); anything that changes what is
// drawn (an order moving, ready, late; a line starting, ending, leaving the window) does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayFrame, sameBars, sameBoard, steadyBars, type KitchenReplay } from '../../src/shared/kitchen-replay.ts';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 28, 23);
const WINDOW = 30 * MIN;

/** Order 1 fired at 0, ready at 10 (promised 8), delivered at 15; order 2 fired at 5; one line each at the plancha. */
const replay: KitchenReplay = {
  location_id: 'l',
  day: '2026-11-28',
  time_zone: 'America/Santiago',
  start: T0,
  end: T0 + 60 * MIN,
  orders: [
    { id: 'a', number: '1', states: [[T0, 'en_preparacion'], [T0 + 10 * MIN, 'listo'], [T0 + 15 * MIN, 'entregado']], promised_ready_at: T0 + 8 * MIN, ready_at: T0 + 10 * MIN },
    { id: 'b', number: '2', states: [[T0 + 5 * MIN, 'en_preparacion']], promised_ready_at: null, ready_at: null },
  ],
  lines: [
    { order: 0, station_id: 'plancha', product: 'Completo', quantity: 1, fired_at: T0, work_from: T0 + MIN, done_at: T0 + 10 * MIN, lane: 0 },
    { order: 1, station_id: 'plancha', product: 'Completo', quantity: 1, fired_at: T0 + 5 * MIN, work_from: T0 + 5 * MIN, done_at: null, lane: null },
  ],
  stations: [{ station_id: 'plancha', name: 'Plancha', lanes: 2 }],
  truncated: false,
};

const frameAt = (minutes: number) => ({ at: T0 + minutes * MIN, frame: replayFrame(replay, T0 + minutes * MIN, WINDOW) });
const boardsSame = (a: number, b: number) => {
  const x = frameAt(a);
  const y = frameAt(b);
  return sameBoard(x.frame.columns, y.frame.columns, x.at, y.at);
};
const barsOf = (minutes: number) => steadyBars(frameAt(minutes).frame.stations[0]!);

test('a second of service later with nothing happening draws the same board and bars', () => {
  assert.equal(boardsSame(2, 2 + 1 / 60), true);
  assert.equal(sameBars(barsOf(2), barsOf(2 + 1 / 60)), true, 'a bar still cooking is the same bar as its instant moves');
  assert.equal(frameAt(2).frame.stations[0]!.bars[0]!.to !== frameAt(2 + 1 / 60).frame.stations[0]!.bars[0]!.to, true, 'while its end in the frame moved');
});

test('an order arriving, passing its promise, being ready or leaving changes the board', () => {
  assert.equal(boardsSame(4.9, 5), false, 'order 2 arrives');
  assert.equal(boardsSame(7.9, 8.1), false, 'order 1 is late');
  assert.equal(boardsSame(9.9, 10), false, 'order 1 is ready');
  assert.equal(boardsSame(14.9, 15), false, 'order 1 is handed over');
  assert.equal(boardsSame(11, 14), true);
});

test('a line ending or leaving the window changes the bars', () => {
  assert.equal(sameBars(barsOf(9.9), barsOf(10)), false, 'the line is done');
  assert.equal(sameBars(barsOf(20), barsOf(39.9)), true);
  assert.equal(sameBars(barsOf(39.9), barsOf(40.1)), false, 'it left the 30-minute window');
  assert.deepEqual(barsOf(40.1), []);
});
