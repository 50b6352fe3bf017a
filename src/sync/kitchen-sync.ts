import type { Engine } from '../engine/engine.ts';
import type { ItemFeedPage, OrderItemStates } from '../engine/services/kitchen/kitchen-item-sync.ts';
import { applyItemFeedPage, type KitchenPullResult } from '../engine/services/replica/replica-feed.ts';
import { KITCHEN_CURSOR, replicaState } from '../engine/services/replica/replica-state.ts';
import type { UpstreamClient } from './upstream-client.ts';

// The replica's side of the kitchen's own data: item bumps pushed through the outbox (push-change.ts
// names the door) and the upstream's item changes and kitchen settings pulled from its sync door.

export type UpstreamItemStates = OrderItemStates;


export const itemStatesPath = (orderId: string) => `/sync/kitchen/orders/${orderId}/items`;

/** Where a recall made on the replica is pushed (the ticket shows upstream too, and takes bumps there). */
export const recallPath = (orderId: string) => `/sync/kitchen/orders/${orderId}/recall`;

/** One long-poll of the upstream's item feed, applied under `exclusive` (the replica's mutex). */
async function pullKitchenItems(
  engine: Engine,
  client: UpstreamClient,
  restaurantId: string,
  options: { waitSeconds: number; signal?: AbortSignal; exclusive?: <T>(work: () => Promise<T>) => Promise<T> },
): Promise<KitchenPullResult | { status: number }> {
  const after = await replicaState(engine, KITCHEN_CURSOR) ?? '0';
  const response = await client.call<ItemFeedPage>('GET', `/sync/kitchen/items?after=${after}&limit=200&wait=${options.waitSeconds}`, {
    timeoutMs: (options.waitSeconds + 10) * 1000,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (response.status !== 200) return { status: response.status };
  const apply = async () => await applyItemFeedPage(engine, restaurantId, response.body);
  return options.exclusive ? options.exclusive(apply) : await apply();
}

export interface KitchenPullLoop {
  engine: Engine;
  client: UpstreamClient;
  restaurantId: string;
  waitSeconds: number;
  exclusive: <T>(work: () => Promise<T>) => Promise<T>;
  /** Sleeps `ms` (ended early by a stop); the replica's backoff decides how long after failures. */
  sleep(ms: number): Promise<void>;
  backoff(failures: number): number;
  running(): boolean;
  signal: AbortSignal;
}

/** The replica's loop over the upstream's item feed, beside its main feed's. */
export async function runKitchenPull(loop: KitchenPullLoop): Promise<void> {
  let failures = 0;
  while (loop.running()) {
    try {
      const result = await pullKitchenItems(loop.engine, loop.client, loop.restaurantId, {
        waitSeconds: loop.waitSeconds,
        signal: loop.signal,
        exclusive: loop.exclusive,
      });
      if ('status' in result) {
        failures++;
        await loop.sleep(loop.backoff(failures));
        continue;
      }
      failures = 0;
      // Held behind the main feed: give it a moment to bring the order.
      if (result.held) await loop.sleep(100);
    } catch {
      if (!loop.running()) return;
      failures++;
      await loop.sleep(loop.backoff(failures));
    }
  }
}
