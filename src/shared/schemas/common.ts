import Type from 'typebox';

/** A UUID; the API writes them lowercase and reads them in any case. */
export const Uuid = (description?: string) =>
  Type.String({
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    ...(description ? { description } : {}),
  });

/** ISO 8601 with seconds and the America/Santiago offset of that instant. */
export const DateTimeOut = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });

/** Any ISO 8601 date-time; without an offset it is America/Santiago local time. Checked by the service. */
export const DateTimeIn = (description?: string) =>
  Type.String({ minLength: 1, maxLength: 64, ...(description ? { description } : {}) });

export const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Machine-readable error code (see the reference).' }),
      message: Type.String({ description: 'What went wrong, for a person; never internals.' }),
    }),
  },
  { description: 'Every error has this shape.' },
);
