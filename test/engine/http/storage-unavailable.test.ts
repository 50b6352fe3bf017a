// The database out of reach (a failover): StorageUnavailable and a pool's own connection errors are
// answered 503 storage_unavailable with Retry-After in the API's error shape, never 500, and are not
// kept as an Idempotency-Key's answer; anything else is still a 500.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { installErrorReplies } from '../../../src/engine/http/error-replies.ts';
import { ApiError } from '../../../src/engine/domain/errors.ts';
import { CommitOutcomeUnknown, StorageUnavailable } from '../../../src/engine/storage-unavailable.ts';

let app: FastifyInstance;
let base: string;
const recorded: string[] = [];

before(async () => {
  app = Fastify();
  // The refusal recorder stands for the Idempotency-Key record: it must never see an outage.
  installErrorReplies(app, async (request, _reply, refusal) => {
    recorded.push(`${request.url} ${refusal.code}`);
    return false;
  });
  app.get('/spent', async () => {
    throw new StorageUnavailable('budget spent', Object.assign(new Error('x'), { code: '57P03' }));
  });
  app.get('/unknown-commit', async () => {
    throw new CommitOutcomeUnknown(new Error('Connection terminated unexpectedly'));
  });
  app.get('/pool-cannot-connect', async () => {
    throw new Error('timeout exceeded when trying to connect');
  });
  app.get('/refused', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5000'), { code: 'ECONNREFUSED' });
  });
  app.get('/read-only', async () => {
    throw Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' });
  });
  app.get('/bug', async () => {
    throw new TypeError('a bug');
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
after(async () => {
  await app.close();
});

test('every outage is 503 storage_unavailable with Retry-After, and nothing is recorded', async () => {
  for (const path of ['/spent', '/unknown-commit', '/pool-cannot-connect', '/refused', '/read-only']) {
    const res = await fetch(`${base}${path}`);
    assert.equal(res.status, 503, path);
    assert.equal(res.headers.get('retry-after'), '5', path);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'storage_unavailable', path);
    assert.doesNotMatch(body.error.message, /ECONNREFUSED|127\.0\.0\.1|25006|INSERT/, `${path}: says nothing of the database`);
  }
  assert.deepEqual(recorded, []);
});

test('an outage while recording a refusal is 503 too; a bug is still 500', async () => {
  // The recorder itself meets the outage (the database went away after the refusal was decided).
  const second = Fastify();
  installErrorReplies(second, async () => {
    throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  });
  second.get('/x', async () => {
    throw new ApiError('insufficient_stock', 'no stock');
  });
  const url = await second.listen({ port: 0, host: '127.0.0.1' });
  const res = await fetch(`${url}/x`);
  assert.equal(res.status, 503);
  assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'storage_unavailable');
  await second.close();

  const bug = await fetch(`${base}/bug`);
  assert.equal(bug.status, 500);
  assert.equal(((await bug.json()) as { error: { code: string } }).error.code, 'internal_error');
});
