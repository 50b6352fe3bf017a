import Type from 'typebox';
import { ErrorBody } from '../../../shared/schemas/common.ts';
import { CreateOrderBody, ListOrdersQuery, Order, OrderIdParams, OrderList, PatchOrderBody } from '../../../shared/schemas/orders.ts';
import { getOrder, listOrders } from '../../services/read-orders.ts';
import { requireWrite } from '../../services/restaurant-context.ts';
import { actorOf } from '../authentication.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';
import { OrderResponses } from '../order-responses.ts';
import { respondToWrite, respondToWriteThen } from '../idempotency.ts';
import { openOnlinePayment } from '../../services/open-online-payment.ts';
import { pendingMarker } from '../../store/idempotency-store.ts';
import { originOf } from '../request-origin.ts';
import { sendJsonAsIs } from '../send-json.ts';

const errors = { '4xx': ErrorBody, '5xx': ErrorBody };
const idempotencyHeader = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'Replays the first answer for 24 h (up to 255 chars).' })),
});

export function registerOrderRoutes(app: ApiServer, context: HttpContext): void {
  const { engine } = context;
  // Reads answered from kept response bytes (order-responses.ts), unless turned off.
  const responses = context.keepOrderResponses === false ? null : new OrderResponses(engine);
  if (responses) app.addHook('onClose', (_instance, done) => {
    responses.close();
    done();
  });

  app.get(
    '/orders',
    { schema: { tags: ['orders'], summary: 'List orders, newest first', querystring: ListOrdersQuery, response: { 200: OrderList, ...errors } } },
    (request, reply) =>
      responses ? void responses.sendPage(reply, actorOf(request), request.query) : listOrders(engine, actorOf(request), request.query),
  );

  app.get(
    '/orders/:order_id',
    { schema: { tags: ['orders'], summary: 'Read an order', params: OrderIdParams, response: { 200: Order, ...errors } } },
    (request, reply) =>
      responses
        ? void responses.sendOrder(reply, actorOf(request), request.params.order_id)
        : getOrder(engine, actorOf(request), request.params.order_id),
  );

  app.post(
    '/orders',
    {
      schema: {
        tags: ['orders'],
        summary: 'Create an order',
        headers: idempotencyHeader,
        body: CreateOrderBody,
        response: { 201: Order, ...errors },
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
      const origin = originOf(context, request);
      // An online order's provider is asked after the order's commit (services/open-online-payment.ts).
      await respondToWriteThen(
        engine,
        request,
        reply,
        201,
        () => context.commands.createOrder(actorOf(request), request.body, { payments: context.payments, origin }),
        (order) =>
          request.body.payment === 'online'
            ? {
                marker: pendingMarker(order.id),
                run: () => openOnlinePayment(engine, context.payments, order.id, origin, context.paymentTimeoutMs),
              }
            : null,
      );
      return reply;
    },
  );

  app.patch(
    '/orders/:order_id',
    {
      schema: {
        tags: ['orders'],
        summary: 'Move an order to another state',
        headers: idempotencyHeader,
        params: OrderIdParams,
        body: PatchOrderBody,
        response: { 200: Order, ...errors },
      },
    },
    (request, reply) => void respondToWrite(engine, request, reply, 200, () =>
        context.commands.transitionOrder(actorOf(request), request.params.order_id, request.body.status),
      ),
  );
}
