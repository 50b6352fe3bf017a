import type { Engine } from '../../engine.ts';
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

export function replicaState(engine: Engine, key: string): string | undefined {
  return engine.stores.sync.state(key);
}

/** Who a replica's platform key is: the restaurant it mirrors, its world, whether it may write. */
export interface ReplicaIdentity {
  restaurantId: string;
  world: World;
  canWrite: boolean;
}

/** The restaurant this file mirrors and whether its first pull is stored (starting offline needs both). */
export function storedReplicaIdentity(engine: Engine): { restaurantId: string; canWrite: boolean } | null {
  return engine.read(() => {
    const restaurantId = engine.stores.sync.state(SYNC_KEYS.restaurantId);
    if (!restaurantId || engine.stores.sync.state(SYNC_KEYS.cursor) === undefined) return null;
    return { restaurantId, canWrite: engine.stores.sync.state(SYNC_KEYS.canWrite) === '1' };
  });
}

/** The locations of the restaurant this file already mirrors (none before the first connection). */
export function mirroredLocationIds(engine: Engine): string[] {
  return engine.read(() => {
    const mirrored = engine.stores.sync.state(SYNC_KEYS.restaurantId);
    return mirrored === undefined ? [] : engine.stores.locations.list(mirrored).map((location) => location.id);
  });
}

/** Whether a change queued locally is still waiting to be pushed upstream. */
export function hasChangesToPush(engine: Engine): boolean {
  return engine.stores.sync.firstToPush(1).length > 0;
}

/** What the replica's status shows of its outbox and conflicts, read at one commit. */
export function replicaOutboxState(engine: Engine) {
  return engine.read(() => {
    const lastPull = engine.stores.sync.state(SYNC_KEYS.lastPullAt);
    return {
      lastPullAt: lastPull === undefined ? null : Number(lastPull),
      pending: engine.stores.sync.pending(),
      conflicts: engine.stores.sync.conflicts(),
      unresolved: engine.stores.sync.unresolvedConflicts(),
    };
  });
}
