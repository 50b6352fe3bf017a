// The most the pickup screen says about a customer: the first word of the name, never the surname.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstNameOf } from '../../../src/engine/domain/pickup-first-name.ts';
import { PICKUP_FIRST_NAME_MAX } from '../../../src/shared/screen-contract/pickup.ts';

test('the first word of the name, never the surname or a second name', () => {
  assert.equal(firstNameOf('María José Pérez Soto'), 'María');
  assert.equal(firstNameOf('  Ñandú\tGonzález '), 'Ñandú');
  assert.equal(firstNameOf('Ana'), 'Ana');
});

test('no name, an empty one or only spaces: nothing', () => {
  for (const name of [null, undefined, '', '   ', '\u200b\u202e']) assert.equal(firstNameOf(name), null, JSON.stringify(name));
});

test('invisible characters split words and never reach the screen; a long word is cut', () => {
  assert.equal(firstNameOf('Ana\u200bPérez'), 'Ana');
  assert.equal(firstNameOf('\u202eAna'), 'Ana');
  const long = firstNameOf('Maximiliano'.repeat(3));
  assert.equal(Array.from(long!).length, PICKUP_FIRST_NAME_MAX);
  assert.equal(firstNameOf('😀'.repeat(20)), '😀'.repeat(PICKUP_FIRST_NAME_MAX), 'cut by characters, not code units');
});
