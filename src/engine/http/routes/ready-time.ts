import { ReadyTimeQuote, ReadyTimeQuoteBody } from '../../../shared/schemas/orders.ts';
import { quoteReadyTime } from '../../services/menu/quote-ready-time.ts';
import { actorOf } from '../authentication.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';
import { operation } from '../openapi/operations.ts';

/** The kitchen's promise for a cart, before any order (issue 32). */
export function registerReadyTimeRoutes(app: ApiServer, context: HttpContext): void {
  const { engine } = context;
  app.post(
    '/ready-time-quotes',
    {
      schema: {
        ...operation('quoteReadyTime', { 200: { schema: ReadyTimeQuote, description: 'When the cart would be ready if ordered now.' } }),
        body: ReadyTimeQuoteBody,
      },
    },
    async (request) => await quoteReadyTime(engine, actorOf(request), request.body),
  );
}
