import type { OutboxKind, OutboxRow } from '../engine/store/sync-store.ts';

/** Changes about one order and nothing else: those of different orders may travel together. */
const ORDER_SCOPED: ReadonlySet<OutboxKind> = new Set<OutboxKind>(['transition_order', 'set_item_done', 'recall_order']);

/** A change about one order and nothing else. */
export const isAboutOneOrder = (row: OutboxRow): row is OutboxRow & { order_id: string } => ORDER_SCOPED.has(row.kind) && row.order_id !== null;

/**
 * The outbox changes to send now, from the pending ones in queue order, beside those already on
 * their way (`inFlight`: sent and not recorded yet, still pending): at most `room`, never two of the
 * same order (an order's changes go up one after the other, in the order they were made), and none
 * past a change that is not about one order alone (a new order, whose acknowledgement renames it;
 * stock; a location opened or closed): such a change goes by itself, once everything queued before
 * it is through, and nothing queued after it goes before it is through.
 *
 * A change left out because an earlier one of its order is not through (on its way, or left out
 * itself) keeps its order held for the rest of the scan, so a later change of that order cannot go
 * first either.
 */
export function pushBatch(pending: readonly OutboxRow[], room: number, inFlight: ReadonlySet<number> = new Set()): OutboxRow[] {
  const batch: OutboxRow[] = [];
  const held = new Set<string>();
  for (const row of pending) {
    if (batch.length >= room) break;
    if (!isAboutOneOrder(row)) {
      if (batch.length === 0 && inFlight.size === 0) batch.push(row);
      break;
    }
    if (held.has(row.order_id)) continue;
    held.add(row.order_id);
    if (!inFlight.has(row.seq)) batch.push(row);
  }
  return batch;
}
