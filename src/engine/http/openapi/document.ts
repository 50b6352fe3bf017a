// The OpenAPI document's frame and its last pass. @fastify/swagger generates the document from the
// route schemas (the ones that validate requests); this pass only names what the schemas mark as
// components, sets response headers' `required`, and adds the demo restaurants' examples.
import { isDeepStrictEqual } from 'node:util';
import type { SwaggerOptions } from '@fastify/swagger';
import { RETURN_RESULTS } from '../../domain/payments.ts';
import examples from './examples.json' with { type: 'json' };
import { TAGS } from './operations.ts';

type Json = Record<string, unknown>;

const COMPONENT_MARK = 'x-component';
const REQUIRED_MARK = 'x-required';

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Replaces every schema marked `x-component` with a `$ref` to `#/components/schemas/<name>`. Two
 * different schemas under one name are a programming error, reported at once.
 */
function hoistComponents(node: unknown, components: Json): unknown {
  if (Array.isArray(node)) return node.map((item) => hoistComponents(item, components));
  if (!isObject(node)) return node;
  const copy: Json = {};
  for (const [key, value] of Object.entries(node)) if (key !== COMPONENT_MARK) copy[key] = hoistComponents(value, components);
  const name = node[COMPONENT_MARK];
  if (typeof name !== 'string') return copy;
  const known = components[name];
  if (known !== undefined && !isDeepStrictEqual(known, copy)) {
    throw new Error(`OpenAPI: two different schemas are named ${name}`);
  }
  components[name] = copy;
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * A discriminator's `mapping`, from the `const` of its property in each named branch: without it,
 * OpenAPI would take the branches' schema names as the property's values. (The engine's Ajv
 * refuses `mapping`, so the schemas cannot carry it themselves.)
 */
function mapDiscriminators(schemas: Json): void {
  for (const schema of Object.values(schemas)) {
    if (!isObject(schema) || !isObject(schema.discriminator) || schema.discriminator.mapping !== undefined) continue;
    const tag = String(schema.discriminator.propertyName);
    const branches = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
    const mapping: Record<string, string> = {};
    for (const branch of branches ?? []) {
      const ref = isObject(branch) && typeof branch.$ref === 'string' ? branch.$ref : null;
      const target = ref ? schemas[ref.replace('#/components/schemas/', '')] : undefined;
      const properties = isObject(target) && isObject(target.properties) ? target.properties : {};
      const value = isObject(properties[tag]) ? properties[tag].const : undefined;
      if (ref === null || typeof value !== 'string') {
        throw new Error(
          `OpenAPI: a branch of a discriminator on ${tag} has no named schema with a const ${tag}: ${JSON.stringify(branch)}`,
        );
      }
      mapping[value] = ref;
    }
    schema.discriminator.mapping = mapping;
  }
}

/** Response headers: the `x-required` mark of their schema becomes the header's `required`. */
function finishHeaders(paths: Json): void {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item as Json)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue;
      for (const response of Object.values(operation.responses)) {
        if (!isObject(response) || !isObject(response.headers)) continue;
        for (const header of Object.values(response.headers)) {
          if (!isObject(header) || !isObject(header.schema)) continue;
          if (header.schema[REQUIRED_MARK] === true) header.required = true;
          delete header.schema[REQUIRED_MARK];
        }
      }
    }
  }
}

interface OperationExamples {
  request?: Json;
  responses: Record<string, Json>;
}

/** The demo restaurants' examples (examples.json), by operationId and status. */
function addExamples(paths: Json): void {
  const byOperation = examples as Record<string, OperationExamples>;
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item as Json)) {
      if (!isObject(operation) || typeof operation.operationId !== 'string') continue;
      const found = byOperation[operation.operationId];
      if (!found) continue;
      const media = (container: unknown) => (isObject(container) && isObject(container.content) ? container.content['application/json'] : undefined);
      const requestMedia = media(operation.requestBody);
      if (found.request && isObject(requestMedia)) requestMedia.examples = found.request;
      for (const [status, named] of Object.entries(found.responses)) {
        const responseMedia = media(isObject(operation.responses) ? operation.responses[status] : undefined);
        if (!isObject(responseMedia)) throw new Error(`OpenAPI: examples for ${operation.operationId} ${status}, which it does not answer`);
        responseMedia.examples = named;
      }
    }
  }
}

/**
 * The redirect to `return_url` after the payment page, described as a callback: it is the
 * customer's browser that follows it (303), with `order_id` and `payment` in the query string.
 */
const paymentReturn = {
  '{$request.body#/return_url}': {
    get: {
      operationId: 'paymentReturn',
      summary: 'The customer comes back to return_url',
      description:
        'Not a call this API makes: the payment page redirects the customer\'s browser (303) to `return_url` with these query parameters added. Confirm with GET /orders/{order_id}: the order is paid when `payment.paid` is true. A failed or abandoned payment leaves the order `pendiente_pago`, payable again at the same `payment_url` until it expires.',
      tags: ['orders'],
      security: [],
      parameters: [
        { name: 'order_id', in: 'query', required: true, description: 'The order\'s id.', schema: { type: 'string', format: 'uuid' } },
        {
          name: 'payment',
          in: 'query',
          required: true,
          description:
            '`success`: the payment is confirmed; `failed`: it was refused; `pending`: not confirmed yet (a provider such as Mercado Pago sent the customer back before its notification, or the payment is in process): read the order until `payment.paid`; `cancelled`: the customer abandoned the payment, or the order was cancelled or expired. Whatever it says, confirm with GET /orders/{order_id}.',
          schema: { enum: [...RETURN_RESULTS] },
        },
      ],
      responses: {
        '200': { description: 'The store front\'s page for the customer (its own business, not this API\'s).' },
        '4XX': { description: 'The store front\'s own refusal, for example of an unknown order_id.' },
      },
    },
  },
};

function finishDocument(document: Json): Json {
  const components = isObject(document.components) ? document.components : {};
  const schemas: Json = { ...(isObject(components.schemas) ? components.schemas : {}) };
  const paths = hoistComponents(document.paths, schemas) as Json;
  mapDiscriminators(schemas);
  finishHeaders(paths);
  addExamples(paths);
  const createOrder = isObject(paths['/orders']) ? (paths['/orders'] as Json).post : undefined;
  if (isObject(createOrder)) createOrder.callbacks = { paymentReturn };
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return { ...document, paths, components: { ...components, schemas: sorted } };
}

export const SWAGGER_OPTIONS: SwaggerOptions = {
  // OpenAPI 3.1 is JSON Schema 2020-12: `const` stays `const` (currency, event types).
  convertConstToEnum: false,
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Restaurant Ordering API',
      version: '1.0',
      description:
        'The Comanda engine\'s Restaurant Ordering API v1. Keys are `cm_live_…` (production) or `cm_test_…` (sandbox: its own world of test orders, simulated writes and a simulated payment page). Every answer to an authenticated request carries `RateLimit-*` headers; writes accept `Idempotency-Key`. docs/api-reference.md states every decision on what the specification leaves open.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      contact: { name: 'Comanda maintainers', email: 'maintainers@users.noreply.a-seed-8581ae00.example' },
    },
    servers: [{ url: '/v1', description: 'The engine\'s base path, e.g. http://127.0.0.1:4750/v1 (npm run serve).' }],
    tags: TAGS,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            '`Authorization: Bearer cm_live_…` or `cm_test_…` (40 characters). Every key reads; writes need a key issued with the write permission: each operation names what it needs in `x-required-permission` (`read` or `write`).',
        },
      },
    },
    security: [{ bearer: [] }],
  },
  transformObject: (generated) => finishDocument((generated as { openapiObject: Json }).openapiObject),
};
