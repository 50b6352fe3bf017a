import type { Engine, ReadTransaction } from '../../engine.ts';
import type { World } from '../../../shared/world.ts';

// A replica's own rows in `sync_state`: where it stands with its upstream. Written by the replica's
// use cases (engine/services/replica-*.ts), read by the sync door to know what to ask for next.

export const SYNC_KEYS = {
  restaurantId: 'restaurant_id',
  upstream: 'upstream_url',
  cursor: 'cursor',
  lastPullAt: 'last_pull_at',
  canWrite: 'can_write',
} as const;

/** The position in the upstream's item feed (`/sync/kitchen/items`) applied here. */
export const KITCHEN_CURSOR = 'kitchen_items_cursor';

export async function replicaState(engine: Engine, key: string, callerTx?: ReadTransaction): Promise<string | undefined> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await tx.stores.sync.state(key);
  });
}

/** Who a replica's platform key is: the restaurant it mirrors, its world, whether it may write. */
export interface ReplicaIdentity {
  restaurantId: string;
  world: World;
  canWrite: boolean;
}

/** The restaurant this file mirrors and whether its first pull is stored (starting offline needs both). */
export async function storedReplicaIdentity(engine: Engine): Promise<{ restaurantId: string; canWrite: boolean } | null> {
  return await engine.read(async (tx) => {
    const restaurantId = await tx.stores.sync.state(SYNC_KEYS.restaurantId);
    if (!restaurantId || await tx.stores.sync.state(SYNC_KEYS.cursor) === undefined) return null;
    return { restaurantId, canWrite: await tx.stores.sync.state(SYNC_KEYS.canWrite) === '1' };
  });
}

/** The locations of the restaurant this file already mirrors (none before the first connection). */
export async function mirroredLocationIds(engine: Engine): Promise<string[]> {
  return await engine.read(async (tx) => {
    const mirrored = await tx.stores.sync.state(SYNC_KEYS.restaurantId);
    return mirrored === undefined ? [] : (await tx.stores.locations.list(mirrored)).map((location) => location.id);
  });
}

/** Whether a change queued locally is still waiting to be pushed upstream. */
export async function hasChangesToPush(engine: Engine, callerTx?: ReadTransaction): Promise<boolean> {
  return await engine.readWithin(callerTx, async (tx) => {
    return (await tx.stores.sync.firstToPush(1)).length > 0;
  });
}

/** What the replica's status shows of its outbox and conflicts, read at one commit. */
export async function replicaOutboxState(engine: Engine) {
  return await engine.read(async (tx) => {
    const lastPull = await tx.stores.sync.state(SYNC_KEYS.lastPullAt);
    return {
      lastPullAt: lastPull === undefined ? null : Number(lastPull),
      pending: await tx.stores.sync.pending(),
      conflicts: await tx.stores.sync.conflicts(),
      unresolved: await tx.stores.sync.unresolvedConflicts(),
    };
  });
}
