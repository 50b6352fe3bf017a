import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { ValidateFunction } from 'ajv';
import type { FastifyServerOptions } from 'fastify';

/**
 * Fastify compiles every route's request validators (Ajv) and response serializers
 * (fast-json-stringify) when the server starts: about a hundred functions, each built from source
 * text that V8 keeps, for routes most engines never call (a kitchen without online payments never
 * takes a payment notification). These wrappers compile each one on its first call instead, so
 * the engine carries only the routes it serves, and starts in half the time (docs/performance.md,
 * "Row 4's memory"). A schema that does not compile fails its route's first request instead of
 * the start-up: test/engine/http/compile-on-first-use.test.ts calls every documented route once.
 */

/** An Ajv validate function as Fastify calls it: with the value's parent, so a default can be set on the root value. */
interface LazyValidateFunction {
  (data: unknown, context?: Parameters<ValidateFunction>[1]): boolean;
  errors?: ValidateFunction['errors'];
  schemaEnv?: true;
}

export function validateOnFirstUse(compile: () => ValidateFunction): LazyValidateFunction {
  let validate: ValidateFunction | null = null;
  const lazy: LazyValidateFunction = (data, context) => {
    validate ??= compile();
    const result = validate(data, context);
    lazy.errors = validate.errors;
    return result;
  };
  // Fastify passes the parent (request, part) only to functions that look like Ajv's; Ajv needs it
  // to set a default on the root value.
  lazy.schemaEnv = true;
  return lazy;
}

type SerializerBuilder = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;

/** Fastify's own serializer builder (fast-json-stringify), each route's serializer compiled on its first use. */
export const buildSerializerOnFirstUse: SerializerBuilder = (externalSchemas, options) => {
  const compileSerializer = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((data: unknown) => string) | null = null;
    return (data: unknown) => (serialize ??= compileSerializer(route))(data);
  };
};
