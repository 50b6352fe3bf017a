import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { formatInstant } from '../../../src/engine/domain/time.ts';

/** What formatInstant always answered: luxon's toISO at the whole second. */
const reference = (ms: number, zone: string) =>
  DateTime.fromMillis(Math.floor(ms / 1000) * 1000, { zone }).toISO({ suppressMilliseconds: true });

const ZONES = [
  'America/Santiago',
  'America/Punta_Arenas',
  'Pacific/Easter',
  'America/New_York',
  'America/St_Johns',
  'America/Caracas',
  'Europe/London',
  'Europe/Dublin',
  'Africa/Casablanca',
  'Asia/Tehran',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Apia',
  'Etc/UTC',
  'UTC',
  'utc',
  'Etc/GMT+4',
  'UTC-3',
];

test('formatInstant writes what luxon writes, for any instant in any zone', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...ZONES),
      fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2200, 0, 1) }),
      (zone, ms) => assert.equal(formatInstant(ms, zone), reference(ms, zone)),
    ),
    { numRuns: 20_000 },
  );
});

test('formatInstant is exact around every transition of several years', () => {
  for (const zone of ['America/Santiago', 'Australia/Lord_Howe', 'Africa/Casablanca', 'Europe/London']) {
    const from = Date.UTC(2022, 0, 1);
    const to = Date.UTC(2027, 0, 1);
    let previous = DateTime.fromMillis(from, { zone }).offset;
    for (let ms = from; ms < to; ms += 3_600_000) {
      const offset = DateTime.fromMillis(ms, { zone }).offset;
      if (offset !== previous) {
        // The hours around the transition, every 7 s (so every second of the minute comes up).
        for (let at = ms - 7_200_000; at < ms + 3_600_000; at += 7000) assert.equal(formatInstant(at, zone), reference(at, zone));
      }
      previous = offset;
    }
  }
});

test('formatInstant keeps the odd cases luxon handles: fractions of a second, far years, unknown zones', () => {
  assert.equal(formatInstant(Date.parse('2026-11-21T23:00:00.999Z')), '2026-11-21T20:00:00-03:00');
  assert.equal(formatInstant(Date.UTC(12000, 0, 1), 'America/Santiago'), reference(Date.UTC(12000, 0, 1), 'America/Santiago'));
  assert.equal(formatInstant(Date.UTC(200, 0, 1), 'Europe/London'), reference(Date.UTC(200, 0, 1), 'Europe/London'));
  assert.equal(formatInstant(0, 'Not/AZone'), reference(0, 'Not/AZone'));
  assert.equal(formatInstant(-1500, 'America/Santiago'), reference(-1500, 'America/Santiago'));
});
