import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mentionsAllergy } from '../../src/shared/allergy-notes.ts';

test('a note that mentions an allergy is told apart, whatever its case and accents; an ordinary note is not', () => {
  for (const note of ['ALERGIA al maní', 'alérgico a los mariscos', 'Sin gluten por favor', 'es celíaca', 'peanut allergy', 'sin MANI']) assert.equal(mentionsAllergy(note), true, note);
  for (const note of ['bien doradas', 'sin mayo', 'manito de cerdo', 'mañana retira', 'Ingresado en la caja']) assert.equal(mentionsAllergy(note), false, note);
  assert.equal(mentionsAllergy('sin cilantro'), false);
  assert.equal(mentionsAllergy('sin cilantro', ['cilantro']), true);
});
