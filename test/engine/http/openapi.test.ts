import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { clientTypesText } from '../../../src/engine/http/openapi/generate.ts';
import { orderAndDeliver } from '../../../docs/examples/typed-client.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1 } from '../../support/demo-ids.ts';
import { assertConformsToDocument } from '../../support/openapi-conformance.ts';

const repoFile = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

type Json = Record<string, any>;

/** The document's schemas, for checking requests and examples the way an integrator's tools would. */
function documentAjv(document: Json): { ajv: Ajv2020; schema: (pointer: string) => object } {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: 'doc' });
  return { ajv, schema: (pointer) => ({ $ref: `doc#${pointer}` }) };
}

const escape = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

describe('the OpenAPI document', () => {
  let engine: EngineUnderTest;
  let document: Json;
  let served: string;

  before(async () => {
    engine = await startEngineUnderTest();
    const res = await engine.call('GET', '/openapi.json', { key: null });
    document = res.body;
    served = res.text;
  });
  after(async () => {
    await engine.stop();
  });

  test('docs/openapi.json is the served document (npm run openapi writes it)', () => {
    assert.equal(repoFile('docs/openapi.json'), `${JSON.stringify(JSON.parse(served), null, 2)}\n`, 'run npm run openapi');
  });

  test('every operation has an id, words, a tag, its permission, and the errors it can answer', () => {
    for (const [path, item] of Object.entries(document.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        const where = `${method} ${path}`;
        for (const field of ['operationId', 'summary', 'description']) assert.ok(operation[field], `${where} has ${field}`);
        assert.equal(operation.tags.length, 1, `${where} has a tag`);
        // The one operation without a key (a load balancer's): no permission, no key's refusals.
        if (operation.operationId === 'getHealth') {
          assert.deepEqual(operation.security, [], `${where} takes no key`);
          assert.deepEqual(Object.keys(operation.responses).sort(), ['200', '400', '503'], `${where} answers`);
          continue;
        }
        assert.ok(['read', 'write'].includes(operation['x-required-permission']), `${where} names its permission`);
        for (const status of ['400', '401', '429', '500']) assert.ok(operation.responses[status], `${where} documents ${status}`);
        assert.equal(Boolean(operation.responses['403']), operation['x-required-permission'] === 'write' || ['quoteDelivery'].includes(operation.operationId), `${where} 403`);
      }
    }
    const createOrder = document.paths['/orders'].post;
    assert.deepEqual(
      createOrder.responses['409'].content['application/json'].schema,
      { $ref: '#/components/schemas/CreateOrderConflict' },
    );
    assert.deepEqual(document.components.schemas.CreateOrderConflict.properties.error.properties.code.enum, [
      'location_inactive',
      'location_closed',
      'insufficient_stock',
      'state_conflict',
    ]);
    assert.equal(createOrder.responses['201'].headers['RateLimit-Remaining'].required, true);
    assert.equal(createOrder.responses['429'].headers['Retry-After'].required, true);
    assert.equal(createOrder.responses['401'].headers['WWW-Authenticate'].required, true);
    assert.ok(createOrder.responses['201'].headers['Idempotent-Replayed']);
  });

  test('every example validates against its schema', () => {
    const { ajv, schema } = documentAjv(document);
    let checked = 0;
    for (const [path, item] of Object.entries(document.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        const base = `/paths/${escape(path)}/${method}`;
        const media: [string, Json | undefined][] = [
          [`${base}/requestBody/content/application~1json`, operation.requestBody?.content?.['application/json']],
          ...Object.entries(operation.responses as Json).map(
            ([status, response]) => [`${base}/responses/${status}/content/application~1json`, response.content?.['application/json']] as [string, Json | undefined],
          ),
        ];
        for (const [pointer, found] of media) {
          for (const [name, example] of Object.entries((found?.examples ?? {}) as Json)) {
            const check = ajv.compile(schema(`${pointer}/schema`));
            assert.ok(check(example.value), `${operation.operationId} example ${name}: ${ajv.errorsText(check.errors)}`);
            checked += 1;
          }
        }
      }
    }
    assert.ok(checked >= 15, `${checked} examples checked`);
  });

  test('the document refuses what the engine refuses, and accepts what it accepts', async () => {
    const { ajv, schema } = documentAjv(document);
    const createOrder = ajv.compile(schema('/components/schemas/CreateOrderRequest'));
    const pickup = {
      location_id: R1.openLocation,
      type: 'retiro',
      customer: { name: 'Ana' },
      items: [{ product_id: R1.products.bebidaLata, quantity: 1 }],
    };
    const bodies: [string, Json][] = [
      ['pickup', pickup],
      ['delivery with address', { ...pickup, type: 'delivery', address: 'Av. Irarrázaval 2800' }],
      ['delivery without address', { ...pickup, type: 'delivery' }],
      ['delivery with a blank address', { ...pickup, type: 'delivery', address: '  ' }],
      ['delivery with a null address', { ...pickup, type: 'delivery', address: null }],
      ['online without return_url', { ...pickup, payment: 'online' }],
      ['online with an http return_url', { ...pickup, payment: 'online', return_url: 'http://tienda.example.com/ok' }],
      ['payment_method with external payment', { ...pickup, payment_method: 'tarjeta' }],
      ['scheduled_for not a date-time', { ...pickup, scheduled_for: 'mañana' }],
      ['scheduled_for without seconds or offset', { ...pickup, scheduled_for: '2026-11-22 13:00' }],
      ['a urn:uuid location_id', { ...pickup, location_id: `urn:uuid:${R1.openLocation}` }],
      ['an uppercase uuid', { ...pickup, location_id: R1.openLocation.toUpperCase() }],
    ];
    for (const [label, body] of bodies) {
      const res = await engine.call('POST', '/orders', { key: engine.demo[0]!.keys.test_write, body });
      assert.equal(createOrder(body), res.status !== 400, `${label}: document ${createOrder(body) ? 'accepts' : 'refuses'}, engine answered ${res.status} ${res.text}`);
    }

    const key = (text: string) => ({ 'idempotency-key': text });
    for (const [label, headers, refused] of [
      ['a 255-character Idempotency-Key', key('k'.repeat(255)), false],
      ['a 256-character Idempotency-Key', key('k'.repeat(256)), true],
    ] as const) {
      const res = await engine.call('PATCH', `/orders/${engine.demo[0]!.managed_order_ids[0]}`, { body: { status: 'listo' }, headers });
      assert.equal(res.status === 400, refused, `${label}: ${res.status} ${res.text}`);
    }

    const stock = document.paths['/stock'].get.parameters.find((p: Json) => p.name === 'location_id');
    assert.equal(stock.required, true);
    assert.equal((await engine.call('GET', '/stock')).status, 400);
    const after = document.paths['/events'].get.parameters.find((p: Json) => p.name === 'after');
    const cursor = ajv.compile(schema(`/paths/~1events/get/parameters/${document.paths['/events'].get.parameters.indexOf(after)}/schema`));
    for (const text of ['ev_0', 'ev_12', 'ev_012', 'ev_x', '12']) {
      const res = await engine.call('GET', `/events?after=${text}`);
      assert.equal(cursor(text), res.status === 200, `after=${text}: ${res.status}`);
    }
  });

  test('the conformance check that every HTTP test runs catches a drift', async () => {
    const order = (await engine.call('GET', '/orders?limit=1')).body.data[0];
    const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', 'ratelimit-limit': '120', 'ratelimit-remaining': '5', 'ratelimit-reset': '1' });
    const answer = (status: number, body: unknown, with_ = headers) => ({ status, headers: with_, body, text: JSON.stringify(body) });
    const path = `/orders/${order.id}`;
    await assertConformsToDocument(engine.baseUrl, 'GET', path, answer(200, order));
    await assert.rejects(assertConformsToDocument(engine.baseUrl, 'GET', path, answer(200, { ...order, total: '16460' })), /body/);
    await assert.rejects(assertConformsToDocument(engine.baseUrl, 'GET', path, answer(200, { ...order, status: 'abierto' })), /body/);
    await assert.rejects(
      assertConformsToDocument(engine.baseUrl, 'GET', path, answer(200, { ...order, delivery: { provider: 'propio', status: 'perdido', tracking_url: null } })),
      /body/,
    );
    await assert.rejects(assertConformsToDocument(engine.baseUrl, 'GET', path, answer(409, { error: { code: 'state_conflict', message: 'x' } })), /does not give/);
    await assert.rejects(
      assertConformsToDocument(engine.baseUrl, 'GET', path, answer(404, { error: { code: 'insufficient_stock', message: 'x' } })),
      /body/,
    );
    await assert.rejects(assertConformsToDocument(engine.baseUrl, 'GET', path, answer(200, order, new Headers({ 'content-type': 'application/json' }))), /RateLimit-Limit is missing/);
  });

  test('the typed client of docs/api-reference.md type-checks (npm run typecheck) and runs: an order to entregado', async () => {
    const reference = repoFile('docs/api-reference.md');
    const shown = /<!-- typed-client -->\n```ts\n([\s\S]*?)```/.exec(reference)?.[1];
    assert.equal(shown, repoFile('docs/examples/typed-client.ts'), 'docs/api-reference.md shows docs/examples/typed-client.ts as it is');
    const orderId = await orderAndDeliver(engine.baseUrl, engine.demo[0]!.keys.live_write);
    const res = await engine.call('GET', `/orders/${orderId}`);
    assert.equal(res.body.status, 'entregado');
    assert.deepEqual(res.body.items.map((i: Json) => [i.product_id, i.quantity]), [[R1.products.empanadaQueso, 2]]);
  });

  // Last: loading openapi-typescript (and TypeScript) holds the event loop for seconds, which the
  // engine's keep-alive sockets of this same process would not survive mid-file.
  test('docs/examples/comanda-api.ts holds the types openapi-typescript generates from it', async () => {
    assert.equal(repoFile('docs/examples/comanda-api.ts'), await clientTypesText(document), 'run npm run openapi');
  });
});
