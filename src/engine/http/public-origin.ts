import type { FastifyRequest } from 'fastify';
import type { HttpContext } from './http-context.ts';

/**
 * The engine's origin as its customers reach it (the payment pages' and return links' base): the
 * configured public origin, else the request's own. Not where a request comes from: that is
 * kitchen/request-origin.ts, the kitchen door's check.
 */
export function publicOriginOf(context: HttpContext, request: FastifyRequest): string {
  return context.publicOrigin ?? `${request.protocol}://${request.host}`;
}
