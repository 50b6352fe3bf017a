import type { Engine, WriteTransaction } from '../../engine.ts';

/** An Idempotency-Key's first answer is replayed for 24 hours (api-v1-decisions.md). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Forgets answers older than the window, which no request can replay any more. Returns how many. */
export async function purgeExpiredIdempotencyKeys(engine: Engine, callerTx?: WriteTransaction): Promise<number> {
  return await engine.within(callerTx, async (tx) => {
    const before = engine.clock.now() - IDEMPOTENCY_WINDOW_MS;
    return await tx.stores.idempotency.deleteOlderThan(before) + await tx.stores.kitchenChanges.deleteOlderThan(before);
  });
}
