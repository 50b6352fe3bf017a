// Issue 34: the API's rate limits on the platform. Each node keeps its own token buckets in memory
// (an exact shared count would be a write per request); with the load balancer spreading a client's
// requests over N nodes, each node gives it 1/N of the limit, so together they allow about the
// limit. The number of nodes is the storage port's `nodeCount()` (on PostgreSQL, the nodes' LISTEN
// connections), read again now and then: a node that starts or stops changes every node's share.
// What must be exact (the kitchen pairing guard's failures and lockouts) stays rows in the database.
import type { RateLimitSettings } from '../domain/token-bucket.ts';

/** One node's share of a limit meant for the whole platform: at least one request at once. */
export function perNodeRateLimit(limit: RateLimitSettings, nodes: number): RateLimitSettings {
  const n = Number.isSafeInteger(nodes) && nodes >= 1 ? nodes : 1;
  return { capacity: Math.max(1, Math.ceil(limit.capacity / n)), refillPerSecond: limit.refillPerSecond / n };
}
