// The finish-together bound (bench/simulator/gap-bound.ts, issue 32): what no firing rule can beat in
// the simulator's model of a kitchen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gapBound } from '../../../bench/simulator/gap-bound.ts';
import { readProfile } from '../../../bench/simulator/profile.ts';

const standard = readProfile(join(import.meta.dirname, '../../../bench/profiles/standard-rush.json'));

test('with no spread and a cook per line, every order can finish together', () => {
  const exact = {
    ...standard,
    stations: standard.stations.map((s) => ({ ...s, cooks: 4 })),
    menu: standard.menu.map((m) => ({ ...m, spread: 0 })),
  };
  const bound = gapBound(exact, 500, 7);
  for (const gap of [bound.oracle.median, bound.oracle.p90, bound.means.median, bound.means.p90]) assert.ok(Math.abs(gap) < 1e-9, `gap ${gap}`);
});

test('one cook makes one line at a time: two lines at a station of one cook finish a line apart, even knowing every time', () => {
  const one = {
    ...standard,
    stations: [{ id: 'bar', name: 'Bar', cooks: 1 }],
    menu: [{ slug: 'jugo', name: 'Jugo', station: 'bar', price: 1000, typed_minutes: 4, true_minutes: 4, spread: 0, weight: 1 }],
    lines_per_order: { '2': 1 },
    multi_unit_share: 0,
  };
  const bound = gapBound(one, 200, 7);
  assert.ok(Math.abs(bound.oracle.median - 4) < 1e-9, `median ${bound.oracle.median}`);
});

test('the standard rush: knowing only each line\'s mean, the median gap is above 2 minutes, whatever the firing', () => {
  const bound = gapBound(standard, 5000, 1);
  assert.ok(bound.oracle.median <= bound.means.median, 'knowing every time in advance is never worse');
  assert.ok(bound.means.median > 2, `median ${bound.means.median.toFixed(2)} min`);
  assert.ok(bound.medians.median > 2, `firing by medians: ${bound.medians.median.toFixed(2)} min`);
});
