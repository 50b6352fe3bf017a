// The finish-together bound (bench/simulator/gap-bound.ts, issue 32): what no firing rule can beat in
// the simulator's model of a kitchen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { expectedRemaining, gapBound, normalCdf } from '../../../bench/simulator/gap-bound.ts';
import { readProfile } from '../../../bench/simulator/profile.ts';

const standard = readProfile(join(import.meta.dirname, '../../../bench/profiles/standard-rush.json'));

test('with no spread and a cook per line, every order can finish together', () => {
  const exact = {
    ...standard,
    stations: standard.stations.map((s) => ({ ...s, cooks: 4 })),
    menu: standard.menu.map((m) => ({ ...m, spread: 0 })),
  };
  const bound = gapBound(exact, 500, 7);
  for (const gap of [bound.oracle.median, bound.oracle.p90, bound.means.median, bound.means.p90, bound.watching.median, bound.watching.p90]) assert.ok(Math.abs(gap) < 1e-9, `gap ${gap}`);
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

test('the standard rush: watching the slowest line while it cooks does not bring the median under 2 minutes either', () => {
  const bound = gapBound(standard, 5000, 1);
  assert.ok(bound.watching.median > 2, `watching: ${bound.watching.median.toFixed(2)} min`);
  assert.ok(bound.watching.median < bound.means.median + 0.5, `watching ${bound.watching.median.toFixed(2)} against means ${bound.means.median.toFixed(2)}: the same floor`);
});

test('what is left of a log-normal line that has cooked a while: its mean at the start, then the average of the draws still cooking', () => {
  assert.ok(Math.abs(normalCdf(0) - 0.5) < 1e-7 && Math.abs(normalCdf(1.6449) - 0.95) < 1e-4 && Math.abs(normalCdf(-1.6449) - 0.05) < 1e-4);
  assert.equal(expectedRemaining(9.5, 0.25, 0), 9.5);
  assert.equal(expectedRemaining(9.5, 0, 4), 5.5, 'no spread: the mean minus what has cooked');
  // Against draws: the lines still cooking at 5, 9.5 and 12 minutes, and what is left of them on average.
  let state = 7;
  const uniform = () => (state = (state * 48271) % 2147483647) / 2147483647;
  const draws = Array.from({ length: 200_000 }, () => Math.exp(Math.log(9.5) - 0.25 ** 2 / 2 + 0.25 * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform())));
  for (const elapsed of [5, 9.5, 12]) {
    const still = draws.filter((x) => x > elapsed);
    const left = still.reduce((sum, x) => sum + x - elapsed, 0) / still.length;
    assert.ok(Math.abs(expectedRemaining(9.5, 0.25, elapsed) - left) < 0.05, `at ${elapsed}: ${expectedRemaining(9.5, 0.25, elapsed)} against ${left}`);
  }
  assert.ok(Number.isFinite(expectedRemaining(9.5, 0.25, 400)) && expectedRemaining(9.5, 0.25, 400) > 0, 'far in the tail it stays finite');
});
