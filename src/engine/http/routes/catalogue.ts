import Type from 'typebox';
import { ErrorBody } from '../../../shared/schemas/common.ts';
import { Quote, QuoteBody } from '../../../shared/schemas/delivery.ts';
import { Menu, MenuQuery } from '../../../shared/schemas/menu.ts';
import { SetStockBody, SetStockResult, StockList, StockQuery } from '../../../shared/schemas/stock.ts';
import { quoteDelivery } from '../../services/quote-delivery.ts';
import { readMenu } from '../../services/read-menu.ts';
import { readStock } from '../../services/stock.ts';
import { actorOf } from '../authentication.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';
import { respondToWrite } from '../idempotency.ts';
import { sendJsonAsIs } from '../send-json.ts';

const errors = { '4xx': ErrorBody, '5xx': ErrorBody };
const idempotencyHeader = Type.Object({ 'idempotency-key': Type.Optional(Type.String()) });

export function registerCatalogueRoutes(app: ApiServer, context: HttpContext): void {
  const { engine } = context;

  app.get(
    '/menu',
    { schema: { tags: ['menu'], summary: 'The menu with stock-based availability', querystring: MenuQuery, response: { 200: Menu, ...errors } } },
    (request) => readMenu(engine, actorOf(request), request.query.location_id),
  );

  app.get(
    '/stock',
    { schema: { tags: ['stock'], summary: 'Stock of tracked products at a location', querystring: StockQuery, response: { 200: StockList, ...errors } } },
    (request) => readStock(engine, actorOf(request), request.query.location_id),
  );

  app.put(
    '/stock',
    {
      schema: {
        tags: ['stock'],
        summary: 'Set absolute stock quantities',
        headers: idempotencyHeader,
        body: SetStockBody,
        response: { 200: SetStockResult, ...errors },
      },
    },
    (request, reply) => void respondToWrite(engine, request, reply, 200, () => context.commands.setStock(actorOf(request), request.body)),
  );

  app.post(
    '/delivery/quote',
    { schema: { tags: ['delivery'], summary: 'Quote delivery to an address', body: QuoteBody, response: { 200: Quote, ...errors } } },
    async (request, reply) => {
      if (context.replica) {
        const quoted = await context.replica.quoteDelivery(actorOf(request), request.body);
        return sendJsonAsIs(reply, quoted.status, JSON.stringify(quoted.body));
      }
      return quoteDelivery(engine, actorOf(request), request.body, context.couriers);
    },
  );
}
