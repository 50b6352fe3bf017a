import type { Engine } from '../../engine.ts';

/** An Idempotency-Key's first answer is replayed for 24 hours (api-v1-decisions.md). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Forgets answers older than the window, which no request can replay any more. Returns how many. */
export async function purgeExpiredIdempotencyKeys(engine: Engine): Promise<number> {
  const before = engine.clock.now() - IDEMPOTENCY_WINDOW_MS;
  return await engine.stores.idempotency.deleteOlderThan(before) + await engine.stores.kitchenChanges.deleteOlderThan(before);
}
