import { LocationIdParams, LocationList, LocationStatusResult } from '../../../shared/schemas/locations.ts';
import { listLocations } from '../../services/locations/locations.ts';
import { actorOf } from '../authentication.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';
import { respondToWrite } from '../idempotency.ts';
import { IdempotencyHeaders } from '../openapi/idempotency-header.ts';
import { operation } from '../openapi/operations.ts';


export function registerLocationRoutes(app: ApiServer, context: HttpContext): void {
  const { engine } = context;

  app.get(
    '/locations',
    { schema: operation('listLocations', { 200: { schema: LocationList, description: 'The locations, evaluated now.' } }) },
    async (request) => await listLocations(engine, actorOf(request)),
  );

  for (const action of ['open', 'close'] as const) {
    app.post(
      `/locations/:location_id/${action}`,
      {
        schema: {
          ...operation(action === 'open' ? 'openLocation' : 'closeLocation', {
            200: { schema: LocationStatusResult, description: 'The location\'s status after the change.' },
          }),
          headers: IdempotencyHeaders,
          params: LocationIdParams,
        },
      },
      async (request, reply) => await respondToWrite(engine, request, reply, 200, async (tx) =>
          await context.commands.setLocationOpen(actorOf(request), request.params.location_id, action === 'open', tx),
        ),
    );
  }
}
