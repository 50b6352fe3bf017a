// Issue 34: no text a request carries may hold a NUL (U+0000). PostgreSQL refuses NUL in text where
// SQLite stores it, so the platform would fail with a 500 a write the hub takes: the API refuses it
// first, with a 400 in the API's error shape, on either database. The refusal is in the schemas
// (shared/schemas/common.ts, Text and NotBlankText), so the OpenAPI document says it: every string
// a request's body or parameters carry refuses NUL there.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';

type Json = Record<string, any>;

const NUL = '\u0000';

const pickup = (changes: Json = {}): Json => ({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name: 'Ana' },
  items: [{ product_id: R1.products.cazuela, quantity: 1 }],
  ...changes,
});

/**
 * Every string schema under `schema`, with where it is; `$ref`s into the document followed. The
 * branches of an object's `allOf`/`anyOf`/`oneOf` refine that object: a property they name that the
 * object's own `properties` constrain already (`constrained`) is left out of them.
 */
function stringsIn(document: Json, schema: Json, where: string, constrained = new Set<string>(), seen = new Set<string>()): { where: string; schema: Json }[] {
  if (schema === null || typeof schema !== 'object') return [];
  if (typeof schema.$ref === 'string') {
    // `seen`: the references on the way here, so a schema that holds itself is walked once on each way.
    if (seen.has(schema.$ref)) return [];
    const target = (schema.$ref as string).replace(/^#\//, '').split('/').reduce<Json>((node, part) => node[part.replaceAll('~1', '/').replaceAll('~0', '~')], document);
    return stringsIn(document, target, `${where} → ${schema.$ref}`, constrained, new Set([...seen, schema.$ref as string]));
  }
  const found: { where: string; schema: Json }[] = [];
  if (schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'))) found.push({ where, schema });
  const own = new Set([...constrained, ...Object.keys((schema.properties ?? {}) as Json)]);
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties') {
      for (const [name, property] of Object.entries(value as Json)) {
        if (!constrained.has(name)) found.push(...stringsIn(document, property as Json, `${where}.${name}`, new Set(), seen));
      }
    } else if (['items', 'additionalProperties', 'not'].includes(key)) found.push(...stringsIn(document, value as Json, `${where}/${key}`, new Set(), seen));
    else if (['anyOf', 'oneOf', 'allOf'].includes(key)) (value as Json[]).forEach((branch, i) => found.push(...stringsIn(document, branch, `${where}/${key}/${i}`, own, seen)));
    else if (key === 'prefixItems') (value as Json[]).forEach((item, i) => found.push(...stringsIn(document, item, `${where}/${key}/${i}`, new Set(), seen)));
  }
  return found;
}

/** Whether a string schema lets a NUL through: it has no enum or const, and its pattern (if any) matches text with one. */
function letsNulThrough(schema: Json): boolean {
  if (Array.isArray(schema.enum) || schema.const !== undefined) return false;
  if (typeof schema.pattern !== 'string') return true;
  const pattern = new RegExp(schema.pattern as string, 'u');
  const examples = [NUL, `a${NUL}`, `${NUL}a`, `Ana${NUL}Pérez`, ...((schema.examples as unknown[] | undefined) ?? []).map((e) => `${String(e)}${NUL}`)];
  return examples.some((text) => pattern.test(text));
}

describe('NUL (U+0000) in a request\'s text', () => {
  let engine: EngineUnderTest;
  let document: Json;
  before(async () => {
    engine = await startEngineUnderTest();
    document = (await engine.call('GET', '/openapi.json', { key: null })).body as Json;
  });
  after(async () => {
    await engine.stop();
  });

  test('the OpenAPI document: every string of a request\'s body or parameters refuses NUL', () => {
    const strings: { where: string; schema: Json }[] = [];
    for (const [path, item] of Object.entries(document.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        if (operation === null || typeof operation !== 'object' || !('responses' in operation)) continue;
        const op = operation as Json;
        for (const parameter of (op.parameters ?? []) as Json[]) strings.push(...stringsIn(document, parameter.schema as Json, `${method} ${path} ${parameter.in} ${parameter.name}`));
        for (const [type, content] of Object.entries((op.requestBody?.content ?? {}) as Json)) {
          strings.push(...stringsIn(document, (content as Json).schema as Json, `${method} ${path} body (${type})`));
        }
      }
    }
    assert.ok(strings.length >= 20, `request strings found: ${strings.length}`);
    assert.deepEqual(strings.filter((s) => letsNulThrough(s.schema)).map((s) => s.where), []);
  });

  test('an order with a NUL in its note, an item\'s note or the customer\'s name is refused with a 400 naming the field, and nothing is written', async () => {
    const key = engine.demo[0]!.keys.test_write;
    const ordersBefore = (await engine.call('GET', '/orders?limit=100', { key })).body.data.length as number;
    const eventsBefore = (await engine.call('GET', '/events?limit=500', { key })).body.data.length as number;
    const stockBefore = await engine.call('GET', `/stock?location_id=${R1.openLocation}`, { key });
    const cases: [Json, string][] = [
      [pickup({ notes: `sin cebolla${NUL}` }), 'notes must not hold a NUL character (U+0000)'],
      [pickup({ items: [{ product_id: R1.products.cazuela, quantity: 1, notes: `${NUL}` }] }), 'items[0].notes must not hold a NUL character (U+0000)'],
      [pickup({ customer: { name: `Ana${NUL}` } }), 'customer.name must not hold a NUL character (U+0000)'],
      [pickup({ customer: { name: 'Ana', phone: `+56${NUL}` } }), 'customer.phone must not hold a NUL character (U+0000)'],
      [pickup({ type: 'delivery', address: `Av. Matta 1${NUL}` }), 'address must not hold a NUL character (U+0000)'],
    ];
    for (const [body, message] of cases) {
      const res = await engine.call('POST', '/orders', { key, body, headers: { 'idempotency-key': `nul-${message}` } });
      assert.equal(res.status, 400, `${message}: ${res.status} ${res.text}`);
      assert.deepEqual(res.body, { error: { code: 'invalid_request', message } });
    }
    assert.equal((await engine.call('GET', '/orders?limit=100', { key })).body.data.length, ordersBefore, 'no order written');
    assert.equal((await engine.call('GET', '/events?limit=500', { key })).body.data.length, eventsBefore, 'no event written');
    assert.deepEqual((await engine.call('GET', `/stock?location_id=${R1.openLocation}`, { key })).body, stockBefore.body, 'no stock taken');
    // The same order without the NUL is taken: the refusal is the NUL's alone.
    assert.equal((await engine.call('POST', '/orders', { key, body: pickup({ notes: 'sin cebolla', customer: { name: '  Ana' } }) })).status, 201);
  });

  test('a blank name is still refused as blank; a NUL in a query string or a quote\'s address is refused too', async () => {
    const key = engine.demo[0]!.keys.test_write;
    const blank = await engine.call('POST', '/orders', { key, body: pickup({ customer: { name: '   ' } }) });
    assert.deepEqual(blank.body, { error: { code: 'invalid_request', message: 'customer.name must not be blank' } });
    const cursor = await engine.call('GET', '/orders?cursor=%00', { key });
    assert.equal(cursor.status, 400, cursor.text);
    assert.match(cursor.body.error.message, /cursor must not hold a NUL character/);
    const quote = await engine.call('POST', '/delivery/quote', { key, body: { location_id: R1.openLocation, dropoff: { address: `Calle${NUL}` }, subtotal: 1000 } });
    assert.equal(quote.status, 400, quote.text);
    assert.equal(quote.body.error.message, 'dropoff.address must not hold a NUL character (U+0000)');
  });
});
