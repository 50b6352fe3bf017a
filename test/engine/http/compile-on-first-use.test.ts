import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import Fastify from 'fastify';
import { buildSerializerOnFirstUse, validateOnFirstUse } from '../../../src/engine/http/compile-on-first-use.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';

describe('validators and serializers compiled on first use', () => {
  test('a validator compiles once, on its first call, and says why it refused', () => {
    const ajv = new Ajv({ useDefaults: true, allErrors: false });
    let compiled = 0;
    const validate = validateOnFirstUse(() => {
      compiled++;
      return ajv.compile({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
    });
    assert.equal(compiled, 0);
    assert.equal(validate({ n: 1 }), true);
    assert.equal(validate({ n: 'one' }), false);
    assert.equal(validate.errors?.[0]?.instancePath, '/n');
    assert.equal(validate({ n: 2 }), true);
    assert.equal(validate.errors, null);
    assert.equal(compiled, 1);
  });

  test('through Fastify: defaults set on a whole query string, refusals answered 400, responses written by their schema', async () => {
    const ajv = new Ajv({ useDefaults: true, coerceTypes: true });
    let compiled = 0;
    const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: buildSerializerOnFirstUse } } });
    app.setValidatorCompiler(({ schema }) =>
      validateOnFirstUse(() => {
        compiled++;
        return ajv.compile(schema as object);
      }),
    );
    app.get(
      '/things',
      {
        schema: {
          querystring: { type: 'object', properties: { limit: { type: 'integer', default: 20, maximum: 100 } } },
          response: { 200: { type: 'object', properties: { limit: { type: 'integer' } } } },
        },
      },
      (request) => ({ limit: (request.query as { limit: number }).limit, secret: 'not in the schema' }),
    );
    try {
      await app.ready();
      assert.equal(compiled, 0, 'nothing compiled at start');
      const plain = await app.inject({ method: 'GET', url: '/things' });
      assert.equal(plain.statusCode, 200);
      assert.deepEqual(plain.json(), { limit: 20 }, 'the default set, the property outside the schema left out');
      const refused = await app.inject({ method: 'GET', url: '/things?limit=500' });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.json().message, /must be <= 100/);
      assert.equal(compiled, 1);
    } finally {
      await app.close();
    }
  });

  describe("every route of the engine's API", () => {
    let engine: EngineUnderTest;
    before(async () => {
      engine = await startEngineUnderTest();
    });
    after(async () => {
      await engine.stop();
    });

    test('compiles its validators when first called: no route answers 500 to a request its schemas check', async () => {
      const document = (await engine.call('GET', '/openapi.json', { key: null })).body as {
        paths: Record<string, Record<string, { requestBody?: unknown }>>;
      };
      const key = engine.demo[0]!.keys.test_write;
      let operations = 0;
      for (const [path, item] of Object.entries(document.paths)) {
        const concrete = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        for (const [method, operation] of Object.entries(item)) {
          operations++;
          const answer = await engine.call(method.toUpperCase(), concrete, {
            key,
            ...(operation.requestBody ? { body: { unexpected: true } } : {}),
          });
          assert.notEqual(answer.status, 500, `${method} ${path}: ${answer.text}`);
        }
      }
      assert.ok(operations >= 10, `${operations} operations`);
    });
  });
});
