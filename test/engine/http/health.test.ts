// GET /v1/health on a SQLite engine: no key, the node and its database, 200 while it can write and
// 503 with Retry-After once its file is found damaged. The PostgreSQL probe: riding-outages.e2e.test.ts.
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { after, before, test } from 'node:test';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(async () => {
  await engine.stop();
});

test('a writable SQLite node: 200, named by its machine, no key needed', async () => {
  const res = await engine.call('GET', '/health', { key: null });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { node_id: hostname(), database: 'sqlite', writable: true, reason: null });
  assert.equal(res.headers.get('retry-after'), null);
});

test('a node whose file was found damaged: 503 with Retry-After, and why', async () => {
  engine.server.engine.refuseWrites('quick_check found a damaged page');
  const res = await engine.call('GET', '/health', { key: null });
  assert.equal(res.status, 503);
  assert.deepEqual(res.body, { node_id: hostname(), database: 'sqlite', writable: false, reason: 'the database file is damaged' });
  assert.equal(res.headers.get('retry-after'), '5');
});
