import type { FastifyReply } from 'fastify';

/** Sends a body that is already API JSON (a stored or forwarded answer) as it is, with its status. */
export function sendJsonAsIs(reply: FastifyReply, status: number, json: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').serializer((payload: unknown) => payload as string).send(json);
}
