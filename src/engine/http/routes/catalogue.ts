import { Quote, QuoteBody } from '../../../shared/schemas/delivery.ts';
import { Menu, MenuQuery } from '../../../shared/schemas/menu.ts';
import { SetSoldOutBody, SetSoldOutResult, SoldOutList, SoldOutQuery } from '../../../shared/schemas/sold-out.ts';
import { SetStockBody, SetStockResult, StockList, StockQuery } from '../../../shared/schemas/stock.ts';
import { quoteDelivery } from '../../services/delivery/quote-delivery.ts';
import { readMenu } from '../../services/menu/read-menu.ts';
import { readStock } from '../../services/menu/stock.ts';
import { readSoldOut } from '../../services/menu/sold-out.ts';
import { actorOf } from '../authentication.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';
import { respondToWrite } from '../idempotency.ts';
import { IdempotencyHeaders } from '../openapi/idempotency-header.ts';
import { operation } from '../openapi/operations.ts';
import { sendJsonAsIs } from '../send-json.ts';


export function registerCatalogueRoutes(app: ApiServer, context: HttpContext): void {
  const { engine } = context;

  app.get(
    '/menu',
    { schema: { ...operation('getMenu', { 200: { schema: Menu, description: 'The menu.' } }), querystring: MenuQuery } },
    async (request) => await readMenu(engine, actorOf(request), request.query.location_id),
  );

  app.get(
    '/stock',
    { schema: { ...operation('getStock', { 200: { schema: StockList, description: 'Stock of every tracked product at the location.' } }), querystring: StockQuery } },
    async (request) => await readStock(engine, actorOf(request), request.query.location_id),
  );

  app.put(
    '/stock',
    {
      schema: {
        ...operation('setStock', { 200: { schema: SetStockResult, description: 'The quantities now set.' } }),
        headers: IdempotencyHeaders,
        body: SetStockBody,
      },
    },
    async (request, reply) => await respondToWrite(engine, request, reply, 200, async (tx) => await context.commands.setStock(actorOf(request), request.body, tx)),
  );

  app.get(
    '/sold-out',
    { schema: { ...operation('getSoldOut', { 200: { schema: SoldOutList, description: 'What is sold out at the location now.' } }), querystring: SoldOutQuery } },
    async (request) => await readSoldOut(engine, actorOf(request), request.query.location_id),
  );

  app.put(
    '/sold-out',
    {
      schema: {
        ...operation('setSoldOut', { 200: { schema: SetSoldOutResult, description: 'What is sold out at the location after the write.' } }),
        headers: IdempotencyHeaders,
        body: SetSoldOutBody,
      },
    },
    async (request, reply) => await respondToWrite(engine, request, reply, 200, async (tx) => await context.commands.setSoldOut(actorOf(request), request.body, tx)),
  );

  app.post(
    '/delivery/quote',
    { schema: { ...operation('quoteDelivery', { 200: { schema: Quote, description: 'The quote, or why there is no delivery.' } }), body: QuoteBody } },
    async (request, reply) => {
      if (context.replica) {
        const quoted = await context.replica.quoteDelivery(actorOf(request), request.body);
        return sendJsonAsIs(reply, quoted.status, JSON.stringify(quoted.body));
      }
      return await quoteDelivery(engine, actorOf(request), request.body, context.providers.couriers);
    },
  );
}
