import Type from 'typebox';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '../error-codes.ts';
import { named } from './named.ts';

/** The error codes answered with `status`, in the order of error-codes.ts. */
export function codesWithStatus(status: number): ErrorCode[] {
  return ERROR_CODES.filter((code) => ERROR_STATUS[code] === status);
}

/** Every error has this shape; `codes` are the ones this answer can carry. */
export function errorBody(name: string, codes: readonly ErrorCode[], description: string) {
  return named(
    name,
    Type.Object(
      {
        error: Type.Object({
          code: Type.Enum([...codes], { description: 'Machine-readable error code (docs/api-reference.md, Errors).' }),
          message: Type.String({ description: 'What went wrong, for a person; it names the field or the product. Never internals.' }),
        }),
      },
      { description },
    ),
  );
}

/** Any error of the API. */
export const ErrorBody = errorBody('Error', ERROR_CODES, 'Every error of the API has this shape.');
