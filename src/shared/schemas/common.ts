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

/** The date-times the API reads: at least hours and minutes; any offset, `Z`, or none (local time). */
const DATE_TIME_IN_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|z|[+-]\\d{2}(:?\\d{2})?)?$';

/**
 * A date-time the API reads. Wider than RFC 3339's `date-time` (which needs seconds and an offset):
 * without an offset it is local time in the restaurant's zone. The service still refuses impossible
 * dates (a 13th month) with the same message.
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
