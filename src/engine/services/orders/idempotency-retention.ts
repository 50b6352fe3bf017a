import type { Engine } from '../../engine.ts';

/** An Idempotency-Key's first answer is replayed for 24 hours (api-v1-decisions.md). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Forgets answers older than the window, which no request can replay any more. Returns how many. */
export function purgeExpiredIdempotencyKeys(engine: Engine): number {
  const before = engine.clock.now() - IDEMPOTENCY_WINDOW_MS;
  return engine.stores.idempotency.deleteOlderThan(before) + engine.stores.kitchenChanges.deleteOlderThan(before);
}
