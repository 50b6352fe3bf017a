// Issue 34: the async storage port the platform's concurrency-critical writes go through, with two
// implementations: SQLite (sqlite-storage.ts, today's stores behind one process-wide lock) and
// PostgreSQL (../postgres/postgres-storage.ts, SQL written for it, READ COMMITTED). Services do not
// use it yet (they are still synchronous on SQLite): this is the foundation they will move onto.
// What it holds is what a literal port to PostgreSQL breaks: the feed's order, idempotency, the
// stock take, order numbers, wake-ups across nodes and the jobs' claims.
import type { World } from '../../shared/world.ts';
import type { ApiKeyRow } from '../store/api-keys-store.ts';
import type { EventRow, EventWorld } from '../store/events-store.ts';
import type { StoredResponse } from '../store/idempotency-store.ts';
import type { MailRow } from '../store/mail-outbox-store.ts';
import type { OrderRow } from '../store/orders-store.ts';
import type { JobClaim, JobOutcome, JobQueue } from './job-queues.ts';

/**
 * The status an Idempotency-Key's record has between its claim and its answer, both in one
 * transaction: no other transaction ever sees it (a write that fails rolls the claim back too).
 */
export const CLAIMED_STATUS = -1;

export interface IdempotencyClaimRequest {
  apiKeyId: string;
  key: string;
  requestHash: string;
  at: number;
  /** A record older than this (24 hours) no longer holds the key: it is claimed anew. */
  notOlderThan: number;
}

/** `claimed`: this transaction owns the key, do the work; `answered`: the key's earlier answer, do nothing. */
export type IdempotencyClaim =
  | { kind: 'claimed'; request: IdempotencyClaimRequest }
  | { kind: 'answered'; stored: StoredResponse };

/** One restaurant's write, inside its transaction: its clock row is already held. */
export interface RestaurantWrite {
  readonly restaurantId: string;
  /** Claims the key first (before the work), in this transaction; its answer is recorded in it too. */
  claimIdempotencyKey(request: IdempotencyClaimRequest): Promise<IdempotencyClaim>;
  recordAnswer(claim: IdempotencyClaim & { kind: 'claimed' }, status: number, body: string): Promise<void>;
  /** The world's next order number, as the API shows it ("17", "T4"); gapless, from the clock row. */
  takeOrderNumber(test: boolean): Promise<string>;
  /** Takes `amount` if that much is there; false (nothing taken) otherwise. */
  tryTakeStock(locationId: string, productId: string, amount: number): Promise<boolean>;
  insertOrder(row: OrderRow): Promise<void>;
  /** Revokes one of the restaurant's API keys; false when it was not there or already revoked. */
  revokeApiKey(keyId: string, at: number): Promise<boolean>;
  /** Appends an event to the restaurant's feed; its sequence is in commit order. Returns it. */
  appendEvent(world: EventWorld, type: string, createdAt: number, data: unknown): Promise<number>;
}

export interface StoragePort {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Runs `work` as one transaction of the restaurant: its clock row is taken first, so the
   * restaurant's writes commit one after another, whichever node runs them. Waiters on the
   * restaurant's feed are woken after the commit (on every node), never before.
   */
  write<T>(restaurantId: string, work: (tx: RestaurantWrite) => Promise<T>): Promise<T>;
  /** The feed after `afterSeq`, oldest first, the kitchen's own events left out (as GET /v1/events). */
  readFeed(restaurantId: string, world: World, afterSeq: number, limit: number): Promise<EventRow[]>;
  /** The API key whose secret starts with `lookup` (the caller checks the hash and `revoked_at`). */
  findApiKey(lookup: string): Promise<ApiKeyRow | undefined>;
  /** A cursor for "from now" on the restaurant's feed. */
  lastFeedSeq(restaurantId: string): Promise<number>;
  /**
   * Resolves after a commit with events of the restaurant (on any node), after `timeoutMs`, when
   * `signal` aborts, or earlier (a re-poll): the caller re-reads its feed and waits again.
   */
  waitForChange(restaurantId: string, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `listener` after every committed write of any restaurant, events or not, on any node: what
   * caches (verified keys, cached order answers) drop on. On this node at the commit; from another
   * node on its NOTIFY or, should that be lost, at the next re-poll. With null when which restaurants
   * changed is unknown (a node's LISTEN connection came back).
   */
  onChange(listener: (restaurantId: string | null) => void): () => void;
  /**
   * Claims up to `limit` due pending mails for one attempt each, held until `leaseUntil` (a node that
   * dies mid-send leaves them due again then); nodes claiming at once never get the same mail.
   */
  claimDueMail(now: number, leaseUntil: number, limit: number): Promise<MailRow[]>;
  /**
   * Claims up to `limit` due jobs of `queue` (mail, payment actions, courier deliveries), each held by
   * this claim until `leaseUntil` (after `now`, both from the engine's clock): nodes claiming at once
   * never get the same job, and a job whose node died is due again when its lease ends.
   */
  claimJobs(queue: JobQueue, now: number, leaseUntil: number, limit: number): Promise<JobClaim[]>;
  /**
   * Records how a claimed job ended, only if the claim still holds it: false (nothing recorded) when
   * its lease ended and the job was claimed again or finished by another claim.
   */
  finishJob(claim: JobClaim, outcome: JobOutcome, at: number): Promise<boolean>;
  /**
   * How many engine nodes serve this database now, this one included (1 on SQLite): what each node's
   * share of a rate limit is sized by (per-node-rate-limit.ts).
   */
  nodeCount(): Promise<number>;
  close(): Promise<void>;
}
