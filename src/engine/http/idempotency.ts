import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, invalidRequest } from '../domain/errors.ts';
import type { Engine } from '../engine.ts';
import { IDEMPOTENCY_WINDOW_MS } from '../services/idempotency-retention.ts';
import { actorOf } from './authentication.ts';
import { sendJsonAsIs } from './send-json.ts';

const MAX_KEY_LENGTH = 255;

/**
 * JSON with sorted keys, so the same body hashes the same whatever its key order. Iterative: a
 * body may nest as deep as its size allows, and a recursive walk would overflow the stack.
 */
function canonicalJson(root: unknown): string {
  type Work = { text: string } | { value: unknown };
  const out: string[] = [];
  const stack: Work[] = [{ value: root }];
  while (stack.length > 0) {
    const work = stack.pop()!;
    if ('text' in work) {
      out.push(work.text);
      continue;
    }
    const value = work.value;
    const parts: Work[] = [];
    if (Array.isArray(value)) {
      parts.push({ text: '[' });
      value.forEach((item: unknown, index) => {
        if (index > 0) parts.push({ text: ',' });
        parts.push({ value: item });
      });
      parts.push({ text: ']' });
    } else if (value !== null && typeof value === 'object') {
      parts.push({ text: '{' });
      Object.keys(value)
        .sort()
        .forEach((key, index) => {
          parts.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(key)}:` });
          parts.push({ value: (value as Record<string, unknown>)[key] });
        });
      parts.push({ text: '}' });
    } else {
      out.push(JSON.stringify(value) ?? 'null');
      continue;
    }
    for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
  }
  return out.join('');
}

function requestFingerprint(request: FastifyRequest, rawBody: unknown): string {
  const path = request.url.split('?')[0];
  return createHash('sha256').update(`${request.method} ${path}\n${canonicalJson(rawBody ?? null)}`).digest('hex');
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Hash of method, path and body as received (before defaults are applied). */
    idempotencyFingerprint?: string;
  }
}

/** Fingerprints requests that carry an Idempotency-Key, before validation fills in defaults. */
export function installIdempotencyFingerprint(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (request.headers['idempotency-key'] !== undefined) {
      request.idempotencyFingerprint = requestFingerprint(request, request.body);
    }
  });
}

/**
 * Runs a write. With an `Idempotency-Key` the first answer (success or refusal) is stored in the
 * same transaction as the write and replayed for the same key and body for 24 hours; the same key
 * with another body is 409 `state_conflict`. Unexpected failures are not stored, so they can be retried.
 */
export function respondToWrite<T>(
  engine: Engine,
  request: FastifyRequest,
  reply: FastifyReply,
  successStatus: number,
  work: () => T,
): void {
  const header = request.headers['idempotency-key'];
  if (header === undefined) {
    reply.code(successStatus).send(work());
    return;
  }
  if (typeof header !== 'string' || header.length === 0 || header.length > MAX_KEY_LENGTH) {
    throw invalidRequest(`Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  const actor = actorOf(request);
  const fingerprint = request.idempotencyFingerprint ?? requestFingerprint(request, request.body);
  const outcome = engine.transaction(() => {
    const now = engine.clock.now();
    const stored = engine.idempotency.get(actor.keyId, header, now - IDEMPOTENCY_WINDOW_MS);
    if (stored) {
      if (stored.request_hash !== fingerprint) {
        throw new ApiError('state_conflict', 'this Idempotency-Key was already used with a different request');
      }
      return { status: stored.status, body: stored.body, replayed: true };
    }
    let status = successStatus;
    let body: unknown;
    try {
      body = engine.transaction(work);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      status = error.status;
      body = error.toBody();
    }
    const text = JSON.stringify(body);
    engine.idempotency.save(actor.keyId, header, fingerprint, status, text, now);
    return { status, body: text, replayed: false };
  });
  if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
  sendJsonAsIs(reply, outcome.status, outcome.body);
}
