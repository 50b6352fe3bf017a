/**
 * Names a schema for the OpenAPI document: every use of it becomes a `$ref` to
 * `#/components/schemas/<name>` (src/engine/http/openapi/document.ts). Validation ignores the mark.
 */
export function named<T extends object>(name: string, schema: T): T {
  return Object.assign(schema, { 'x-component': name });
}
