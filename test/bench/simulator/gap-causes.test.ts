// Where the finish-together gap comes from (bench/simulator/gap-causes.ts, issue 32), on orders whose
// lines' traces are written by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gapCauses } from '../../../bench/simulator/gap-causes.ts';
import { readProfile } from '../../../bench/simulator/profile.ts';
import type { SimulatedOrder } from '../../../bench/simulator/kitchen-sim.ts';

const standard = readProfile(join(import.meta.dirname, '../../../bench/profiles/standard-rush.json'));
const MIN = 60_000;

/** An order made at 0 with a burger (9.5 min true mean) fired at once and a drink (1.5) held. */
function order(drink: { fired: number; started: number; seconds: number }, burgerSeconds = 570): SimulatedOrder {
  const line = (slug: string, station: string, held: number | null, fired: number, started: number, seconds: number) => ({
    slug,
    quantity: 1,
    typed_minutes: 1,
    finished_at: started + seconds * 1000,
    trace: { station, held_until: held, fired_at: fired, started_at: started, seconds },
  });
  return {
    seed: 1,
    channel: 'pos',
    created_at: 0,
    refused: null,
    expected_ready_at: 10 * MIN,
    promised_ready_at: 12 * MIN,
    ready_at: 14 * MIN,
    lines: [line('hamburguesa', 'plancha', null, 0, 0, burgerSeconds), line('bebida', 'bar', 8 * MIN, drink.fired, drink.started, drink.seconds)],
    in_peak: false,
  };
}

test('a held drink fired in time that waits four minutes for the bar: its gap, and the same gap with the firing aligned, the wait out and the means', () => {
  const causes = gapCauses(standard, [order({ fired: 8 * MIN, started: 12 * MIN, seconds: 90 })]);
  assert.equal(causes.orders, 1);
  assert.ok(Math.abs(causes.median_gap - 4) < 1e-9, `gap ${causes.median_gap}`);
  assert.ok(Math.abs(causes.no_wait) < 1e-9, 'started as fired it ends with the burger');
  assert.ok(Math.abs(causes.true_means - 4) < 1e-9, 'the true means do not take the wait out');
  assert.ok(Math.abs(causes.held_aligned) < 1e-9, 'started on the burger\'s start plus its mean, less its own, it ends with it');
  assert.deepEqual([causes.held_lines, causes.held_late, causes.held_fired_late, causes.held_waited], [1, 1, 0, 1]);
});

test('a held drink fired three minutes late at an idle bar is late by its firing; one on time is not late', () => {
  const late = gapCauses(standard, [order({ fired: 11 * MIN, started: 11 * MIN, seconds: 90 })]);
  assert.deepEqual([late.held_late, late.held_fired_late, late.held_waited], [1, 1, 0]);
  const onTime = gapCauses(standard, [order({ fired: 8 * MIN, started: 8 * MIN, seconds: 120 }, 630)]);
  assert.deepEqual([onTime.held_late, onTime.held_fired_late, onTime.held_waited], [0, 0, 0]);
  assert.ok(Math.abs(onTime.median_gap - 0.5) < 1e-9, `the cooks' own spread: ${onTime.median_gap}`);
});
