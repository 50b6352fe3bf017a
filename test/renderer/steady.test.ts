// Informes keeps what it read of the board while a re-read of the board brings the same data
// (issue 33, round 11: each 5-minute re-read drew the whole screen again, a long task in a replay).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { steadySelector } from '../../src/renderer/src/reports/steady.ts';

const snapshot = (names: string[]) => ({ stations: names.map((name, i) => ({ id: `st_${i}`, name })), tickets: names.length });

test('a re-read with new arrays of the same stations gives back the array already drawn', () => {
  const select = steadySelector((s: ReturnType<typeof snapshot>) => s.stations);
  const first = select(snapshot(['Parrilla', 'Fríos']));
  const again = select(snapshot(['Parrilla', 'Fríos']));
  assert.equal(again, first, 'the same array, by identity');
  assert.equal(select({ ...snapshot(['Parrilla', 'Fríos']), tickets: 99 }), first, 'other parts of the state do not count');
});

test('a station renamed, added or moved gives the new array, kept from then on', () => {
  const select = steadySelector((s: ReturnType<typeof snapshot>) => s.stations);
  const first = select(snapshot(['Parrilla', 'Fríos']));
  const renamed = select(snapshot(['Parrilla', 'Cocina fría']));
  assert.notEqual(renamed, first);
  assert.deepEqual(renamed.map((s) => s.name), ['Parrilla', 'Cocina fría']);
  assert.equal(select(snapshot(['Parrilla', 'Cocina fría'])), renamed);
  const added = select(snapshot(['Parrilla', 'Cocina fría', 'Postres']));
  assert.equal(added.length, 3);
  assert.notEqual(select(snapshot(['Cocina fría', 'Parrilla', 'Postres'])), added, 'another order is another list');
});

test('a value that is the same object passes through, and null is a value like any other', () => {
  const state = { restaurant: null as { time_zone: string } | null };
  const select = steadySelector((s: typeof state) => s.restaurant);
  assert.equal(select(state), null);
  const restaurant = { time_zone: 'America/Santiago' };
  assert.equal(select({ restaurant }), restaurant);
  assert.equal(select({ restaurant: { time_zone: 'America/Santiago' } }), restaurant);
  assert.equal(select({ restaurant: null }), null);
});
