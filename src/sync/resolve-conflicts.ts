import type { Engine } from '../engine/engine.ts';
import type { ReplicaIdentity } from './first-pull.ts';
import { dueConflicts, rescheduleConflict, resolveConflict } from '../engine/services/replica/replica-outbox.ts';
import { readUpstreamState } from './push-change.ts';
import type { UpstreamClient } from './upstream-client.ts';
import { UpstreamUnreachable } from './upstream-client.ts';

export interface ResolveRound {
  resolved: number;
  /** Read failures this round, each rescheduled on its backoff. */
  failed: number;
}

/**
 * The intent a refused push leaves (sync_conflicts.resolved_at IS NULL): read the upstream's
 * state for the refused change, outside any transaction, then put it in place locally and mark
 * the conflict resolved in one transaction. A read that fails is tried again after a backoff on
 * the engine's clock (`backoff(attempts)`), until it succeeds: the replica never keeps a change
 * the upstream refused. An unreachable upstream is rethrown once recorded (the link then waits).
 */
export async function resolveDueConflicts(
  engine: Engine,
  client: UpstreamClient,
  identity: ReplicaIdentity,
  backoff: (attempts: number) => number,
  exclusive: <T>(work: () => Promise<T>) => Promise<T>,
): Promise<ResolveRound> {
  const round: ResolveRound = { resolved: 0, failed: 0 };
  for (const conflict of await dueConflicts(engine)) {
    const row = { kind: conflict.outbox_kind, order_id: conflict.outbox_order_id, location_id: conflict.outbox_location_id };
    try {
      await exclusive(async () => {
        const state = await readUpstreamState(client, row);
        await resolveConflict(engine, identity, conflict, state);
      });
      round.resolved++;
    } catch (error) {
      round.failed++;
      const message = error instanceof Error ? error.message : String(error);
      await rescheduleConflict(engine, conflict.id, message, engine.clock.now() + backoff(conflict.resolve_attempts + 1));
      if (error instanceof UpstreamUnreachable) throw error;
    }
  }
  return round;
}
