import Type from 'typebox';
import { ErrorBody } from '../../../shared/schemas/common.ts';
import { LocationIdParams, LocationList, LocationStatusResult } from '../../../shared/schemas/locations.ts';
import { listLocations } from '../../services/locations.ts';
import { actorOf } from '../authentication.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';
import { respondToWrite } from '../idempotency.ts';

const errors = { '4xx': ErrorBody, '5xx': ErrorBody };
const idempotencyHeader = Type.Object({ 'idempotency-key': Type.Optional(Type.String()) });

export function registerLocationRoutes(app: ApiServer, context: HttpContext): void {
  const { engine } = context;

  app.get(
    '/locations',
    { schema: { tags: ['locations'], summary: 'Locations with live open/closed status', response: { 200: LocationList, ...errors } } },
    (request) => listLocations(engine, actorOf(request)),
  );

  for (const action of ['open', 'close'] as const) {
    app.post(
      `/locations/:location_id/${action}`,
      {
        schema: {
          tags: ['locations'],
          summary: action === 'open' ? 'Open a location now' : 'Close a location now',
          headers: idempotencyHeader,
          params: LocationIdParams,
          response: { 200: LocationStatusResult, ...errors },
        },
      },
      (request, reply) => void respondToWrite(engine, request, reply, 200, () =>
          context.commands.setLocationOpen(actorOf(request), request.params.location_id, action === 'open'),
        ),
    );
  }
}
