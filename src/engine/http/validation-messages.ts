import type { ErrorObject } from 'ajv';
import { NO_NUL_PATTERN, NOT_BLANK_NO_NUL_PATTERN } from '../../shared/schemas/common.ts';

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

/** The refusal's own words, when the schema that refused gives them (`x-message`). */
function schemaMessage(error: ErrorObject): string | null {
  const parent: unknown = error.parentSchema;
  if (parent === null || typeof parent !== 'object') return null;
  const message = (parent as Record<string, unknown>)['x-message'];
  return typeof message === 'string' ? message : null;
}

function describeOne(error: ErrorObject, part: string): string {
  const own = schemaMessage(error);
  if (own !== null) return own;
  const path = fieldPath(error.instancePath, part);
  switch (error.keyword) {
    case 'required':
      return `${join(path, String(error.params.missingProperty))} is required`;
    case 'discriminator': {
      const tag = String(error.params.tag);
      if (error.params.tagValue === undefined) return `${join(path, tag)} is required`;
      const branches = ((error.parentSchema as { oneOf?: { properties?: Record<string, { const?: unknown }> }[] } | undefined)?.oneOf ?? []);
      const values = branches.map((branch) => branch.properties?.[tag]?.const).filter((value) => value !== undefined);
      return `${join(path, tag)} must be one of: ${values.join(', ')}`;
    }
    case 'additionalProperties':
      return `${join(path, String(error.params.additionalProperty))} is not a field of this request`;
    case 'enum':
      return `${path} must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
    case 'pattern':
      if (error.params.pattern === NO_NUL_PATTERN) return `${path} must not hold a NUL character (U+0000)`;
      if (error.params.pattern === NOT_BLANK_NO_NUL_PATTERN) {
        // verbose: the refused value is at hand, to say which of the two rules it broke.
        return typeof error.data === 'string' && error.data.includes('\u0000') ? `${path} must not hold a NUL character (U+0000)` : `${path} must not be blank`;
      }
      return /uuid|\[0-9a-fA-F\]\{8\}/.test(String(error.params.pattern)) ? `${path} must be a UUID` : `${path} is badly formatted`;
    case 'format':
      if (error.params.format === 'uuid') return `${path} must be a UUID`;
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
