import type { FastifyRequest } from 'fastify';
import type { HttpContext } from './http-context.ts';

export function originOf(context: HttpContext, request: FastifyRequest): string {
  return context.publicOrigin ?? `${request.protocol}://${request.host}`;
}
