import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  evaluateLocationStatus,
  isValidLocalDate,
  isValidTimeRange,
  isWithinSchedule,
  localDate,
  nextOpening,
  WEEKDAYS,
  type LocationScheduleInput,
  type ScheduleException,
  type TimeRange,
  type WeeklySchedule,
} from '../../../src/engine/domain/location-schedule.ts';

const SCL = 'America/Santiago';
const HOUR = 60 * 60 * 1000;
/** Epoch ms of an ISO string that always carries an explicit offset. */
const at = (iso: string): number => {
  assert.match(iso, /(Z|[+-]\d{2}:\d{2})$/, `test instant without offset: ${iso}`);
  const ms = Date.parse(iso);
  assert.ok(!Number.isNaN(ms), `bad test instant ${iso}`);
  return ms;
};

// November 2026 is summer time in Santiago (-03:00). 2026-11-16 is a Monday.
const WEEKDAY_HOURS: TimeRange[] = [
  ['09:00', '13:00'],
  ['15:00', '19:00'],
];
const OFFICE: WeeklySchedule = {
  mon: WEEKDAY_HOURS,
  tue: WEEKDAY_HOURS,
  wed: WEEKDAY_HOURS,
  thu: WEEKDAY_HOURS,
  fri: WEEKDAY_HOURS,
  sat: [['10:00', '14:00']],
};
const DAILY_9_TO_18: WeeklySchedule = Object.fromEntries(WEEKDAYS.map((day) => [day, [['09:00', '18:00']]]));

const within = (weekly: WeeklySchedule, iso: string, exceptions: ScheduleException[] = [], zone = SCL) =>
  isWithinSchedule(weekly, exceptions, zone, at(iso));
const next = (weekly: WeeklySchedule, iso: string, exceptions: ScheduleException[] = [], zone = SCL) =>
  nextOpening(weekly, exceptions, zone, at(iso));
const closedOn = (date: string): ScheduleException => ({ date, closed: true, hours: [] });
const hoursOn = (date: string, hours: TimeRange[]): ScheduleException => ({ date, closed: false, hours });

function input(overrides: Partial<LocationScheduleInput>): LocationScheduleInput {
  return {
    registerMode: 'schedule',
    isActive: true,
    registerOpen: false,
    weeklySchedule: OFFICE,
    exceptions: [],
    timeZone: SCL,
    ...overrides,
  };
}

describe('isValidTimeRange', () => {
  test('accepts HH:mm pairs, overnight ranges, 24:00 as closes and 24-hour ranges', () => {
    for (const range of [
      ['09:00', '18:00'],
      ['00:00', '23:59'],
      ['18:00', '02:00'],
      ['00:00', '24:00'],
      ['20:00', '24:00'],
      ['10:00', '10:00'],
      ['23:59', '00:00'],
    ] as TimeRange[]) {
      assert.equal(isValidTimeRange(range), true, range.join('-'));
    }
  });

  test('rejects malformed times, 24:00 as opens and out-of-range values', () => {
    for (const range of [
      ['24:00', '02:00'],
      ['9:00', '18:00'],
      ['09:00', '1800'],
      ['09:60', '10:00'],
      ['25:00', '26:00'],
      ['09:00', '24:01'],
      ['09:00', '24:30'],
      ['-1:00', '10:00'],
      ['09:00 ', '10:00'],
      ['', '10:00'],
    ] as TimeRange[]) {
      assert.equal(isValidTimeRange(range), false, range.join('-'));
    }
    assert.equal(isValidTimeRange(['09:00'] as unknown as TimeRange), false);
    assert.equal(isValidTimeRange(['09:00', '10:00', '11:00'] as unknown as TimeRange), false);
    assert.equal(isValidTimeRange([900, 1000] as unknown as TimeRange), false);
    assert.equal(isValidTimeRange('09:00-10:00' as unknown as TimeRange), false);
  });
});

describe('isValidLocalDate', () => {
  test('accepts real YYYY-MM-DD dates only', () => {
    assert.equal(isValidLocalDate('2026-09-06'), true);
    assert.equal(isValidLocalDate('2028-02-29'), true);
    assert.equal(isValidLocalDate('2026-02-29'), false);
    assert.equal(isValidLocalDate('2026-9-6'), false);
    assert.equal(isValidLocalDate('2026-13-01'), false);
    assert.equal(isValidLocalDate('2026-09-06T00:00'), false);
  });
});

describe('localDate', () => {
  test('is the calendar date in the zone, not in UTC', () => {
    assert.equal(localDate(at('2026-11-16T23:59:59.999-03:00'), SCL), '2026-11-16');
    assert.equal(localDate(at('2026-11-17T02:59:59.999Z'), SCL), '2026-11-16');
    assert.equal(localDate(at('2026-11-17T03:00:00Z'), SCL), '2026-11-17');
    assert.equal(localDate(at('2026-11-17T02:59:59.999Z'), 'UTC'), '2026-11-17');
  });

  test('follows both 2026 DST changes', () => {
    // fall back: 2026-04-05 00:00 -03 becomes 2026-04-04 23:00 -04, so 23:xx happens twice on 04-04
    assert.equal(localDate(at('2026-04-04T23:30:00-03:00'), SCL), '2026-04-04');
    assert.equal(localDate(at('2026-04-04T23:30:00-04:00'), SCL), '2026-04-04');
    assert.equal(localDate(at('2026-04-05T00:00:00-04:00'), SCL), '2026-04-05');
    // spring forward: 2026-09-06 00:00 -04 becomes 01:00 -03
    assert.equal(localDate(at('2026-09-05T23:59:59.999-04:00'), SCL), '2026-09-05');
    assert.equal(localDate(at('2026-09-06T01:00:00-03:00'), SCL), '2026-09-06');
  });

  test('an invalid zone throws', () => {
    assert.throws(() => localDate(0, 'Mars/Olympus'), RangeError);
    assert.throws(() => isWithinSchedule(OFFICE, [], 'Mars/Olympus', 0), RangeError);
  });
});

describe('evaluateLocationStatus', () => {
  const mondayMorning = at('2026-11-16T10:00:00-03:00'); // inside the schedule
  const sunday = at('2026-11-22T10:00:00-03:00'); // outside the schedule

  test('inactive location is closed with sucursal_desactivada in both modes', () => {
    const expected = { openNow: false, reason: 'sucursal_desactivada', nextOpeningAt: null };
    assert.deepEqual(evaluateLocationStatus(input({ isActive: false, registerMode: 'manual', registerOpen: true }), mondayMorning), expected);
    assert.deepEqual(evaluateLocationStatus(input({ isActive: false, registerMode: 'manual', registerOpen: false }), mondayMorning), expected);
    assert.deepEqual(evaluateLocationStatus(input({ isActive: false, registerMode: 'schedule' }), mondayMorning), expected);
    assert.deepEqual(evaluateLocationStatus(input({ isActive: false, registerMode: 'schedule' }), sunday), expected);
  });

  test('manual mode follows the cash register and ignores the schedule', () => {
    assert.deepEqual(evaluateLocationStatus(input({ registerMode: 'manual', registerOpen: true }), sunday), {
      openNow: true,
      reason: 'caja_abierta',
      nextOpeningAt: null,
    });
    assert.deepEqual(evaluateLocationStatus(input({ registerMode: 'manual', registerOpen: false }), mondayMorning), {
      openNow: false,
      reason: 'caja_cerrada',
      nextOpeningAt: null,
    });
    assert.deepEqual(evaluateLocationStatus(input({ registerMode: 'manual', registerOpen: false }), sunday), {
      openNow: false,
      reason: 'caja_cerrada',
      nextOpeningAt: null,
    });
  });

  test('schedule mode inside the hours is open with dentro_del_horario, ignoring the register', () => {
    assert.deepEqual(evaluateLocationStatus(input({ registerOpen: false }), mondayMorning), {
      openNow: true,
      reason: 'dentro_del_horario',
      nextOpeningAt: null,
    });
  });

  test('schedule mode outside the hours is closed with fuera_del_horario and the next opening', () => {
    assert.deepEqual(evaluateLocationStatus(input({ registerOpen: true }), sunday), {
      openNow: false,
      reason: 'fuera_del_horario',
      nextOpeningAt: at('2026-11-23T09:00:00-03:00'),
    });
  });

  test('schedule mode closed by an exception reports the opening after it', () => {
    assert.deepEqual(evaluateLocationStatus(input({ exceptions: [closedOn('2026-11-16')] }), mondayMorning), {
      openNow: false,
      reason: 'fuera_del_horario',
      nextOpeningAt: at('2026-11-17T09:00:00-03:00'),
    });
  });

  test('schedule mode with no opening in the next 14 days has nextOpeningAt null', () => {
    assert.deepEqual(evaluateLocationStatus(input({ weeklySchedule: {} }), mondayMorning), {
      openNow: false,
      reason: 'fuera_del_horario',
      nextOpeningAt: null,
    });
  });
});

describe('isWithinSchedule: weekly ranges', () => {
  test('opens is inclusive, closes exclusive', () => {
    assert.equal(within(OFFICE, '2026-11-16T08:59:59.999-03:00'), false);
    assert.equal(within(OFFICE, '2026-11-16T09:00:00-03:00'), true);
    assert.equal(within(OFFICE, '2026-11-16T12:59:59.999-03:00'), true);
    assert.equal(within(OFFICE, '2026-11-16T13:00:00-03:00'), false);
    assert.equal(within(OFFICE, '2026-11-16T14:59:59.999-03:00'), false);
    assert.equal(within(OFFICE, '2026-11-16T15:00:00-03:00'), true);
    assert.equal(within(OFFICE, '2026-11-16T18:59:59.999-03:00'), true);
    assert.equal(within(OFFICE, '2026-11-16T19:00:00-03:00'), false);
  });

  test('uses the weekday of the local date', () => {
    // 2026-11-21 is Saturday: 10:00-14:00; 2026-11-22 Sunday: closed
    assert.equal(within(OFFICE, '2026-11-21T09:30:00-03:00'), false);
    assert.equal(within(OFFICE, '2026-11-21T13:30:00-03:00'), true);
    assert.equal(within(OFFICE, '2026-11-21T15:30:00-03:00'), false);
    assert.equal(within(OFFICE, '2026-11-22T10:00:00-03:00'), false);
    // Sunday 23:30 local is Monday 02:30 UTC; Monday's hours must not apply
    assert.equal(within({ mon: [['00:00', '24:00']] }, '2026-11-23T02:30:00Z'), false);
    assert.equal(within({ mon: [['00:00', '24:00']] }, '2026-11-23T03:00:00Z'), true);
  });

  test('the zone parameter decides the local wall time', () => {
    assert.equal(within(OFFICE, '2026-11-16T09:30:00Z', [], 'UTC'), true);
    assert.equal(within(OFFICE, '2026-11-16T09:30:00Z', [], SCL), false); // 06:30 in Santiago
  });

  test('invalid ranges are ignored, valid ones still apply', () => {
    const weekly: WeeklySchedule = { mon: [['25:00', '26:00'], ['24:00', '01:00'], ['09:00', '10:00']] };
    assert.equal(within(weekly, '2026-11-16T09:30:00-03:00'), true);
    assert.equal(within(weekly, '2026-11-16T00:30:00-03:00'), false);
    assert.equal(next(weekly, '2026-11-16T08:00:00-03:00'), at('2026-11-16T09:00:00-03:00'));
  });

  test('"24:00" closes at the next local midnight', () => {
    const weekly: WeeklySchedule = { sat: [['20:00', '24:00']] };
    assert.equal(within(weekly, '2026-11-21T19:59:59.999-03:00'), false);
    assert.equal(within(weekly, '2026-11-21T20:00:00-03:00'), true);
    assert.equal(within(weekly, '2026-11-21T23:59:59.999-03:00'), true);
    assert.equal(within(weekly, '2026-11-22T00:00:00-03:00'), false);
  });

  test('"00:00"-"24:00" covers the whole day and chains with the next day', () => {
    const weekly: WeeklySchedule = { sun: [['00:00', '24:00']], mon: [['00:00', '01:00']] };
    assert.equal(within(weekly, '2026-11-21T23:59:59.999-03:00'), false);
    assert.equal(within(weekly, '2026-11-22T00:00:00-03:00'), true);
    assert.equal(within(weekly, '2026-11-22T23:59:59.999-03:00'), true);
    assert.equal(within(weekly, '2026-11-23T00:00:00-03:00'), true);
    assert.equal(within(weekly, '2026-11-23T01:00:00-03:00'), false);
  });

  test('opens == closes is a 24-hour range into the next day', () => {
    const weekly: WeeklySchedule = { mon: [['10:00', '10:00']] };
    assert.equal(within(weekly, '2026-11-16T09:59:59.999-03:00'), false);
    assert.equal(within(weekly, '2026-11-16T10:00:00-03:00'), true);
    assert.equal(within(weekly, '2026-11-17T09:59:59.999-03:00'), true);
    assert.equal(within(weekly, '2026-11-17T10:00:00-03:00'), false);
  });
});

describe('isWithinSchedule: ranges crossing midnight', () => {
  // Friday 2026-11-20 18:00 to Saturday 2026-11-21 02:00; Saturday has no hours of its own
  const LATE_FRIDAY: WeeklySchedule = { fri: [['18:00', '02:00']] };

  test('open before and after midnight, closed at closes', () => {
    assert.equal(within(LATE_FRIDAY, '2026-11-20T17:59:59.999-03:00'), false);
    assert.equal(within(LATE_FRIDAY, '2026-11-20T18:00:00-03:00'), true);
    assert.equal(within(LATE_FRIDAY, '2026-11-20T23:59:59.999-03:00'), true);
    assert.equal(within(LATE_FRIDAY, '2026-11-21T00:00:00-03:00'), true);
    assert.equal(within(LATE_FRIDAY, '2026-11-21T01:59:59.999-03:00'), true);
    assert.equal(within(LATE_FRIDAY, '2026-11-21T02:00:00-03:00'), false);
    // the previous Friday's range does not leak into Thursday night or Saturday evening
    assert.equal(within(LATE_FRIDAY, '2026-11-20T01:00:00-03:00'), false);
    assert.equal(within(LATE_FRIDAY, '2026-11-21T18:30:00-03:00'), false);
  });

  test('a closed exception on the start day closes the part after midnight too', () => {
    const exceptions = [closedOn('2026-11-20')];
    assert.equal(within(LATE_FRIDAY, '2026-11-20T20:00:00-03:00', exceptions), false);
    assert.equal(within(LATE_FRIDAY, '2026-11-21T01:00:00-03:00', exceptions), false);
    assert.equal(next(LATE_FRIDAY, '2026-11-21T01:00:00-03:00', exceptions), at('2026-11-27T18:00:00-03:00'));
  });

  test('an exception on the following day does not affect the range after midnight', () => {
    const exceptions = [closedOn('2026-11-21')];
    assert.equal(within(LATE_FRIDAY, '2026-11-21T01:00:00-03:00', exceptions), true);
  });

  test('an exception with other hours on the start day governs after midnight', () => {
    const exceptions = [hoursOn('2026-11-20', [['20:00', '01:00']])];
    assert.equal(within(LATE_FRIDAY, '2026-11-20T19:00:00-03:00', exceptions), false);
    assert.equal(within(LATE_FRIDAY, '2026-11-20T20:00:00-03:00', exceptions), true);
    assert.equal(within(LATE_FRIDAY, '2026-11-21T00:59:59.999-03:00', exceptions), true);
    assert.equal(within(LATE_FRIDAY, '2026-11-21T01:00:00-03:00', exceptions), false);
    assert.equal(within(LATE_FRIDAY, '2026-11-21T01:30:00-03:00', exceptions), false);
    assert.equal(next(LATE_FRIDAY, '2026-11-20T19:00:00-03:00', exceptions), at('2026-11-20T20:00:00-03:00'));
  });

  test('an overnight exception on a normally closed day', () => {
    const exceptions = [hoursOn('2026-11-22', [['22:00', '03:00']])]; // Sunday
    assert.equal(within(OFFICE, '2026-11-23T02:30:00-03:00', exceptions), true);
    assert.equal(within(OFFICE, '2026-11-23T03:00:00-03:00', exceptions), false);
    assert.equal(next(OFFICE, '2026-11-22T12:00:00-03:00', exceptions), at('2026-11-22T22:00:00-03:00'));
  });
});

describe('isWithinSchedule: exceptions', () => {
  test('closed exception removes all of that day ranges only', () => {
    const exceptions = [closedOn('2026-11-16')];
    assert.equal(within(OFFICE, '2026-11-16T10:00:00-03:00', exceptions), false);
    assert.equal(within(OFFICE, '2026-11-16T16:00:00-03:00', exceptions), false);
    assert.equal(within(OFFICE, '2026-11-17T10:00:00-03:00', exceptions), true);
    assert.equal(within(OFFICE, '2026-11-23T10:00:00-03:00', exceptions), true);
  });

  test('exception hours replace the weekly ranges of that day entirely', () => {
    const exceptions = [hoursOn('2026-11-16', [['11:00', '12:00']])];
    assert.equal(within(OFFICE, '2026-11-16T09:30:00-03:00', exceptions), false);
    assert.equal(within(OFFICE, '2026-11-16T11:00:00-03:00', exceptions), true);
    assert.equal(within(OFFICE, '2026-11-16T11:59:59.999-03:00', exceptions), true);
    assert.equal(within(OFFICE, '2026-11-16T12:00:00-03:00', exceptions), false);
    assert.equal(within(OFFICE, '2026-11-16T16:00:00-03:00', exceptions), false);
  });

  test('exception hours open a normally closed day', () => {
    const exceptions = [hoursOn('2026-11-22', [['12:00', '16:00']])];
    assert.equal(within(OFFICE, '2026-11-22T12:30:00-03:00', exceptions), true);
    assert.equal(within(OFFICE, '2026-11-29T12:30:00-03:00', exceptions), false);
  });

  test('a non-closed exception with no hours closes the day', () => {
    assert.equal(within(OFFICE, '2026-11-16T10:00:00-03:00', [hoursOn('2026-11-16', [])]), false);
  });

  test('several exceptions on one date: a closed one wins, otherwise hours are combined', () => {
    assert.equal(
      within(OFFICE, '2026-11-16T10:00:00-03:00', [hoursOn('2026-11-16', [['09:00', '11:00']]), closedOn('2026-11-16')]),
      false,
    );
    const split = [hoursOn('2026-11-16', [['08:00', '09:00']]), hoursOn('2026-11-16', [['20:00', '21:00']])];
    assert.equal(within(OFFICE, '2026-11-16T08:30:00-03:00', split), true);
    assert.equal(within(OFFICE, '2026-11-16T10:00:00-03:00', split), false);
    assert.equal(within(OFFICE, '2026-11-16T20:30:00-03:00', split), true);
  });
});

describe('nextOpening', () => {
  test('later today, between ranges and before the first', () => {
    assert.equal(next(OFFICE, '2026-11-16T13:30:00-03:00'), at('2026-11-16T15:00:00-03:00'));
    assert.equal(next(OFFICE, '2026-11-16T08:00:00-03:00'), at('2026-11-16T09:00:00-03:00'));
    assert.equal(next(OFFICE, '2026-11-16T00:00:00-03:00'), at('2026-11-16T09:00:00-03:00'));
  });

  test('strictly after: at or inside a range gives a later range start', () => {
    assert.equal(next(OFFICE, '2026-11-16T08:59:59.999-03:00'), at('2026-11-16T09:00:00-03:00'));
    assert.equal(next(OFFICE, '2026-11-16T09:00:00-03:00'), at('2026-11-16T15:00:00-03:00'));
    assert.equal(next(OFFICE, '2026-11-16T10:00:00-03:00'), at('2026-11-16T15:00:00-03:00'));
    assert.equal(next(OFFICE, '2026-11-16T16:00:00-03:00'), at('2026-11-17T09:00:00-03:00'));
  });

  test('tomorrow, and over a closed Sunday', () => {
    assert.equal(next(OFFICE, '2026-11-16T19:00:00-03:00'), at('2026-11-17T09:00:00-03:00'));
    assert.equal(next(OFFICE, '2026-11-20T23:00:00-03:00'), at('2026-11-21T10:00:00-03:00'));
    assert.equal(next(OFFICE, '2026-11-21T14:00:00-03:00'), at('2026-11-23T09:00:00-03:00'));
  });

  test('after a closed exception, and after several', () => {
    assert.equal(next(OFFICE, '2026-11-16T07:00:00-03:00', [closedOn('2026-11-16')]), at('2026-11-17T09:00:00-03:00'));
    const closedMonToWed = [closedOn('2026-11-16'), closedOn('2026-11-17'), closedOn('2026-11-18')];
    assert.equal(next(OFFICE, '2026-11-16T07:00:00-03:00', closedMonToWed), at('2026-11-19T09:00:00-03:00'));
  });

  test('uses the exception hours of a day', () => {
    const exceptions = [hoursOn('2026-11-17', [['11:30', '12:00']])];
    assert.equal(next(OFFICE, '2026-11-16T20:00:00-03:00', exceptions), at('2026-11-17T11:30:00-03:00'));
  });

  test('an overnight range started yesterday does not count as an opening', () => {
    const weekly: WeeklySchedule = { sun: [['22:00', '03:00']], mon: [['10:00', '12:00']] };
    assert.equal(next(weekly, '2026-11-23T01:00:00-03:00'), at('2026-11-23T10:00:00-03:00'));
  });

  test('none: empty schedule, or everything closed within 14 days', () => {
    assert.equal(next({}, '2026-11-16T10:00:00-03:00'), null);
    const mondays: WeeklySchedule = { mon: [['09:00', '13:00']] };
    const after = '2026-11-16T14:00:00-03:00'; // Monday, after the day's range
    assert.equal(next(mondays, after), at('2026-11-23T09:00:00-03:00'));
    // 14 local days ahead is still within the horizon
    assert.equal(next(mondays, after, [closedOn('2026-11-23')]), at('2026-11-30T09:00:00-03:00'));
    // the following Monday (21 days ahead) is beyond it
    assert.equal(next(mondays, after, [closedOn('2026-11-23'), closedOn('2026-11-30')]), null);
  });
});

describe('2026 fall back (2026-04-05 00:00 -03:00 becomes 2026-04-04 23:00 -04:00)', () => {
  // 2026-04-04 is a Saturday; 23:00-23:59 happens twice that night
  test('23:00-01:00 from Saturday lasts 3 hours and spans both 23:00s', () => {
    const weekly: WeeklySchedule = { sat: [['23:00', '01:00']] };
    const opens = at('2026-04-04T23:00:00-03:00'); // first 23:00
    const closes = at('2026-04-05T01:00:00-04:00');
    assert.equal(closes - opens, 3 * HOUR);
    assert.equal(within(weekly, '2026-04-04T22:59:59.999-03:00'), false);
    assert.equal(within(weekly, '2026-04-04T23:00:00-03:00'), true);
    assert.equal(within(weekly, '2026-04-04T23:59:59.999-03:00'), true);
    assert.equal(within(weekly, '2026-04-04T23:00:00-04:00'), true); // second 23:00
    assert.equal(within(weekly, '2026-04-05T00:59:59.999-04:00'), true);
    assert.equal(within(weekly, '2026-04-05T01:00:00-04:00'), false);
    assert.equal(next(weekly, '2026-04-04T20:00:00-03:00'), opens);
    assert.deepEqual(evaluateLocationStatus(input({ weeklySchedule: weekly }), at('2026-04-04T20:00:00-03:00')), {
      openNow: false,
      reason: 'fuera_del_horario',
      nextOpeningAt: opens,
    });
    assert.deepEqual(evaluateLocationStatus(input({ weeklySchedule: weekly }), at('2026-04-04T23:30:00-04:00')), {
      openNow: true,
      reason: 'dentro_del_horario',
      nextOpeningAt: null,
    });
  });

  test('00:00-02:00 on Sunday starts at the single midnight (-04:00) and lasts 2 hours', () => {
    const weekly: WeeklySchedule = { sun: [['00:00', '02:00']] };
    const opens = at('2026-04-05T00:00:00-04:00');
    const closes = at('2026-04-05T02:00:00-04:00');
    assert.equal(closes - opens, 2 * HOUR);
    // -03:00 midnight is the instant the clock went back to 23:00 of Saturday
    assert.equal(within(weekly, '2026-04-05T00:00:00-03:00'), false);
    assert.equal(within(weekly, '2026-04-04T23:59:59.999-04:00'), false);
    assert.equal(within(weekly, '2026-04-05T00:00:00-04:00'), true);
    assert.equal(within(weekly, '2026-04-05T01:59:59.999-04:00'), true);
    assert.equal(within(weekly, '2026-04-05T02:00:00-04:00'), false);
    // two real hours from the first 23:00 to the opening
    assert.equal(next(weekly, '2026-04-04T23:00:00-03:00'), opens);
    assert.equal(opens - at('2026-04-04T23:00:00-03:00'), 2 * HOUR);
  });

  test('"00:00"-"24:00" on Saturday lasts 25 hours', () => {
    const weekly: WeeklySchedule = { sat: [['00:00', '24:00']] };
    const opens = at('2026-04-04T00:00:00-03:00');
    const closes = at('2026-04-05T00:00:00-04:00');
    assert.equal(closes - opens, 25 * HOUR);
    assert.equal(next(weekly, '2026-04-03T12:00:00-03:00'), opens);
    assert.equal(within(weekly, '2026-04-03T23:59:59.999-03:00'), false);
    assert.equal(within(weekly, '2026-04-04T00:00:00-03:00'), true);
    assert.equal(within(weekly, '2026-04-04T23:59:59.999-04:00'), true);
    assert.equal(within(weekly, '2026-04-05T00:00:00-04:00'), false);
  });

  test('next day opening keeps the wall time across the offset change', () => {
    assert.equal(next(DAILY_9_TO_18, '2026-04-04T18:00:00-03:00'), at('2026-04-05T09:00:00-04:00'));
    assert.equal(at('2026-04-05T09:00:00-04:00') - at('2026-04-04T18:00:00-03:00'), 16 * HOUR);
    assert.equal(within(DAILY_9_TO_18, '2026-04-05T08:30:00-04:00'), false);
    assert.equal(within(DAILY_9_TO_18, '2026-04-05T09:00:00-04:00'), true);
    assert.equal(within(DAILY_9_TO_18, '2026-04-05T17:59:59.999-04:00'), true);
  });
});

describe('2026 spring forward (2026-09-06 00:00 -04:00 jumps to 01:00 -03:00)', () => {
  // 2026-09-05 is a Saturday; 00:00-00:59 of Sunday 2026-09-06 does not exist
  test('23:00-01:00 from Saturday lasts 1 hour', () => {
    const weekly: WeeklySchedule = { sat: [['23:00', '01:00']] };
    const opens = at('2026-09-05T23:00:00-04:00');
    const closes = at('2026-09-06T01:00:00-03:00');
    assert.equal(closes - opens, 1 * HOUR);
    assert.equal(within(weekly, '2026-09-05T22:59:59.999-04:00'), false);
    assert.equal(within(weekly, '2026-09-05T23:00:00-04:00'), true);
    assert.equal(within(weekly, '2026-09-05T23:59:59.999-04:00'), true);
    assert.equal(within(weekly, '2026-09-06T01:00:00-03:00'), false);
    assert.equal(next(weekly, '2026-09-05T20:00:00-04:00'), opens);
  });

  test('00:00-02:00 on Sunday starts after the gap (01:00 -03:00) and lasts 1 hour', () => {
    const weekly: WeeklySchedule = { sun: [['00:00', '02:00']] };
    const opens = at('2026-09-06T01:00:00-03:00');
    const closes = at('2026-09-06T02:00:00-03:00');
    assert.equal(closes - opens, 1 * HOUR);
    assert.equal(within(weekly, '2026-09-05T23:59:59.999-04:00'), false);
    assert.equal(within(weekly, '2026-09-06T01:00:00-03:00'), true);
    assert.equal(within(weekly, '2026-09-06T01:59:59.999-03:00'), true);
    assert.equal(within(weekly, '2026-09-06T02:00:00-03:00'), false);
    assert.equal(next(weekly, '2026-09-05T22:00:00-04:00'), opens);
    assert.equal(opens - at('2026-09-05T22:00:00-04:00'), 2 * HOUR);
    assert.deepEqual(evaluateLocationStatus(input({ weeklySchedule: weekly }), at('2026-09-05T23:30:00-04:00')), {
      openNow: false,
      reason: 'fuera_del_horario',
      nextOpeningAt: opens,
    });
  });

  test('Saturday 23:00-01:00 and Sunday 00:00-02:00 together cover 23:00 to 02:00 without a hole', () => {
    const weekly: WeeklySchedule = { sat: [['23:00', '01:00']], sun: [['00:00', '02:00']] };
    assert.equal(within(weekly, '2026-09-05T23:59:59.999-04:00'), true);
    assert.equal(within(weekly, '2026-09-06T01:00:00-03:00'), true);
    assert.equal(within(weekly, '2026-09-06T02:00:00-03:00'), false);
  });

  test('an opening time inside the gap is the first instant after it', () => {
    const weekly: WeeklySchedule = { sun: [['00:30', '03:00']] };
    const opens = at('2026-09-06T01:00:00-03:00'); // not 01:30
    assert.equal(next(weekly, '2026-09-05T20:00:00-04:00'), opens);
    assert.equal(within(weekly, '2026-09-06T01:00:00-03:00'), true);
    assert.equal(within(weekly, '2026-09-06T01:15:00-03:00'), true);
    assert.equal(within(weekly, '2026-09-05T23:59:59.999-04:00'), false);
  });

  test('a closing time inside the gap is the first instant after it', () => {
    const weekly: WeeklySchedule = { sat: [['22:00', '00:30']] };
    assert.equal(within(weekly, '2026-09-05T23:59:59.999-04:00'), true);
    assert.equal(within(weekly, '2026-09-06T01:00:00-03:00'), false);
  });

  test('a range entirely inside the gap never opens', () => {
    const weekly: WeeklySchedule = { sun: [['00:10', '00:40']] };
    assert.equal(within(weekly, '2026-09-06T01:00:00-03:00'), false);
    assert.equal(next(weekly, '2026-09-05T12:00:00-04:00'), at('2026-09-13T00:10:00-03:00'));
  });

  test('"24:00" on Saturday ends at the first instant of Sunday (01:00 -03:00)', () => {
    const weekly: WeeklySchedule = { sat: [['20:00', '24:00']] };
    const opens = at('2026-09-05T20:00:00-04:00');
    const closes = at('2026-09-06T01:00:00-03:00');
    assert.equal(closes - opens, 4 * HOUR);
    assert.equal(within(weekly, '2026-09-05T23:59:59.999-04:00'), true);
    assert.equal(within(weekly, '2026-09-06T01:00:00-03:00'), false);
  });

  test('a closed exception on Saturday closes its overnight range after the jump', () => {
    const weekly: WeeklySchedule = { sat: [['22:00', '02:00']] };
    assert.equal(within(weekly, '2026-09-06T01:30:00-03:00'), true);
    assert.equal(within(weekly, '2026-09-06T01:30:00-03:00', [closedOn('2026-09-05')]), false);
    assert.equal(within(weekly, '2026-09-06T01:30:00-03:00', [closedOn('2026-09-06')]), true);
  });

  test('next day opening keeps the wall time across the offset change', () => {
    assert.equal(next(DAILY_9_TO_18, '2026-09-05T18:00:00-04:00'), at('2026-09-06T09:00:00-03:00'));
    assert.equal(at('2026-09-06T09:00:00-03:00') - at('2026-09-05T18:00:00-04:00'), 14 * HOUR);
    assert.equal(within(DAILY_9_TO_18, '2026-09-06T08:59:59.999-03:00'), false);
    assert.equal(within(DAILY_9_TO_18, '2026-09-06T09:00:00-03:00'), true);
  });
});

describe('other zones', () => {
  test('a gap in the middle of the night (Europe/Madrid 2026-03-29 02:00 -> 03:00)', () => {
    const weekly: WeeklySchedule = { sun: [['02:30', '04:00']] };
    const zone = 'Europe/Madrid';
    assert.equal(next(weekly, '2026-03-28T12:00:00+01:00', [], zone), at('2026-03-29T03:00:00+02:00'));
    assert.equal(within(weekly, '2026-03-29T01:59:59.999+01:00', [], zone), false);
    assert.equal(within(weekly, '2026-03-29T03:00:00+02:00', [], zone), true);
    assert.equal(within(weekly, '2026-03-29T04:00:00+02:00', [], zone), false);
  });
});
