import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, invalidRequest } from '../domain/errors.ts';
import type { Engine, WriteTransaction } from '../engine.ts';
import { answerOnce, forgetAnswer, settleAnswer, type KeptAnswer, type KeyedRequest } from '../services/orders/idempotent-answers.ts';
import type { AfterCommit } from '../services/orders/place-order.ts';
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

/** A body that could not be parsed is fingerprinted by its text (canonical JSON never starts with `raw:`). */
function unparsedFingerprint(request: FastifyRequest, text: string): string {
  const path = request.url.split('?')[0];
  return createHash('sha256').update(`${request.method} ${path}\nraw:${text}`).digest('hex');
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Hash of method, path and body as received (before defaults are applied). */
    idempotencyFingerprint?: string;
    /** The body's text as received, kept by the body parsers so a refused body can be fingerprinted. */
    bodyText?: string;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Fingerprints requests that carry an Idempotency-Key, before validation fills in defaults. */
export function installIdempotencyFingerprint(app: FastifyInstance): void {
  // A callback hook (no promise per request): most requests carry no key.
  app.addHook('preValidation', (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    if (request.headers['idempotency-key'] !== undefined) {
      request.idempotencyFingerprint = requestFingerprint(request, request.body);
    }
    done();
  });
}

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || header.length === 0 || header.length > MAX_KEY_LENGTH) {
    throw invalidRequest(`Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  return header;
}

/** The request under its key, as the idempotency service keeps it. */
function keyedRequest(request: FastifyRequest, key: string, fingerprint: string): KeyedRequest {
  const actor = actorOf(request);
  return { apiKeyId: actor.keyId, restaurantId: actor.restaurantId, key, fingerprint };
}

/**
 * Like respondToWrite, for a write whose answer needs an outside party after its commit (an online
 * order: its payment provider is called with no transaction open). `after` decides, inside the
 * write's transaction, whether such a step follows. With an `Idempotency-Key` the key is recorded
 * as in flight in that transaction (a concurrent retry is 409, never a second order), then holds
 * the final answer, or is forgotten when the step ends in a 5xx (the key may be retried).
 */
export async function respondToWriteThen<T, U>(
  engine: Engine,
  request: FastifyRequest,
  reply: FastifyReply,
  successStatus: number,
  work: (tx?: WriteTransaction) => Promise<T>,
  after: (result: T) => AfterCommit<U> | null,
): Promise<void> {
  const key = idempotencyKeyOf(request);
  if (key === undefined) {
    const result = await work();
    const step = after(result);
    reply.code(successStatus).send(step ? await step.run() : result);
    return;
  }
  const keyed = keyedRequest(request, key, request.idempotencyFingerprint ?? requestFingerprint(request, request.body));
  let step: AfterCommit<U> | null = null;
  const outcome = await answerOnce(engine, keyed, async (tx) => {
    try {
      // A savepoint: a refused write (4xx) leaves nothing, and its answer is kept under the key.
      const result = await tx.savepoint(work);
      step = after(result);
      return step ? { status: successStatus, body: null, pendingMarker: step.marker } : { status: successStatus, body: result };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return { status: error.status, body: error.toBody() };
    }
  });
  const pending = step as AfterCommit<U> | null;
  if (!('pending' in outcome) || !pending) return sendAnswer(reply, outcome);
  let status = successStatus;
  let body: unknown;
  try {
    body = await pending.run();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) {
      await forgetAnswer(engine, keyed);
      throw error;
    }
    status = error.status;
    body = error.toBody();
  }
  sendAnswer(reply, await settleAnswer(engine, keyed, status, body));
}

function sendAnswer(reply: FastifyReply, outcome: KeptAnswer): void {
  if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
  sendJsonAsIs(reply, outcome.status, outcome.body);
}

/**
 * Runs a write. With an `Idempotency-Key` the first answer (success or refusal) is stored in the
 * same transaction as the write and replayed for the same key and body for 24 hours; the same key
 * with another body is 409 `state_conflict`. Unexpected failures are not stored, so they can be retried.
 */
export async function respondToWrite<T>(
  engine: Engine,
  request: FastifyRequest,
  reply: FastifyReply,
  successStatus: number,
  work: (tx?: WriteTransaction) => Promise<T>,
): Promise<void> {
  const key = idempotencyKeyOf(request);
  if (key === undefined) {
    reply.code(successStatus).send(await work());
    return;
  }
  const keyed = keyedRequest(request, key, request.idempotencyFingerprint ?? requestFingerprint(request, request.body));
  const outcome = await answerOnce(engine, keyed, async (tx) => {
    try {
      return { status: successStatus, body: await tx.savepoint(work) };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return { status: error.status, body: error.toBody() };
    }
  });
  sendAnswer(reply, outcome);
}

/**
 * A 400 refused before the write ran (a body that is not JSON, or that its schema rejects) is an
 * answer like any other: stored under the request's `Idempotency-Key` and replayed for the same
 * body, and the key used again with another body is 409. Returns false when the refusal is not
 * one to store: not a 400, no (valid) key, no authenticated key to store it under, not a write.
 */
export async function answerRefusalOnce(engine: Engine, request: FastifyRequest, reply: FastifyReply, refusal: ApiError): Promise<boolean> {
  if (refusal.status !== 400 || request.is404 || !request.actor || !WRITE_METHODS.has(request.method)) return false;
  let key: string | undefined;
  try {
    key = idempotencyKeyOf(request);
  } catch {
    return false;
  }
  if (key === undefined) return false;
  const fingerprint =
    request.idempotencyFingerprint ??
    (request.body === undefined && request.bodyText !== undefined
      ? unparsedFingerprint(request, request.bodyText)
      : requestFingerprint(request, request.body));
  sendAnswer(reply, await answerOnce(engine, keyedRequest(request, key, fingerprint), async () => ({ status: refusal.status, body: refusal.toBody() })));
  return true;
}
