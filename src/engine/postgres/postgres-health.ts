// Issue 35: whether this node can write on PostgreSQL: `SELECT pg_is_in_recovery()` through its pool
// (HAProxy's write port), bounded by a short deadline. A standby answers true (HAProxy still sending
// to a demoted leader for a moment); a pool that cannot connect, or no answer in time, is "cannot
// write". Cached and shared (node-health.ts), so health requests cost one probe a second at most.
import type pg from 'pg';
import { cachedWriteCheck, defaultNodeId, type NodeHealth, type WriteCheck } from '../node-health.ts';

/** How long the probe may take: a load balancer's check must not hang on a dead database. */
export const HEALTH_PROBE_TIMEOUT_MS = 1_000;

async function probeWrites(pool: pg.Pool, timeoutMs: number): Promise<WriteCheck> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<WriteCheck>((resolve) => {
    timer = setTimeout(() => resolve({ writable: false, reason: `the database did not answer within ${timeoutMs} ms` }), timeoutMs);
  });
  // The query itself is left to end on its own (the pool's timeouts bound it): it only reads.
  const asked = pool.query<{ in_recovery: boolean }>('SELECT pg_is_in_recovery() AS in_recovery').then(
    ({ rows }): WriteCheck => (rows[0]?.in_recovery === false ? { writable: true, reason: null } : { writable: false, reason: 'the database is a standby (read-only)' }),
    (): WriteCheck => ({ writable: false, reason: 'the database cannot be reached' }),
  );
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function postgresNodeHealth(
  pool: pg.Pool,
  options: { nodeId?: string; timeoutMs?: number; now?: () => number } = {},
): NodeHealth {
  const timeoutMs = options.timeoutMs ?? HEALTH_PROBE_TIMEOUT_MS;
  return {
    nodeId: options.nodeId ?? defaultNodeId(),
    database: 'postgres',
    canWrite: cachedWriteCheck(() => probeWrites(pool, timeoutMs), options.now ?? (() => performance.now())),
  };
}
