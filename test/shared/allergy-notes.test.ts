import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mentionsAllergy } from '../../src/shared/allergy-notes.ts';

test('a note that mentions an allergy is told apart, whatever its case and accents; an ordinary note is not', () => {
  for (const note of ['ALERGIA al maní', 'alérgico a los mariscos', 'Sin gluten por favor', 'es celíaca', 'peanut allergy', 'sin MANI']) assert.equal(mentionsAllergy(note), true, note);
  for (const note of ['bien doradas', 'sin mayo', 'manito de cerdo', 'mañana retira', 'Ingresado en la caja']) assert.equal(mentionsAllergy(note), false, note);
  assert.equal(mentionsAllergy('sin cilantro'), false);
  assert.equal(mentionsAllergy('sin cilantro', ['cilantro']), true);
});

test("a restaurant's own words are folded like the note, and each list is its own: one asked again, another with other words", () => {
  const ours = ['Ají', '  pimentón  ', 'frutos secos', ''];
  for (let i = 0; i < 2; i++) {
    assert.equal(mentionsAllergy('SIN AJI', ours), true);
    assert.equal(mentionsAllergy('nada de Pimentones', ours), true);
    assert.equal(mentionsAllergy('sin frutos  secos!', ours), true);
    assert.equal(mentionsAllergy('sin cebolla', ours), false);
    assert.equal(mentionsAllergy('con maní', ours), true, 'the built-in words stay');
  }
  assert.equal(mentionsAllergy('sin cebolla', ['cebolla']), true);
  assert.equal(mentionsAllergy('SIN AJI', ['cebolla']), false);
  assert.equal(mentionsAllergy('sin nada', ['', '   ']), false, 'blank words match nothing');
});
