// Busy mode's bound (bench/simulator/busy-bound.ts, issue 32): the work a profile offers against its
// kitchen's capacity, and what a clairvoyant admission could reach on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { busyBound, drawService, evaluateRule } from '../../../bench/simulator/busy-bound.ts';
import { readProfile, type Profile } from '../../../bench/simulator/profile.ts';

const stress = readProfile(join(import.meta.dirname, '../../../bench/profiles/stress-rush.json'));

/** One station of one cook, one 6-minute dish, one line of one unit per order, no spread. */
const grill = (perHour: number, storeFrontShare: number, absent = false): Profile => ({
  ...stress,
  duration_minutes: 60,
  stations: [{ id: 'plancha', name: 'Plancha', cooks: 1 }],
  menu: [{ slug: 'completo', name: 'Completo', station: 'plancha', price: 3000, typed_minutes: 6, true_minutes: 6, spread: 0, weight: 1 }],
  lines_per_order: { '1': 1 },
  multi_unit_share: 0,
  arrivals: [{ from_minute: 0, to_minute: 60, per_hour: perHour }],
  peak: { from_minute: 0, to_minute: 60 },
  channels: ([
    { label: 'tienda', kind: 'store_front', share: storeFrontShare },
    { label: 'caja', kind: 'pos', share: 1 - storeFrontShare },
  ] as Profile['channels']).filter((c) => c.share > 0),
  absences: absent ? [{ station: 'plancha', from_minute: 10, to_minute: 20 }] : [],
});

test('the work offered is every drawn line\'s true minutes; the capacity is the cooks\' minutes less the absence', () => {
  const profile = grill(20, 1, true);
  const seeds = [1, 2, 3];
  const orders = seeds.flatMap((seed) => drawService(profile, seed)).length;
  const bound = busyBound(profile, seeds);
  assert.equal(bound.orders, orders);
  const plancha = bound.load.find((l) => l.station === 'plancha')!;
  assert.ok(Math.abs(plancha.offered - (orders * 6) / seeds.length) < 1e-6, `offered ${plancha.offered}`);
  assert.equal(plancha.capacity, 50);
});

test('a kitchen with room refuses nothing: taking every order already keeps the p90 within the target', () => {
  const bound = busyBound(grill(3, 1), [1, 2, 3, 4]);
  assert.ok(bound.none.p90 <= 25, `p90 ${bound.none.p90}`);
  assert.equal(bound.fewest_refused_within_p90!.refused, 0);
});

test('an overloaded kitchen of POS orders alone cannot be helped: nothing can be refused and no rule meets the p90', () => {
  const bound = busyBound(grill(20, 0), [1, 2]);
  assert.ok(bound.none.p90 > 25, `p90 ${bound.none.p90}`);
  assert.equal(bound.fewest_refused_within_p90, null);
  assert.equal(bound.least_p90_within_refused!.refused, 0);
});

test('a store front\'s order is refused when, taken, it would wait past the limit: the tighter the limit, the more refused and the shorter the tickets', () => {
  const profile = grill(20, 1);
  const loose = evaluateRule(profile, [1, 2, 3], { limit: 40, queue: 1000, heavy: 1000 });
  const tight = evaluateRule(profile, [1, 2, 3], { limit: 15, queue: 1000, heavy: 1000 });
  assert.ok(tight.refused > loose.refused && tight.p90 < loose.p90, JSON.stringify({ loose, tight }));
  assert.ok(tight.p90 <= 15, `every taken order is ready within the limit: p90 ${tight.p90}`);
});
