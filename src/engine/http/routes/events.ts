import { EventPage, EventsQuery } from '../../../shared/schemas/events.ts';
import { pollFeed } from '../../services/feed/change-feed.ts';
import { actorOf } from '../authentication.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';
import { operation } from '../openapi/operations.ts';

export function registerEventRoutes(app: ApiServer, context: HttpContext): void {
  app.get(
    '/events',
    {
      schema: {
        ...operation('listEvents', { 200: { schema: EventPage, description: 'Events after the cursor.' } }),
        querystring: EventsQuery,
      },
    },
    async (request, reply) => {
      // Stop waiting when the client goes away: a held request must not outlive its socket.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      return await pollFeed(context.engine, actorOf(request), request.query, gone.signal);
    },
  );
}
