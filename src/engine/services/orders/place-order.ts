import type { CreateOrderInput } from '../../../shared/schemas/orders.ts';
import type { Engine, WriteTransaction } from '../../engine.ts';
import type { PaymentProviders } from '../../payments/payment-provider.ts';
import { pendingMarker } from '../../domain/idempotency-record.ts';
import type { Actor } from '../../domain/actor.ts';
import { createOrder } from './create-order.ts';
import type { EngineCommands } from '../engine-commands.ts';
import { DEFAULT_PAYMENT_TIMEOUT_MS, openOnlinePayment, type OnlineOrderView } from '../payments/open-online-payment.ts';
import type { OrderView } from './order-view.ts';

/**
 * Placing an order, the one sequence every door uses (POST /orders, tools, tests):
 * 1. its commit (create-order.ts): the order with its stock, and for an online order its payment
 *    session `opening`, in one transaction; an external order is announced (`order.created`) there;
 * 2. for an online order only, after that commit and with no transaction open, its provider is
 *    asked for the payment page (open-online-payment.ts): the order is announced with its
 *    `payment_link`, or withdrawn (stock back) and 503 `payment_unavailable`.
 * A door that records answers (an Idempotency-Key) runs step 1 inside its own transaction and marks
 * the key with `afterCommit`'s marker until step 2 answers; see http/idempotency.ts.
 */

/** Work an answer still waits on once its write committed, and what marks its key meanwhile. */
export interface AfterCommit<U> {
  /** Stored as the body of the key's in-flight record; whoever withdraws the write removes it. */
  marker: string;
  run: () => Promise<U>;
}

/** What placing an order needs from the engine it runs in, assembled once where the door starts. */
export interface OrderPlacing {
  engine: Engine;
  /** A replica's commands also append the order to its sync outbox; without, the order is created by the service itself. */
  commands?: EngineCommands;
  payments: PaymentProviders;
  /** How long the payment provider may take to open a session (real time). */
  paymentTimeoutMs?: number;
}

export interface OrderPlacement {
  /** Step 1, the order's commit: in the caller's transaction when handed one (`tx`), else its own. */
  commit(tx?: WriteTransaction): Promise<OrderView>;
  /** Step 2 of an online order, run after step 1 committed; null for an external order (its answer is step 1's). */
  afterCommit(order: OrderView): AfterCommit<OnlineOrderView> | null;
}

/** The two steps of placing one order, for a door that runs them itself (http/routes/orders.ts). */
export function orderPlacement(placing: OrderPlacing, actor: Actor, input: CreateOrderInput, origin: string): OrderPlacement {
  const timeoutMs = placing.paymentTimeoutMs ?? DEFAULT_PAYMENT_TIMEOUT_MS;
  return {
    commit: async (tx) => {
      const options = { payments: placing.payments, origin, ...(tx ? { tx } : {}) };
      return placing.commands ? await placing.commands.createOrder(actor, input, options) : await createOrder(placing.engine, actor, input, options);
    },
    afterCommit: (order) =>
      input.payment === 'online'
        ? { marker: pendingMarker(order.id), run: async () => await openOnlinePayment(placing.engine, placing.payments, order.id, origin, timeoutMs) }
        : null,
  };
}

/** Both steps of an online order, one after the other (tools, tests): the answer with its `payment_link`. */
export async function placeOnlineOrder(placing: OrderPlacing, actor: Actor, input: CreateOrderInput & { payment: 'online' }, origin: string): Promise<OnlineOrderView> {
  const placement = orderPlacement(placing, actor, input, origin);
  return placement.afterCommit(await placement.commit())!.run();
}
