import { ErrorBody } from '../../../shared/schemas/common.ts';
import { EventPage, EventsQuery } from '../../../shared/schemas/events.ts';
import { pollFeed } from '../../services/change-feed.ts';
import { actorOf } from '../authentication.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';

export function registerEventRoutes(app: ApiServer, context: HttpContext): void {
  app.get(
    '/events',
    {
      schema: {
        tags: ['events'],
        summary: 'The change feed, oldest first, with long-poll',
        querystring: EventsQuery,
        response: { 200: EventPage, '4xx': ErrorBody, '5xx': ErrorBody },
      },
    },
    async (request, reply) => {
      // Stop waiting when the client goes away: a held request must not outlive its socket.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      return pollFeed(context.engine, actorOf(request), request.query, gone.signal);
    },
  );
}
