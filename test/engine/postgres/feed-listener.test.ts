// A notification's payload is parsed strictly: what is not exactly ours is ignored.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { feedPayload, parseFeedPayload } from '../../../src/engine/postgres/feed-listener.ts';

test('a payload made by feedPayload reads back as it was', () => {
  assert.deepEqual(parseFeedPayload(feedPayload('node-1', 'r-1', 'feed')), { kind: 'feed', nodeId: 'node-1', restaurantId: 'r-1' });
  assert.deepEqual(parseFeedPayload(feedPayload('node-1', 'r-1', 'data')), { kind: 'data', nodeId: 'node-1', restaurantId: 'r-1' });
});

test('anything else is ignored: another kind, missing or extra fields, an overlong payload', () => {
  for (const payload of ['', 'feed', 'feed node-1', 'stock node-1 r-1', 'feed node-1 r-1 extra', 'feed  r-1', `feed node-1 ${'r'.repeat(600)}`]) {
    assert.equal(parseFeedPayload(payload), null, payload.slice(0, 40));
  }
});
