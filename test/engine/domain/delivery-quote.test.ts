import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { applySubsidies, ownDeliveryQuote, type ShippingSubsidyRule } from '../../../src/engine/domain/delivery-quote.ts';
import { distanceKm, type LatLng } from '../../../src/engine/domain/geo.ts';
import type { OwnDeliverySettings } from '../../../src/engine/domain/delivery-settings.ts';

const KM_PER_DEGREE = (Math.PI / 180) * 6371.0088;
const LOCATION: LatLng = [-33.4378, -70.6505];
/** A point `km` due north of the location. */
const northBy = (km: number): LatLng => [LOCATION[0] + km / KM_PER_DEGREE, LOCATION[1]];

const FEE_BANDS = [
  { up_to_km: 2, fee: 1500 },
  { up_to_km: 4, fee: 2500 },
  { up_to_km: 6, fee: 3500 },
];
const radius = (radius_km: number, overrides: Partial<OwnDeliverySettings> = {}): OwnDeliverySettings => ({
  enabled: true,
  coverage: { radius_km },
  fee_bands: FEE_BANDS,
  duration_minutes: 35,
  ...overrides,
});

describe('ownDeliveryQuote', () => {
  test('picks the first band that reaches the distance', () => {
    const cases: [number, number][] = [
      [0, 1500],
      [1.9, 1500],
      [2.5, 2500],
      [3.99, 2500],
      [5, 3500],
    ];
    for (const [km, fee] of cases) {
      const quote = ownDeliveryQuote(radius(6), LOCATION, northBy(km));
      assert.equal(quote.covered, true, `${km} km`);
      if (quote.covered) {
        assert.equal(quote.fee_original, fee, `${km} km`);
        assert.equal(quote.duration_minutes, 35);
        assert.ok(Math.abs(quote.distance_km - km) < 1e-6);
      }
    }
  });

  test('a band reaches its own up_to_km exactly', () => {
    const dropoff = northBy(3);
    const exact = distanceKm(LOCATION, dropoff);
    const bands = [
      { up_to_km: exact, fee: 1000 },
      { up_to_km: 10, fee: 2000 },
    ];
    const quote = ownDeliveryQuote(radius(10, { fee_bands: bands }), LOCATION, dropoff);
    assert.deepEqual(quote.covered && quote.fee_original, 1000);
  });

  test('radius: a dropoff exactly at the radius is covered, just beyond is not', () => {
    const dropoff = northBy(3);
    const exact = distanceKm(LOCATION, dropoff);
    assert.equal(ownDeliveryQuote(radius(exact), LOCATION, dropoff).covered, true);
    assert.deepEqual(ownDeliveryQuote(radius(exact - 1e-9), LOCATION, dropoff), { covered: false, reason: 'outside_coverage' });
  });

  test('radius: far outside is not covered', () => {
    assert.deepEqual(ownDeliveryQuote(radius(5), LOCATION, northBy(5.5)), { covered: false, reason: 'outside_coverage' });
  });

  test('a radius larger than the last band: beyond the bands is not covered', () => {
    assert.deepEqual(ownDeliveryQuote(radius(10), LOCATION, northBy(7)), { covered: false, reason: 'beyond_fee_bands' });
  });

  describe('polygon coverage', () => {
    // A tall, thin rectangle around the location: reaching 9 km south and 5 km north, 1.8 km wide.
    const polygon: [number, number][] = [
      [-33.52, -70.66],
      [-33.52, -70.64],
      [-33.39, -70.64],
      [-33.39, -70.66],
    ];
    const own = radius(0, { coverage: { polygon } });

    test('a point inside is priced by distance', () => {
      const quote = ownDeliveryQuote(own, LOCATION, northBy(3));
      assert.equal(quote.covered && quote.fee_original, 2500);
    });

    test('a point outside is not covered even when close', () => {
      const eastOutside: LatLng = [LOCATION[0], -70.635];
      assert.ok(distanceKm(LOCATION, eastOutside) < 2);
      assert.deepEqual(ownDeliveryQuote(own, LOCATION, eastOutside), { covered: false, reason: 'outside_coverage' });
    });

    test('inside the polygon but beyond the last band is not covered', () => {
      assert.deepEqual(ownDeliveryQuote(own, LOCATION, [-33.5, -70.65]), { covered: false, reason: 'beyond_fee_bands' });
    });
  });

  test('disabled own delivery does not cover', () => {
    assert.deepEqual(ownDeliveryQuote(radius(6, { enabled: false }), LOCATION, northBy(1)), { covered: false, reason: 'disabled' });
  });

  test('a location without coordinates cannot price', () => {
    assert.deepEqual(ownDeliveryQuote(radius(6), null, northBy(1)), { covered: false, reason: 'location_without_coordinates' });
  });
});

describe('applySubsidies', () => {
  const freeOver20k: ShippingSubsidyRule = { type: 'free_over_subtotal', min_subtotal: 20000 };
  const halfUpTo1000: ShippingSubsidyRule = { type: 'percentage', percent: 50, max: 1000 };

  test('no rules: the customer pays everything', () => {
    assert.deepEqual(applySubsidies([], 50000, 2500), { fee: 2500, fee_original: 2500, fee_subsidy: 0 });
  });

  test('free over subtotal: free from the minimum on, full fee below it', () => {
    assert.deepEqual(applySubsidies([freeOver20k], 20000, 2500), { fee: 0, fee_original: 2500, fee_subsidy: 2500 });
    assert.deepEqual(applySubsidies([freeOver20k], 19999, 2500), { fee: 2500, fee_original: 2500, fee_subsidy: 0 });
  });

  test('percentage rounds the subsidy down', () => {
    const third: ShippingSubsidyRule = { type: 'percentage', percent: 33, max: 10000 };
    // 2990 × 33 / 100 = 986.7
    assert.deepEqual(applySubsidies([third], 0, 2990), { fee: 2004, fee_original: 2990, fee_subsidy: 986 });
  });

  test('percentage is capped at max', () => {
    assert.deepEqual(applySubsidies([halfUpTo1000], 0, 1500), { fee: 750, fee_original: 1500, fee_subsidy: 750 });
    assert.deepEqual(applySubsidies([halfUpTo1000], 0, 3000), { fee: 2000, fee_original: 3000, fee_subsidy: 1000 });
  });

  test('percentage below its min_subtotal does not apply', () => {
    const rule: ShippingSubsidyRule = { type: 'percentage', percent: 50, max: 1000, min_subtotal: 10000 };
    assert.deepEqual(applySubsidies([rule], 9999, 2000), { fee: 2000, fee_original: 2000, fee_subsidy: 0 });
    assert.deepEqual(applySubsidies([rule], 10000, 2000), { fee: 1000, fee_original: 2000, fee_subsidy: 1000 });
  });

  test('with several rules the largest subsidy wins, in any order', () => {
    const quarterUpTo5000: ShippingSubsidyRule = { type: 'percentage', percent: 25, max: 5000 };
    // 50% capped at 1000 vs 25% of 6000 = 1500.
    assert.equal(applySubsidies([halfUpTo1000, quarterUpTo5000], 0, 6000).fee_subsidy, 1500);
    assert.equal(applySubsidies([quarterUpTo5000, halfUpTo1000], 0, 6000).fee_subsidy, 1500);
    // Above 20000 the free delivery beats both.
    assert.deepEqual(applySubsidies([halfUpTo1000, freeOver20k, quarterUpTo5000], 25000, 6000), {
      fee: 0,
      fee_original: 6000,
      fee_subsidy: 6000,
    });
  });

  test('the fee is never negative: a cap above the fee subsidises only the fee', () => {
    const generous: ShippingSubsidyRule = { type: 'percentage', percent: 100, max: 999999 };
    assert.deepEqual(applySubsidies([generous], 0, 1200), { fee: 0, fee_original: 1200, fee_subsidy: 1200 });
    assert.deepEqual(applySubsidies([generous, freeOver20k], 30000, 0), { fee: 0, fee_original: 0, fee_subsidy: 0 });
  });

  test('an unknown rule type subsidises nothing', () => {
    const unknown = { type: 'dos_por_uno' } as unknown as ShippingSubsidyRule;
    assert.deepEqual(applySubsidies([unknown], 50000, 2000), { fee: 2000, fee_original: 2000, fee_subsidy: 0 });
  });
});
