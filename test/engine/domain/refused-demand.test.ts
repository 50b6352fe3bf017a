// Busy mode's projected queue (issue 32): the lines of refused orders, kept for a window, bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_REFUSED_LINES, RefusedDemand } from '../../../src/engine/domain/refused-demand.ts';

const MIN = 60_000;

test('refused lines count within the window and are forgotten after it; lines no station prepares are not work', () => {
  const demand = new RefusedDemand();
  demand.note('L1', 0, [{ station_id: 'plancha', seconds: 600 }, { station_id: null, seconds: 0 }]);
  demand.note('L1', 10 * MIN, [{ station_id: 'freidora', seconds: 300 }]);
  demand.note('L2', 10 * MIN, [{ station_id: 'plancha', seconds: 600 }]);
  assert.deepEqual(demand.recent('L1', 20 * MIN, 25 * MIN).map((l) => l.station_id), ['plancha', 'freidora']);
  assert.deepEqual(demand.recent('L1', 26 * MIN, 25 * MIN).map((l) => l.station_id), ['freidora'], 'the oldest past the window is forgotten');
  assert.deepEqual(demand.recent('L1', 40 * MIN, 25 * MIN), []);
  assert.equal(demand.recent('L2', 20 * MIN, 25 * MIN).length, 1, 'per location');
  assert.equal(demand.recent('L3', 20 * MIN, 25 * MIN).length, 0);
});

test('a flood of refusals keeps at most MAX_REFUSED_LINES lines per location, the newest', () => {
  const demand = new RefusedDemand();
  for (let i = 0; i < MAX_REFUSED_LINES * 3; i++) demand.note('L1', i, [{ station_id: 'plancha', seconds: 60 }]);
  const kept = demand.recent('L1', MAX_REFUSED_LINES * 3, 3_600_000);
  assert.equal(kept.length, MAX_REFUSED_LINES);
  assert.equal(kept[0]!.at, MAX_REFUSED_LINES * 2, 'the oldest dropped first');
});
