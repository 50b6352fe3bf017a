// The API's Idempotency-Key rule as a use case (api-v1-decisions.md): a write's first answer, success
// or refusal, is stored in the write's own transaction under (API key, Idempotency-Key) with the
// request's fingerprint, and replayed for the window; the same key with another request is 409. The
// HTTP door reads the header and fingerprints the request; this is the only code that keeps answers.
import { ApiError } from '../../domain/errors.ts';
import { PENDING_STATUS } from '../../domain/idempotency-record.ts';
import type { Engine, WriteTransaction } from '../../engine.ts';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency-retention.ts';

/** One request under its key: which API key sent it (of which restaurant), its Idempotency-Key, the hash of what it asked. */
export interface KeyedRequest {
  apiKeyId: string;
  restaurantId: string;
  key: string;
  fingerprint: string;
}

/** What a write answers; with `pendingMarker`, its answer comes only after the commit. */
export interface FreshAnswer {
  status: number;
  body: unknown;
  pendingMarker?: string;
}

/** The answer to send: replayed from the record, or fresh (its body as JSON text, or in flight). */
export interface KeptAnswer {
  status: number;
  body: string;
  replayed: boolean;
  pending?: true;
}

/**
 * In one transaction: the answer stored under the request's key (replayed, or 409 for another
 * request, or 409 while the first is still in flight), or else `answer()`'s, stored. `answer` runs
 * inside that transaction, so the write and its record commit together. The restaurant is taken
 * first and the key claimed before the work (issue 34): on PostgreSQL two nodes sent the same key
 * at once both look it up, and the second waits for the first's commit and replays its answer.
 */
export async function answerOnce(engine: Engine, request: KeyedRequest, answer: (tx: WriteTransaction) => Promise<FreshAnswer>): Promise<KeptAnswer> {
  const { apiKeyId, key, fingerprint } = request;
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    await tx.takeRestaurant(request.restaurantId);
    const claim = await tx.claimIdempotencyKey({ apiKeyId, key, requestHash: fingerprint, at: now, notOlderThan: now - IDEMPOTENCY_WINDOW_MS });
    if (claim.kind === 'answered') {
      const stored = claim.stored;
      if (stored.request_hash !== fingerprint) {
        throw new ApiError('state_conflict', 'this Idempotency-Key was already used with a different request');
      }
      if (stored.status === PENDING_STATUS) {
        throw new ApiError('state_conflict', 'the first request with this Idempotency-Key is still being completed; retry in a moment');
      }
      return { status: stored.status, body: stored.body, replayed: true };
    }
    const { status, body, pendingMarker } = await answer(tx);
    if (pendingMarker !== undefined) {
      // The answer comes after the commit: until then a retry is told to wait, never run twice.
      await tx.stores.idempotency.save(apiKeyId, key, fingerprint, PENDING_STATUS, pendingMarker, now);
      return { status, body: '', replayed: false, pending: true };
    }
    const text = JSON.stringify(body);
    await tx.stores.idempotency.save(apiKeyId, key, fingerprint, status, text, now);
    return { status, body: text, replayed: false };
  });
}

/** The final answer of a write that was in flight: from now on it is what the key replays. */
export async function settleAnswer(engine: Engine, request: KeyedRequest, status: number, body: unknown): Promise<KeptAnswer> {
  const text = JSON.stringify(body);
  await engine.transaction(async (tx) => await tx.stores.idempotency.save(request.apiKeyId, request.key, request.fingerprint, status, text, engine.clock.now()));
  return { status, body: text, replayed: false };
}

/** Forgets an in-flight key whose write ended in a 5xx after its commit: the key may be retried. */
export async function forgetAnswer(engine: Engine, request: KeyedRequest): Promise<void> {
  await engine.transaction(async (tx) => await tx.stores.idempotency.remove(request.apiKeyId, request.key));
}
