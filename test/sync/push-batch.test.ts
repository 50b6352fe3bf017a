import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OutboxKind, OutboxRow } from '../../src/engine/store/sync-store.ts';
import { pushBatch } from '../../src/sync/push-batch.ts';

let seq = 0;
function row(kind: OutboxKind, orderId: string | null): OutboxRow {
  seq++;
  return {
    seq,
    idempotency_key: `key-${seq}`,
    kind,
    payload: '{}',
    order_id: orderId,
    location_id: orderId === null ? 'loc' : null,
    status: 'pending',
    attempts: 0,
    last_error: null,
    created_at: 0,
    sent_at: null,
  };
}
const seqs = (rows: OutboxRow[]) => rows.map((r) => r.seq);

test('changes of different orders go together, never two of one order, and an order held stays held for the rest of the queue', () => {
  const a1 = row('transition_order', 'A');
  const b1 = row('set_item_done', 'B');
  const a2 = row('transition_order', 'A');
  const c1 = row('recall_order', 'C');
  const b2 = row('transition_order', 'B');
  const d1 = row('transition_order', 'D');
  assert.deepEqual(seqs(pushBatch([a1, b1, a2, c1, b2, d1], 8)), seqs([a1, b1, c1, d1]));
  // A's first change failed and is first again: its second still waits behind it.
  assert.deepEqual(seqs(pushBatch([a1, a2, b2], 8)), seqs([a1, b2]));
});

test('the window bounds the batch', () => {
  const rows = ['A', 'B', 'C', 'D'].map((id) => row('transition_order', id));
  assert.deepEqual(seqs(pushBatch(rows, 2)), seqs(rows.slice(0, 2)));
});

test('a change not about one order alone goes by itself, after what was queued before it, and nothing after it goes first', () => {
  for (const kind of ['create_order', 'set_stock', 'set_location_open'] as const) {
    const a1 = row('transition_order', 'A');
    const barrier = row(kind, kind === 'create_order' ? 'N' : null);
    const b1 = row('transition_order', 'B');
    assert.deepEqual(seqs(pushBatch([a1, barrier, b1], 8)), seqs([a1]), kind);
    assert.deepEqual(seqs(pushBatch([barrier, b1], 8)), seqs([barrier]), kind);
  }
  assert.deepEqual(pushBatch([], 8), []);
});

test('beside changes on their way: none of them again, nothing of their orders, and a change not about one order alone waits for all of them', () => {
  const a1 = row('transition_order', 'A');
  const a2 = row('transition_order', 'A');
  const b1 = row('transition_order', 'B');
  const b2 = row('transition_order', 'B');
  const c1 = row('transition_order', 'C');
  // A's first change is on its way: B's and C's first go, A's second waits.
  assert.deepEqual(seqs(pushBatch([a1, a2, b1, b2, c1], 8, new Set([a1.seq]))), seqs([b1, c1]));
  assert.deepEqual(seqs(pushBatch([a1, a2, b1, b2, c1], 8, new Set([a1.seq, b1.seq, c1.seq]))), []);
  for (const kind of ['create_order', 'set_stock', 'set_location_open'] as const) {
    const barrier = row(kind, kind === 'create_order' ? 'N' : null);
    const d1 = row('transition_order', 'D');
    // A change before it still on its way: it waits, and so does everything after it.
    assert.deepEqual(seqs(pushBatch([a1, barrier, d1], 8, new Set([a1.seq]))), [], kind);
    // It is on its way itself: nothing after it goes.
    assert.deepEqual(seqs(pushBatch([barrier, d1], 8, new Set([barrier.seq]))), [], kind);
  }
});
