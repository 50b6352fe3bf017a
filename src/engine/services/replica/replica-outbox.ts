// A replica's use cases for its outbox (the durable queue of local changes the sync door pushes
// upstream) and for the conflicts a refused push leaves. The door (src/sync) sends and reads over
// the network, outside any transaction; each answer is put in place here in one transaction.
import { mapInOrder } from '../../../shared/in-order.ts';
import { randomUUID } from 'node:crypto';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import type { OutboxKind, OutboxRow, UnresolvedConflict } from '../../store/sync-store.ts';
import { mirrorItemStates, type OrderItemStates } from '../kitchen/kitchen-item-sync.ts';
import type { LocationStatusView } from '../locations/location-status.ts';
import { mirrorLocation, mirrorOrder, mirrorStock } from './mirror-upstream.ts';
import type { OrderView } from '../orders/order-view.ts';
import type { ReplicaIdentity } from './replica-state.ts';
import type { StockEntryView } from '../menu/stock.ts';
import { applyTransition } from '../orders/transition-order.ts';

/** What the upstream said when it refused a change (its error body, with the HTTP status). */
export interface UpstreamRefusal {
  status: number;
  code: string;
  message: string;
}

/** An answer the upstream gave to a pushed change: its body is the upstream's state after it. */
export interface UpstreamAnswer {
  row: OutboxRow;
  response: { body: unknown };
}

/** Appends a local change to the outbox; called inside the transaction of the change it carries. */
export async function queueForUpstream(engine: Engine, kind: OutboxKind, payload: unknown, refs: { orderId?: string; locationId?: string }, callerTx?: WriteTransaction): Promise<void> {
  return await engine.within(callerTx, async (tx) => {
    await tx.stores.sync.append(randomUUID(), kind, payload, refs, engine.clock.now());
  });
}

/** Each product's quantity at a location before a stock write replaces it (pushed with it). */
export async function stockBefore(engine: Engine, locationId: string, productIds: readonly string[], callerTx?: ReadTransaction): Promise<{ product_id: string; quantity: number }[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await mapInOrder(productIds, async (productId) => ({ product_id: productId, quantity: await tx.stores.stock.quantity(locationId, productId) }));
  });
}

/** The first changes waiting to be pushed, oldest first. */
export async function outboxHead(engine: Engine, limit: number, callerTx?: ReadTransaction): Promise<OutboxRow[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await tx.stores.sync.firstToPush(limit);
  });
}

/** A push that got no answer it can use: counted and kept pending (sent again with the same key). */
export async function recordFailedPush(engine: Engine, seq: number, reason: string): Promise<void> {
  await engine.transaction(async (tx) => await tx.stores.sync.failedAttempt(seq, reason));
}

/**
 * A refused change: the conflict is recorded now, and the upstream's state, which wins here, is read
 * after it with retries (resolveDueConflicts in src/sync). A refused new order has nothing to read:
 * it is cancelled here at once.
 */
export async function recordRefusal(engine: Engine, identity: ReplicaIdentity, row: OutboxRow, refusal: UpstreamRefusal): Promise<void> {
  await engine.transaction(async (tx) => {
    const nothingToRead = row.kind === 'create_order';
    await tx.stores.sync.conflict(row, refusal, null, engine.clock.now(), nothingToRead);
    if (nothingToRead) await resolveInFavourOfUpstream(engine, tx, identity, row, null);
  });
}

/**
 * Products of a stock write the upstream changed meanwhile: a conflict is recorded for them and the
 * upstream's quantities stand here; the write is closed (nothing left) or narrowed to the rest.
 */
export async function recordStockClash(
  engine: Engine,
  identity: ReplicaIdentity,
  row: OutboxRow & { location_id: string },
  clash: { localChange: string; refusal: UpstreamRefusal; upstreamState: unknown; upstream: { product_id: string; quantity: number }[]; rest: string | null },
): Promise<void> {
  await engine.transaction(async (tx) => {
    await tx.stores.sync.recordConflict(row, clash.localChange, clash.refusal, clash.upstreamState, engine.clock.now());
    await mirrorStock(engine, tx, identity.restaurantId, row.location_id, clash.upstream, { force: true });
    if (clash.rest === null) await tx.stores.sync.closeAsConflict(row.seq, clash.refusal);
    else await tx.stores.sync.rewritePayload(row.seq, clash.rest);
  });
}

/**
 * Marks the upstream's answers sent and mirrors them, in one transaction (one commit for many
 * changes). Should one of them fail to apply, each is recorded alone so that only that one is left
 * pending (and retried); returns the changes left so, with why.
 */
export async function recordAnswers(engine: Engine, identity: ReplicaIdentity, answers: readonly UpstreamAnswer[]): Promise<{ row: OutboxRow; error: unknown }[]> {
  const recordOne = async (tx: WriteTransaction, answer: UpstreamAnswer) => {
    await tx.stores.sync.sent(answer.row.seq, engine.clock.now());
    await acknowledge(engine, tx, identity, answer.row, answer.response.body);
  };
  if (answers.length === 0) return [];
  try {
    await engine.transaction(async (tx) => {
      for (const answer of answers) await recordOne(tx, answer);
    });
    return [];
  } catch (error) {
    if (answers.length === 1) return [{ row: answers[0]!.row, error }];
  }
  const failed: { row: OutboxRow; error: unknown }[] = [];
  for (const answer of answers) {
    try {
      await engine.transaction(async (tx) => await recordOne(tx, answer));
    } catch (error) {
      failed.push({ row: answer.row, error });
    }
  }
  return failed;
}

async function acknowledge(engine: Engine, tx: WriteTransaction, identity: ReplicaIdentity, row: OutboxRow, body: unknown): Promise<void> {
  if (row.kind === 'create_order') {
    const upstream = body as OrderView;
    const localId = row.order_id!;
    if (localId !== upstream.id) {
      await tx.stores.orders.rename(localId, upstream.id, upstream.number);
      await tx.stores.sync.alias(localId, upstream.id);
    }
    await mirrorOrder(engine, identity.restaurantId, identity.world, upstream, 'order.updated', undefined, tx);
  } else if (row.kind === 'transition_order') {
    await mirrorOrder(engine, identity.restaurantId, identity.world, body as OrderView, 'order.updated', undefined, tx);
  } else if (row.kind === 'set_location_open') {
    await mirrorLocation(engine, tx, identity.restaurantId, body as LocationStatusView, 0);
  }
}

/** The refused changes whose upstream state is due to be read (an intent, retried on its backoff). */
export async function dueConflicts(engine: Engine, callerTx?: ReadTransaction): Promise<UnresolvedConflict[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await tx.stores.sync.dueConflicts(engine.clock.now());
  });
}

/** The upstream's state read for a refused change, put in its place, and the conflict marked resolved. */
export async function resolveConflict(engine: Engine, identity: ReplicaIdentity, conflict: UnresolvedConflict, upstreamState: unknown): Promise<void> {
  const row = { kind: conflict.outbox_kind, order_id: conflict.outbox_order_id, location_id: conflict.outbox_location_id };
  await engine.transaction(async (tx) => {
    await resolveInFavourOfUpstream(engine, tx, identity, row, upstreamState);
    await tx.stores.sync.resolved(conflict.id, upstreamState, engine.clock.now());
  });
}

/** The upstream's state could not be read: tried again at `nextAttemptAt` (engine clock). */
export async function rescheduleConflict(engine: Engine, conflictId: number, error: string, nextAttemptAt: number): Promise<void> {
  await engine.transaction(async (tx) => await tx.stores.sync.resolveFailed(conflictId, error, nextAttemptAt));
}

async function resolveInFavourOfUpstream(engine: Engine, tx: WriteTransaction, identity: ReplicaIdentity, row: Pick<OutboxRow, 'kind' | 'order_id' | 'location_id'>, upstreamState: unknown): Promise<void> {
  if (row.kind === 'create_order') {
    // The order does not exist upstream: it cannot stand here either. Cancelling gives back its stock.
    const order = row.order_id ? await tx.stores.orders.getById(row.order_id) : undefined;
    if (order && order.status !== 'cancelado' && order.status !== 'entregado') await applyTransition(engine, tx, order, 'cancelado');
    return;
  }
  if (row.kind === 'transition_order' && upstreamState) {
    await mirrorOrder(engine, identity.restaurantId, identity.world, upstreamState as OrderView, 'order.updated', { force: true }, tx);
    return;
  }
  if (row.kind === 'set_stock' && upstreamState && row.location_id) {
    await mirrorStock(engine, tx, identity.restaurantId, row.location_id, (upstreamState as { data: StockEntryView[] }).data, { force: true });
    return;
  }
  if (row.kind === 'set_item_done' && upstreamState && row.order_id) {
    await mirrorItemStates(engine, tx, row.order_id, upstreamState as OrderItemStates);
    return;
  }
  if (row.kind === 'set_location_open' && upstreamState) {
    const list = upstreamState as { data: LocationStatusView[] };
    for (const status of list.data) await mirrorLocation(engine, tx, identity.restaurantId, status, 0);
  }
}
