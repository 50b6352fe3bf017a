import { CreatedOrder, CreateOrderBody, ListOrdersQuery, Order, OrderIdParams, OrderList, PatchOrderBody } from '../../../shared/schemas/orders.ts';
import { getOrder, listOrders } from '../../services/orders/read-orders.ts';
import { requireWrite } from '../../services/keys/restaurant-context.ts';
import { actorOf } from '../authentication.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';
import { IdempotencyHeaders } from '../openapi/idempotency-header.ts';
import { operation } from '../openapi/operations.ts';
import { OrderResponses } from '../order-responses.ts';
import { respondToWrite, respondToWriteThen } from '../idempotency.ts';
import { orderPlacement, type OrderPlacing } from '../../services/orders/place-order.ts';
import { publicOriginOf } from '../public-origin.ts';
import { sendJsonAsIs } from '../send-json.ts';

export function registerOrderRoutes(app: ApiServer, context: HttpContext): void {
  const { engine } = context;
  const placing: OrderPlacing = {
    engine,
    commands: context.commands,
    payments: context.providers.payments,
    ...(context.paymentTimeoutMs !== undefined ? { paymentTimeoutMs: context.paymentTimeoutMs } : {}),
  };
  // Reads answered from kept response bytes (order-responses.ts), unless turned off.
  const responses = context.keepOrderResponses === false ? null : new OrderResponses(engine);
  if (responses) app.addHook('onClose', (_instance, done) => {
    responses.close();
    done();
  });

  app.get(
    '/orders',
    { schema: { ...operation('listOrders', { 200: { schema: OrderList, description: 'A page of orders.' } }), querystring: ListOrdersQuery } },
    async (request, reply) =>
      responses ? await responses.sendPage(reply, actorOf(request), request.query) : await listOrders(engine, actorOf(request), request.query),
  );

  app.get(
    '/orders/:order_id',
    { schema: { ...operation('getOrder', { 200: { schema: Order, description: 'The order.' } }), params: OrderIdParams } },
    async (request, reply) =>
      responses
        ? await responses.sendOrder(reply, actorOf(request), request.params.order_id)
        : await getOrder(engine, actorOf(request), request.params.order_id),
  );

  app.post(
    '/orders',
    {
      schema: {
        ...operation('createOrder', { 201: { schema: CreatedOrder, description: 'The order, with `payment_link` for online payment.' } }),
        headers: IdempotencyHeaders,
        body: CreateOrderBody,
      },
    },
    async (request, reply) => {
      const replica = context.replica;
      if (replica && request.body.payment === 'online') {
        requireWrite(actorOf(request));
        const key = request.headers['idempotency-key'];
        const forwarded = await replica.forwardOnlineOrder(actorOf(request), request.body, typeof key === 'string' ? key : undefined);
        return sendJsonAsIs(reply, forwarded.status, JSON.stringify(forwarded.body));
      }
      // The order's commit, then (online) its provider asked with no transaction open: services/orders/place-order.ts.
      const placement = orderPlacement(placing, actorOf(request), request.body, publicOriginOf(context, request));
      await respondToWriteThen(engine, request, reply, 201, placement.commit, placement.afterCommit);
      return reply;
    },
  );

  app.patch(
    '/orders/:order_id',
    {
      schema: {
        ...operation('transitionOrder', { 200: { schema: Order, description: 'The order in the resulting state, after side effects.' } }),
        headers: IdempotencyHeaders,
        params: OrderIdParams,
        body: PatchOrderBody,
      },
    },
    async (request, reply) => await respondToWrite(engine, request, reply, 200, async (tx) =>
        await context.commands.transitionOrder(actorOf(request), request.params.order_id, request.body.status, tx),
      ),
  );
}
