// The date-time pattern the OpenAPI document gives (DATE_TIME_IN_PATTERN) and what the engine reads
// (parseInstant) agree: a text the pattern accepts is never refused later, and impossible dates do
// not match it. A generated client checking the pattern and the engine answer the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseInstant } from '../../src/engine/domain/time.ts';
import { DATE_TIME_IN_PATTERN } from '../../src/shared/schemas/common.ts';

const pattern = new RegExp(DATE_TIME_IN_PATTERN);
const digits = (n: number) => fc.integer({ min: 0, max: 10 ** n - 1 }).map((x) => String(x).padStart(n, '0'));
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

test('the texts the issue found and the edges: the pattern and the engine answer the same', () => {
  const cases: [string, boolean][] = [
    ['5301-15-75 90:08:75.5', false],
    ['2026-11-21T20:00:00-03:00', true],
    ['2026-11-21 20:00', true],
    ['2026-11-21T20:00z', true],
    ['2026-11-21T20:00:00.123456789Z', true],
    ['2024-02-29T10:00', true],
    ['2000-02-29T10:00', true],
    ['2023-02-29T10:00', false],
    ['1900-02-29T10:00', false],
    ['2026-04-31T10:00', false],
    ['2026-11-21T24:00', false],
    ['2026-11-21T23:60', false],
    ['2026-11-21T23:59:60', false],
    ['2026-11-21T10:00+14:00', true],
    ['2026-11-21T10:00+25:00', false],
    ['2026-11-21T10:00+00:60', false],
    ['2026-11-21t10:00', false],
  ];
  for (const [text, valid] of cases) {
    assert.equal(pattern.test(text), valid, `pattern on ${text}`);
    assert.equal(parseInstant(text) !== null, valid, `engine on ${text}`);
  }
});

test('any text of the date-time shape the pattern accepts, the engine reads', () => {
  const shaped = fc
    .tuple(digits(4), digits(2), digits(2), fc.constantFrom('T', ' '), digits(2), digits(2), fc.option(digits(2)), fc.option(fc.integer({ min: 1, max: 9 }).chain(digits)))
    .chain(([y, mo, d, sep, h, mi, s, f]) =>
      fc.constantFrom('', 'Z', 'z', '+', '-').chain((zone) =>
        fc.tuple(digits(2), fc.constantFrom('', ':', null), digits(2)).map(([oh, colon, om]) => {
          const seconds = s === null ? '' : `:${s}${f === null ? '' : `.${f}`}`;
          const offset = zone === '+' || zone === '-' ? `${zone}${oh}${colon === null ? '' : `${colon}${om}`}` : zone;
          return `${y}-${mo}-${d}${sep}${h}:${mi}${seconds}${offset}`;
        }),
      ),
    );
  fc.assert(fc.property(shaped, (text) => !pattern.test(text) || parseInstant(text) !== null), { numRuns: 50_000 });
});

test('on plausible date-times (any day 1–31, offsets up to 14 h) the pattern accepts exactly what the engine reads', () => {
  const plausible = fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 31 }),
      fc.integer({ min: 0, max: 23 }),
      fc.integer({ min: 0, max: 59 }),
      fc.integer({ min: 0, max: 59 }),
      fc.integer({ min: 0, max: 14 }),
      fc.integer({ min: 0, max: 59 }),
      fc.constantFrom('+', '-'),
    )
    .map(([y, mo, d, h, mi, s, oh, om, sign]) => `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${sign}${pad(oh)}:${pad(om)}`);
  fc.assert(fc.property(plausible, (text) => pattern.test(text) === (parseInstant(text) !== null)), { numRuns: 50_000 });
});
