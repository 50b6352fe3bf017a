import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PREP_SECONDS, learnPrepTimes, linePrepSeconds, MIN_LEARNED_SAMPLES, quantile, type CookSample } from '../../../src/engine/domain/prep-times.ts';
import { allergenKey } from '../../../src/engine/domain/kitchen-settings.ts';

const prep = { product_seconds: { burger: 300 }, option_seconds: { burger: { [allergenKey('Agregados', 'Huevo')]: 60 } } };

test('typed: product plus its options, more units take half a unit each; untyped: the default', () => {
  assert.deepEqual(linePrepSeconds({ product_id: 'burger', quantity: 1, modifiers: [] }, prep, undefined), { mean: 300, p90: 405 });
  assert.equal(linePrepSeconds({ product_id: 'burger', quantity: 3, modifiers: [{ group: 'Agregados', name: 'Huevo' }] }, prep, undefined).mean, 360 * 2);
  assert.equal(linePrepSeconds({ product_id: 'other', quantity: 1, modifiers: [] }, prep, undefined).mean, DEFAULT_PREP_SECONDS);
});

test('learned replaces typed from enough samples on', () => {
  const few = { mean: 520, median: 500, p90: 700, samples: MIN_LEARNED_SAMPLES - 1 };
  assert.equal(linePrepSeconds({ product_id: 'burger', quantity: 1, modifiers: [] }, prep, few).mean, 300);
  const enough = { ...few, samples: MIN_LEARNED_SAMPLES };
  assert.deepEqual(linePrepSeconds({ product_id: 'burger', quantity: 1, modifiers: [] }, prep, enough), { mean: 520, p90: 700 });
});

const sample = (doneAt: number, seconds: number, quantity = 1): CookSample => ({ station_id: 'plancha', product_id: 'burger', quantity, done_at: doneAt, seconds });

test('learning: median and p90 per unit, leaving out mass bumps, bumps long before the time and lines left open', () => {
  const honest = Array.from({ length: 20 }, (_, i) => sample(i * 120_000, 400 + i * 10));
  const sweep = Array.from({ length: 5 }, (_, i) => sample(10_000_000 + i * 1000, 420));
  const tooFast = [sample(20_000_000, 30)];
  const forgotten = [sample(30_000_000, 3 * 3600)];
  const { learned, excluded } = learnPrepTimes([...honest, ...sweep, ...tooFast, ...forgotten], () => 300);
  assert.deepEqual(excluded, { mass_bump: 5, too_fast: 1, left_open: 1 });
  const burger = learned.get('plancha\u001fburger')!;
  assert.equal(burger.samples, 20);
  assert.equal(burger.median, Math.round(quantile(honest.map((s) => s.seconds), 0.5)));
  assert.equal(burger.p90, Math.round(quantile(honest.map((s) => s.seconds), 0.9)));
  // A line of 3 counts as 2 units' time.
  const triple = learnPrepTimes([sample(0, 800, 3)], () => 300).learned.get('plancha\u001fburger')!;
  assert.equal(triple.median, 400);
});
