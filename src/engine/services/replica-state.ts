import type { Engine } from '../engine.ts';

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
