import type { OutboxKind, OutboxRow } from '../engine/store/sync-store.ts';

/** Changes about one order and nothing else: those of different orders may travel together. */
const ORDER_SCOPED: ReadonlySet<OutboxKind> = new Set<OutboxKind>(['transition_order', 'set_item_done', 'recall_order']);

/**
 * The outbox changes to send together, from the pending ones in queue order: at most `window`,
 * never two of the same order (an order's changes go up one after the other, in the order they
 * were made), and none past a change that is not about one order alone (a new order, whose
 * acknowledgement renames it; stock; a location opened or closed): such a change goes by itself,
 * once everything queued before it is through, and nothing queued after it overtakes it.
 *
 * A change left out because an earlier one of its order is not through keeps its order held for
 * the rest of the scan, so a later change of that order cannot go first either.
 */
export function pushBatch(pending: readonly OutboxRow[], window: number): OutboxRow[] {
  const batch: OutboxRow[] = [];
  const held = new Set<string>();
  for (const row of pending) {
    if (batch.length >= window) break;
    if (!ORDER_SCOPED.has(row.kind) || row.order_id === null) {
      if (batch.length === 0) batch.push(row);
      break;
    }
    if (held.has(row.order_id)) continue;
    held.add(row.order_id);
    batch.push(row);
  }
  return batch;
}
