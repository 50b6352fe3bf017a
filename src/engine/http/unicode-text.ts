import { fieldPath } from './validation-messages.ts';

/** A JSON escape of a UTF-16 surrogate: the only way a lone one can get into a parsed body. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Where a parsed JSON body holds text that is not valid Unicode (a lone surrogate, written as a
 * `\ud800` escape), as a field path (`customer.name`); null when all its text is valid. Such text
 * cannot be stored as it came (SQLite keeps UTF-8, which turns it into U+FFFD), so the answer, the
 * change feed and the stored order would disagree. Iterative: a body may nest deep.
 */
export function illFormedTextIn(rawBody: string, parsed: unknown): string | null {
  if (!SURROGATE_ESCAPE.test(rawBody)) return null;
  const stack: { value: unknown; path: string }[] = [{ value: parsed, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return fieldPath(path, 'body');
    } else if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => stack.push({ value: item, path: `${path}/${index}` }));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const child = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
        if (LONE_SURROGATE.test(key)) return fieldPath(path, 'body');
        stack.push({ value: item, path: child });
      }
    }
  }
  return null;
}
