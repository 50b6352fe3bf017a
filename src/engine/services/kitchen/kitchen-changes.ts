// A kitchen screen's change applied once per key: a screen sends a bump or an item mark again when
// it never got the answer, or when it was offline and queued it. The key and the change are
// recorded in the change's own transaction; the same key again answers as the first time did
// (the ticket as it is now), the same key with another change is a conflict. Keys are forgotten
// with the API's idempotency keys (idempotency-retention.ts).
import { createHash } from 'node:crypto';
import { ApiError } from '../../domain/errors.ts';
import type { Engine, WriteTransaction } from '../../engine.ts';

export async function applyKitchenChangeOnce<T>(engine: Engine, restaurantId: string, changeId: string | undefined, request: unknown, apply: (tx?: WriteTransaction) => Promise<T>): Promise<T | null> {
  if (changeId === undefined) return await apply();
  const hash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
  return await engine.transaction(async (tx) => {
    const known = await tx.stores.kitchenChanges.get(restaurantId, changeId);
    if (known) {
      if (known.request_hash !== hash) throw new ApiError('state_conflict', `change ${changeId} was already used for another change`);
      return null;
    }
    const result = await apply(tx);
    await tx.stores.kitchenChanges.save(restaurantId, changeId, hash, engine.clock.now());
    return result;
  });
}
