import type { ErrorObject } from 'ajv';

/** `/items/2/quantity` → `items[2].quantity`. */
export function fieldPath(instancePath: string, part: string): string {
  const segments = instancePath.split('/').slice(1).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  let path = '';
  for (const segment of segments) path += /^\d+$/.test(segment) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
  return path === '' ? (part === 'body' ? 'body' : part) : path;
}

function join(path: string, child: string): string {
  return path === 'body' || path === 'querystring' || path === 'params' || path === 'headers' ? child : `${path}.${child}`;
}

/**
 * One clear sentence from Ajv's errors, naming the field: `items[2].quantity must be >= 1`.
 * For a nullable field Ajv reports each branch of the anyOf; the message joins the types.
 */
export function describeValidationErrors(errors: ErrorObject[], part: string): string {
  const first = errors[0];
  if (!first) return `invalid ${part}`;
  const anyOf = errors.find((e) => e.keyword === 'anyOf');
  if (anyOf) {
    const path = anyOf.instancePath;
    const specific = errors.find((e) => e.instancePath.startsWith(path) && e.keyword !== 'type' && e.keyword !== 'anyOf' && e.keyword !== 'const');
    if (!specific) {
      const types = errors.filter((e) => e.keyword === 'type' && e.instancePath === path).map((e) => String(e.params.type));
      return `${fieldPath(path, part)} must be ${[...new Set(types)].join(' or ')}`;
    }
    return describeOne(specific, part);
  }
  return describeOne(first, part);
}

function describeOne(error: ErrorObject, part: string): string {
  const path = fieldPath(error.instancePath, part);
  switch (error.keyword) {
    case 'required':
      return `${join(path, String(error.params.missingProperty))} is required`;
    case 'enum':
      return `${path} must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
    case 'pattern':
      if (error.params.pattern === '\\S') return `${path} must not be blank`;
      return /uuid|\[0-9a-fA-F\]\{8\}/.test(String(error.params.pattern)) ? `${path} must be a UUID` : `${path} is badly formatted`;
    case 'format':
      return `${path} must be a valid ${String(error.params.format)}`;
    case 'minItems':
      return `${path} must have at least ${String(error.params.limit)} element${error.params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `${path} must have at most ${String(error.params.limit)} elements`;
    case 'minLength':
      return error.params.limit === 1 ? `${path} must not be empty` : `${path} must be at least ${String(error.params.limit)} characters`;
    case 'maxLength':
      return `${path} must be at most ${String(error.params.limit)} characters`;
    default:
      return `${path} ${error.message ?? 'is invalid'}`;
  }
}
