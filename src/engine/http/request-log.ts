import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

/** An API key anywhere in a text, its separators percent-encoded or not. */
const KEY_SHAPED = /cm(?:_|%5f)(live|test)(?:_|%5f)[0-9a-z]+/gi;

/** The text with every API key in it replaced by `cm_live_[redacted]` (or test). */
export function redactApiKeys(text: string): string {
  return text.replace(KEY_SHAPED, (_match, mode: string) => `cm_${mode.toLowerCase()}_[redacted]`);
}

/**
 * How a request is logged: Fastify's fields, with any API key a client put in the URL (a mistake,
 * but one a log must not keep) redacted. Headers are never logged.
 */
export function requestForLog(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactApiKeys(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The logger the API logs through: the given one (or Fastify's own, when `true`) with requests logged by requestForLog. */
export function apiLogger(logger: FastifyBaseLogger | boolean | undefined): { loggerInstance: FastifyBaseLogger } | { logger: boolean | object } {
  const serializers = { req: requestForLog };
  if (typeof logger === 'object') return { loggerInstance: logger.child({}, { serializers }) };
  return { logger: logger ? { serializers } : false };
}
