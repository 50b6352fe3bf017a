// Issue 34: no text the API takes may hold a NUL (U+0000). PostgreSQL refuses NUL in text, so the
// platform would fail such a write with a 500 where the hub's SQLite stored it: both refuse it at
// the door with a 400 naming the field, and nothing is stored.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';

const order = (changes: Record<string, unknown> = {}) => ({
  location_id: R1.openLocation, type: 'retiro', customer: { name: 'Ana' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }], ...changes,
});

describe('NUL in text', () => {
  let engine: EngineUnderTest;
  const orderCount = () => engine.server.engine.db.prepare('SELECT COUNT(*) FROM orders').pluck().get();

  before(async () => {
    engine = await startEngineUnderTest();
  });
  after(async () => {
    await engine.stop();
  });

  test('a NUL anywhere in a body (a value, a nested value, a key) is refused as invalid_request naming where, and nothing is stored', async () => {
    const before = orderCount();
    const cases: [unknown, string][] = [
      [order({ customer: { name: 'A\u0000B' } }), 'customer.name'],
      [order({ notes: '\u0000' }), 'notes'],
      [order({ items: [{ product_id: R1.products.cazuela, quantity: 1, notes: 'sin\u0000sal' }] }), 'items[0].notes'],
      [{ ...order(), 'extra\u0000': 1 }, 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await engine.call('POST', '/orders', { body });
      assert.equal(res.status, 400, res.text);
      const error = (res.body as { error: { code: string; message: string } }).error;
      assert.equal(error.code, 'invalid_request');
      assert.equal(error.message, `${field} holds a NUL character (U+0000), which no text may hold`);
    }
    assert.equal(orderCount(), before);
  });

  test('a backslash followed by u0000 is text like any other', async () => {
    const res = await engine.call('POST', '/orders', { body: order({ customer: { name: 'Ana \\u0000' } }) });
    assert.equal(res.status, 201, res.text);
    assert.equal((res.body as { customer: { name: string } }).customer.name, 'Ana \\u0000');
  });

  test('a NUL in a path or a query string (%00) is refused before any route reads it', async () => {
    for (const path of ['/orders/abc%00', `/orders?status=recibido%00`, '/orders?status=%00']) {
      const res = await fetch(`${engine.baseUrl}${path}`, { headers: { authorization: `Bearer ${engine.demo[0]!.keys.live_write}` } });
      assert.equal(res.status, 400, path);
      assert.deepEqual(await res.json(), { error: { code: 'invalid_request', message: 'the address holds a NUL character (%00), which no text may hold' } });
    }
  });
});
