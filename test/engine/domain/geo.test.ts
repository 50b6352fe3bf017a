import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { distanceKm, isInsidePolygon, type LatLng } from '../../../src/engine/domain/geo.ts';

const KM_PER_DEGREE = (Math.PI / 180) * 6371.0088;
const PLAZA_DE_ARMAS: LatLng = [-33.4378, -70.6505];

describe('distanceKm', () => {
  test('is zero from a point to itself', () => {
    assert.equal(distanceKm(PLAZA_DE_ARMAS, PLAZA_DE_ARMAS), 0);
  });

  test('one degree along a meridian is about 111.2 km', () => {
    assert.ok(Math.abs(distanceKm([0, 0], [1, 0]) - KM_PER_DEGREE) < 1e-9);
  });

  test('one degree of longitude shrinks with latitude (cos 60° = 0.5)', () => {
    assert.ok(Math.abs(distanceKm([60, 10], [60, 11]) - KM_PER_DEGREE / 2) < 0.01);
  });

  test('is symmetric', () => {
    const providencia: LatLng = [-33.4263, -70.6174];
    assert.equal(distanceKm(PLAZA_DE_ARMAS, providencia), distanceKm(providencia, PLAZA_DE_ARMAS));
  });

  test('Santiago to Valparaíso is about 100 km in a straight line', () => {
    const distance = distanceKm([-33.4489, -70.6693], [-33.0472, -71.6127]);
    assert.ok(distance > 95 && distance < 105, `got ${distance}`);
  });

  test('antipodal points are half the circumference apart', () => {
    assert.ok(Math.abs(distanceKm([0, 0], [0, 180]) - 180 * KM_PER_DEGREE) < 1e-6);
  });
});

describe('isInsidePolygon', () => {
  // A square around Plaza de Armas, corners as [lat, lng], not closed explicitly.
  const square: LatLng[] = [
    [-33.45, -70.66],
    [-33.45, -70.64],
    [-33.43, -70.64],
    [-33.43, -70.66],
  ];

  test('a point inside the square', () => {
    assert.equal(isInsidePolygon(PLAZA_DE_ARMAS, square), true);
  });

  test('points outside on every side', () => {
    for (const point of [
      [-33.46, -70.65],
      [-33.42, -70.65],
      [-33.44, -70.67],
      [-33.44, -70.63],
    ] as LatLng[]) {
      assert.equal(isInsidePolygon(point, square), false, `${point}`);
    }
  });

  test('an explicitly closed polygon gives the same answers', () => {
    const closed = [...square, square[0]!];
    assert.equal(isInsidePolygon(PLAZA_DE_ARMAS, closed), true);
    assert.equal(isInsidePolygon([-33.46, -70.65], closed), false);
  });

  test('a concave polygon: the notch is outside', () => {
    // An L shape: the square minus its north-east quarter.
    const lShape: LatLng[] = [
      [-33.45, -70.66],
      [-33.45, -70.64],
      [-33.44, -70.64],
      [-33.44, -70.65],
      [-33.43, -70.65],
      [-33.43, -70.66],
    ];
    assert.equal(isInsidePolygon([-33.445, -70.645], lShape), true);
    assert.equal(isInsidePolygon([-33.435, -70.655], lShape), true);
    assert.equal(isInsidePolygon([-33.435, -70.645], lShape), false);
  });

  test('a triangle', () => {
    const triangle: LatLng[] = [
      [0, 0],
      [0, 2],
      [2, 0],
    ];
    assert.equal(isInsidePolygon([0.5, 0.5], triangle), true);
    assert.equal(isInsidePolygon([1.5, 1.5], triangle), false);
  });
});
