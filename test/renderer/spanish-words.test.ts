// No English word in the Spanish screens: every Spanish string the screens draw is scanned for the
// known English words (support/spanish-words.ts); the rendered board is scanned too
// (board-rush.e2e.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { es } from '../../src/renderer/src/locales/es.ts';
import { es as informesEs } from '../../src/renderer/src/reports/informes-text.ts';
import { englishIn } from './support/spanish-words.ts';

test('no Spanish string of the screens holds a known English word', () => {
  const found = Object.entries({ ...es, ...informesEs }).flatMap(([key, text]) => englishIn(String(text)).map((word) => `${key}: "${word}" in "${text}"`));
  assert.deepEqual(found, []);
});

test('the scan finds an English word where there is one, and not inside a Spanish word or a placeholder', () => {
  assert.deepEqual(englishIn('Access token (producción)'), ['access token', 'token']);
  assert.deepEqual(englishIn('Pantalla: Expo'), ['expo']);
  assert.deepEqual(englishIn('#{number} → {target} · {undo} 3s'), []);
  assert.deepEqual(englishIn('Exposición'), []);
});
