const MAX_ERROR_LENGTH = 500;

/** An outside party's failure as a short line to keep in a row (`last_error`) and show to staff. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.length > 0 ? text : 'unknown error').slice(0, MAX_ERROR_LENGTH);
}
