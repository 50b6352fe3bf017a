import Type from 'typebox';

export { named } from './named.ts';
/** Every error's shape (errors.ts has the ones narrowed to a status). */
export { ErrorBody } from './errors.ts';

/**
 * A UUID the API reads, in any case; the pattern keeps `urn:uuid:` prefixes out, which the `uuid`
 * format alone would let in.
 */
export const Uuid = (description?: string) =>
  Type.String({
    format: 'uuid',
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    ...(description ? { description } : {}),
  });

/** A UUID the API writes (always lowercase). */
export const UuidOut = (description?: string) =>
  Type.String({ format: 'uuid', ...(description ? { description } : {}) });

/** ISO 8601 with seconds and the America/Santiago offset of that instant. */
export const DateTimeOut = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });

/** Years divisible by 4 and not by 100, or by 400 (0000 included): those with a 29 February. */
const LEAP_YEAR = '(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)';
/** A calendar date that exists: 1–28 in any month, 29–30 but in February, 31 in the long months, 29 February of a leap year. */
const CALENDAR_DATE = `(?:\\d{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)|${LEAP_YEAR}-02-29)`;
/** 00:00 to 23:59, seconds 00–59 and up to nine decimals optional. */
const CLOCK_TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?';
/** `Z`, or an offset of at most 14 hours (the widest in use), minutes optional. */
const UTC_OFFSET = '(?:Z|z|[+-](?:0\\d|1[0-4])(?::?[0-5]\\d)?)';

/**
 * The date-times the API reads: at least hours and minutes; any offset, `Z`, or none (local time).
 * Exactly what the engine reads (domain/time.ts parseInstant, test/shared/date-time-pattern.test.ts):
 * a text this pattern accepts is never refused later, so a generated client's check and the
 * engine's agree.
 */
export const DATE_TIME_IN_PATTERN = `^${CALENDAR_DATE}[T ]${CLOCK_TIME}${UTC_OFFSET}?$`;

/**
 * A date-time the API reads. Wider than RFC 3339's `date-time` (which needs seconds and an offset):
 * without an offset it is local time in the restaurant's zone. Impossible dates (a 13th month, a
 * 30 February, 24:00) do not match the pattern: the 400 comes from the schema, with this message.
 */
export const DateTimeIn = (name: string, description: string) =>
  Type.String({
    maxLength: 64,
    pattern: DATE_TIME_IN_PATTERN,
    description: `${description} ISO 8601 date-time with at least hours and minutes; any offset or \`Z\`; without an offset it is local time in the restaurant's zone (America/Santiago).`,
    examples: ['2026-11-21T20:00:00-03:00'],
    'x-message': `${name} must be an ISO 8601 date-time`,
  });

export const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * Text a request may carry holds no NUL (U+0000): PostgreSQL refuses NUL in text where SQLite stores
 * it, so the platform would fail a write the hub takes (issue 34). Every free text of a request is a
 * `Text` or a `NotBlankText` (a string with a pattern or an enum of its own refuses NUL already), so
 * the refusal is a 400 on both databases and the OpenAPI document says it. Linear patterns: no
 * backtracking grows with the text.
 */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';
/** Not blank (a character other than white space) and no NUL. */
export const NOT_BLANK_NO_NUL_PATTERN = '^\\s*[^\\s\\u0000][^\\u0000]*$';

/** Free text a request carries: any characters but NUL. */
export const Text = (options: Type.TStringOptions = {}) => Type.String({ ...options, pattern: NO_NUL_PATTERN });

/** Free text a request carries that must not be blank: a character other than white space, and no NUL. */
export const NotBlankText = (options: Type.TStringOptions = {}) => Type.String({ ...options, pattern: NOT_BLANK_NO_NUL_PATTERN });
