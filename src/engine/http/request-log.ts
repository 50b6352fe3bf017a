import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { pino, stdSerializers } from 'pino';
import { redactApiKeys as redactKeysOnly } from '../domain/api-key-redaction.ts';
import { redactAdminTokens } from './kitchen/admin-session.ts';

/** API keys in any spelling, and the one-time admin link's token (`npm start` without Electron). */
const redactApiKeys = (text: string): string => redactAdminTokens(redactKeysOnly(text));

/**
 * How a request is logged: Fastify's fields, with any API key a client put in the URL (a mistake,
 * but one a log must not keep) and the admin link's one-time token redacted. Headers are never logged.
 */
export function requestForLog(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactApiKeys(request.url),
    host: redactApiKeys(request.host),
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

const MAX_DEPTH = 8;

/**
 * A log argument with every API key in its text redacted: strings, plain objects and arrays are
 * walked; an Error becomes pino's serialized error (message and stack redacted). Other objects
 * (Fastify's request and reply) are left to the serializers, which redact what they log.
 */
function redactLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactApiKeys(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (value instanceof Error) return redactLogValue(stdSerializers.err(value), depth + 1);
  if (Array.isArray(value)) return value.map((item) => redactLogValue(item, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactLogValue(item, depth + 1);
  return out;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/**
 * The logger with every call's arguments redacted before they reach it: messages, objects and
 * errors (Fastify's own "route not found" or bad-URL errors carry the URL a client sent).
 */
function redactingLogger(logger: FastifyBaseLogger): FastifyBaseLogger {
  const wrapped = Object.create(logger) as FastifyBaseLogger;
  for (const level of LEVELS) {
    const write = logger[level].bind(logger) as (...args: unknown[]) => void;
    const enabled = (logger as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
    (wrapped as unknown as Record<string, unknown>)[level] = (...args: unknown[]) => {
      // Nothing is walked for a level that writes nothing.
      if (enabled && !enabled.call(logger, level)) return;
      write(...args.map((arg) => redactLogValue(arg)));
    };
  }
  wrapped.child = ((bindings: Record<string, unknown>, options?: object) =>
    redactingLogger(logger.child(redactLogValue(bindings) as Record<string, unknown>, options))) as FastifyBaseLogger['child'];
  return wrapped;
}

/** The logger the API logs through: the given one (or Fastify's own, when `true`) with requests logged by requestForLog and keys redacted. */
export function apiLogger(logger: FastifyBaseLogger | boolean | undefined): { loggerInstance: FastifyBaseLogger } | { logger: boolean | object } {
  const serializers = { req: requestForLog };
  if (typeof logger === 'object') return { loggerInstance: redactingLogger(logger.child({}, { serializers })) };
  if (logger === true) return { loggerInstance: redactingLogger(pino({ serializers })) };
  return { logger: false };
}
