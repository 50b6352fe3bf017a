// Informes' dates (issue 33): written day first in the screen's language, not in the browser's
// locale; what a manager types is read day first, and a date that does not exist is not taken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { daysBefore, formatDay, parseDay } from '../../src/renderer/src/reports/report-format.ts';

test('a date is written 28-11-2026 in Spanish and 28/11/2026 in English, and read back', () => {
  assert.equal(formatDay('2026-11-28', 'es'), '28-11-2026');
  assert.equal(formatDay('2026-11-28', 'en'), '28/11/2026');
  for (const typed of ['28-11-2026', '28/11/2026', '28.11.2026', ' 28-11-2026 ', '2026-11-28']) assert.equal(parseDay(typed), '2026-11-28', typed);
  assert.equal(parseDay('1-2-2026'), '2026-02-01');
});

test('what is not a date is not taken: month first, a day that does not exist, a partial date', () => {
  for (const typed of ['11/28/2026', '31-02-2026', '29-02-2026', '28-11-26', '28-11', '', 'hoy']) assert.equal(parseDay(typed), null, typed);
  assert.equal(parseDay('29-02-2028'), '2028-02-29');
});

test('the day before a day crosses months and years (the quick periods count back from the engine\'s day)', () => {
  assert.equal(daysBefore('2026-03-01', 1), '2026-02-28');
  assert.equal(daysBefore('2026-01-05', 29), '2025-12-07');
  assert.equal(daysBefore('2026-11-28', 0), '2026-11-28');
});
