// Each node's share of a platform-wide rate limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { perNodeRateLimit } from '../../../src/engine/storage/per-node-rate-limit.ts';

test('the limit split over the nodes: together they allow about the limit', () => {
  assert.deepEqual(perNodeRateLimit({ capacity: 60, refillPerSecond: 10 }, 1), { capacity: 60, refillPerSecond: 10 });
  assert.deepEqual(perNodeRateLimit({ capacity: 60, refillPerSecond: 10 }, 3), { capacity: 20, refillPerSecond: 10 / 3 });
  assert.deepEqual(perNodeRateLimit({ capacity: 10, refillPerSecond: 5 }, 4), { capacity: 3, refillPerSecond: 1.25 });
});

test('at least one request at once per node; a count that is not a node count counts as one node', () => {
  assert.equal(perNodeRateLimit({ capacity: 2, refillPerSecond: 1 }, 8).capacity, 1);
  for (const nodes of [0, -2, 1.5, Number.NaN]) {
    assert.deepEqual(perNodeRateLimit({ capacity: 6, refillPerSecond: 2 }, nodes), { capacity: 6, refillPerSecond: 2 });
  }
});
