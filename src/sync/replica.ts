import { randomUUID } from 'node:crypto';
import { ApiError } from '../engine/domain/errors.ts';
import { worldOfKey } from '../engine/domain/api-key-format.ts';
import { formatNullableInstant } from '../engine/domain/time.ts';
import type { Engine } from '../engine/engine.ts';
import type { Actor } from '../engine/domain/actor.ts';
import type { EngineCommands } from '../engine/services/engine-commands.ts';
import { restaurantTimeZone } from '../engine/services/keys/restaurant-context.ts';
import { applyLocationStatuses, mirrorForwardedOrder } from '../engine/services/replica/replica-pull.ts';
import { quoteExpiry, unavailableQuote } from '../engine/services/delivery/quote-delivery.ts';
import type { OrderView } from '../engine/services/orders/order-view.ts';
import type { QuoteInput } from '../shared/schemas/delivery.ts';
import type { SyncStatus } from '../shared/sync-status.ts';
import { AsyncMutex } from './async-mutex.ts';
import { backoffDelay, Waker } from './backoff.ts';
import { applyFeedPage } from '../engine/services/replica/replica-feed.ts';
import { hasChangesToPush, replicaOutboxState, replicaState, storedReplicaIdentity, SYNC_KEYS } from '../engine/services/replica/replica-state.ts';
import { checkDivergence } from './divergence-check.ts';
import { identifyReplica, pullSnapshot, refreshCatalogue, type ReplicaIdentity } from './first-pull.ts';
import { runKitchenPull } from './kitchen-sync.ts';
import { pushRound } from './push-window.ts';
import { resolveDueConflicts } from './resolve-conflicts.ts';
import { replicaCommands } from './replica-commands.ts';
import { UpstreamClient, UpstreamUnreachable } from './upstream-client.ts';
import { KITCHEN_RECONNECT, UpstreamLink, type ReconnectSchedule } from './upstream-link.ts';
import type { UpstreamFeedPage, UpstreamLocations } from './upstream-types.ts';

/** Outbox changes on their way at once, at most (the upstream client keeps 20 connections; the feed's long-polls hold two). */
const PUSH_WINDOW = 16;
/** Pending changes looked at to choose them (an order's changes queued together are skipped over). */
const PUSH_SCAN = 64;
/** Changes sent while the pusher holds the mutex, at most: then the puller's apply and the others get in. */
const PUSH_ROUND = 128;
/** Answers recorded in one transaction, at least (fewer when fewer are on their way): a commit each costs the replica more than the rest of the acknowledgement. */
const PUSH_GROUP = 8;
/** The longest an answer waits for others to be recorded with (a slow change never holds the rest). */
const PUSH_GROUP_WAIT_MS = 2;

export interface ReplicaOptions {
  engine: Engine;
  /** The upstream's base URL, with its /v1. */
  upstreamUrl: string;
  /** Read from the environment or the app's encrypted store by the caller; never logged. */
  apiKey: string;
  /** Seconds each long-poll of the upstream's feed may be held (the API allows up to 30). */
  pollWaitSeconds?: number;
  /** How often locations' live status is refreshed while online. */
  statusRefreshMs?: number;
  /** How often the catalogue and stock are read again while online. */
  catalogueRefreshMs?: number;
  /** The longest wait before resending a change the upstream answered with an error (5xx, 429). */
  maxBackoffMs?: number;
  /** When to probe an unreachable upstream (default: at most every second). */
  reconnect?: ReconnectSchedule;
  /** How often the active orders are compared with the upstream's (see divergence-check.ts). */
  divergenceCheckMs?: number;
}

export type { SyncConflict as SyncConflictView, SyncStatus as SyncStatusView } from '../shared/sync-status.ts';

/**
 * A replica of one restaurant of an upstream platform: pulls its change feed (long-poll), pushes
 * the local outbox in order, and keeps serving locally whatever happens to the network.
 */
export class Replica {
  readonly engine: Engine;
  readonly identity: ReplicaIdentity;
  readonly commands: EngineCommands;
  private readonly client: UpstreamClient;
  private readonly options: Required<Omit<ReplicaOptions, 'engine' | 'apiKey' | 'upstreamUrl'>>;
  private readonly link: UpstreamLink;
  private readonly mutex = new AsyncMutex();
  private readonly pusherWaker = new Waker();
  private readonly pullerWaker = new Waker();
  private readonly refresherWaker = new Waker();
  private readonly checkerWaker = new Waker();
  private readonly stopping = new AbortController();
  private loops: Promise<void>[] = [];
  private lastError: string | null = null;
  private lagMs: number | null = null;
  private lastCheckAt: number | null = null;
  private lastCheck: SyncStatus['last_check'] = null;
  /** Divergence checks completed (tests wait on it). */
  checks = 0;

  private constructor(engine: Engine, client: UpstreamClient, identity: ReplicaIdentity, options: ReplicaOptions, online: boolean) {
    this.engine = engine;
    this.client = client;
    this.identity = identity;
    this.options = {
      pollWaitSeconds: options.pollWaitSeconds ?? 25,
      statusRefreshMs: options.statusRefreshMs ?? 30_000,
      catalogueRefreshMs: options.catalogueRefreshMs ?? 300_000,
      maxBackoffMs: options.maxBackoffMs ?? 5_000,
      reconnect: options.reconnect ?? KITCHEN_RECONNECT,
      divergenceCheckMs: options.divergenceCheckMs ?? 60_000,
    };
    // Any answer proves the upstream is there; the feed's head is one indexed read for it.
    const probe = async (signal: AbortSignal) => {
      await client.call('GET', '/events?limit=1', { signal, timeoutMs: this.options.reconnect.probeTimeoutMs });
    };
    this.link = new UpstreamLink(probe, this.options.reconnect, this.stopping.signal, online);
    this.commands = replicaCommands(engine, identity.world, () => this.pusherWaker.wake());
  }

  /**
   * Connects: identifies the key, then the first full pull (or, on a database that has one, a
   * catalogue refresh). Throws UpstreamRefusedKey for a refused key; UpstreamUnreachable when the
   * upstream cannot be reached and there is no local copy to serve.
   */
  static async connect(options: ReplicaOptions): Promise<Replica> {
    const { engine } = options;
    const client = new UpstreamClient(options.upstreamUrl, options.apiKey);
    try {
      const identity = await identifyReplica(engine, client, options.apiKey);
      if (await replicaState(engine, SYNC_KEYS.cursor) === undefined) await pullSnapshot(engine, client, identity);
      else await refreshCatalogue(engine, client, identity);
      return new Replica(engine, client, identity, options, true);
    } catch (error) {
      const known = await Replica.offlineIdentity(engine, options.apiKey);
      if (error instanceof UpstreamUnreachable && known) {
        const replica = new Replica(engine, client, known, options, false);
        replica.lastError = error.message;
        return replica;
      }
      await client.close();
      throw error;
    }
  }

  /** Starting offline is possible once a first pull has been stored. */
  private static async offlineIdentity(engine: Engine, apiKey: string): Promise<ReplicaIdentity | null> {
    const stored = await storedReplicaIdentity(engine);
    // The key's world as the first pull read it; a key of no world was refused there, so it is here too.
    const world = worldOfKey(apiKey);
    if (!stored || world === null) return null;
    return { restaurantId: stored.restaurantId, world, canWrite: stored.canWrite };
  }

  start(): void {
    this.loops = [this.pullLoop(), this.pushLoop(), this.refreshLoop(), this.kitchenLoop(), this.divergenceLoop()];
  }

  private stopped: Promise<void> | null = null;

  /** Stops the loops and closes the link; calling it again waits for the same stop. */
  stop(): Promise<void> {
    this.stopped ??= this.stopOnce();
    return this.stopped;
  }

  private async stopOnce(): Promise<void> {
    this.stopping.abort();
    this.pusherWaker.wake();
    this.pullerWaker.wake();
    this.refresherWaker.wake();
    this.checkerWaker.wake();
    await Promise.allSettled([...this.loops, this.link.settled()]);
    await this.client.close();
  }

  private get running(): boolean {
    return !this.stopping.signal.aborted;
  }

  async status(): Promise<SyncStatus> {
    const zone = await restaurantTimeZone(this.engine, this.identity.restaurantId);
    const outbox = await replicaOutboxState(this.engine);
    const lastPull = outbox.lastPullAt;
    return {
      online: this.link.online,
      last_pull_at: formatNullableInstant(lastPull, zone),
      lag_ms: this.link.online ? (this.lagMs ?? 0) : lastPull === null ? null : this.engine.clock.now() - lastPull,
      outbox_pending: outbox.pending,
      conflicts: outbox.conflicts.map((c) => ({
        id: c.id,
        kind: c.kind,
        order_id: c.order_id,
        local_change: JSON.parse(c.local_change) as unknown,
        upstream_error: JSON.parse(c.upstream_error) as unknown,
        upstream_state: c.upstream_state === null ? null : (JSON.parse(c.upstream_state) as unknown),
        created_at: formatNullableInstant(c.created_at, zone),
        resolved_at: formatNullableInstant(c.resolved_at, zone),
      })),
      conflicts_unresolved: outbox.unresolved,
      last_check: this.lastCheck,
      last_error: this.lastError,
      last_check_at: formatNullableInstant(this.lastCheckAt, zone),
      upstream: this.client.base,
      // The wire's name for the key's world (GET /sync/status, unchanged).
      mode: this.identity.world,
    };
  }

  private backoff(failures: number): number {
    return backoffDelay(failures, 250, this.options.maxBackoffMs);
  }

  /**
   * A call failed without an answer: the upstream is unreachable (the loops then wait for the
   * link's probe), or a local fault (kept as the last error; the caller retries on its backoff).
   */
  private failed(error: unknown): void {
    this.lastError = error instanceof Error ? error.message : String(error);
    if (error instanceof UpstreamUnreachable) this.link.lost();
  }

  private async pullLoop(): Promise<void> {
    let failures = 0;
    while (this.running) {
      await this.link.back();
      if (!this.running) return;
      try {
        const cursor = await replicaState(this.engine, SYNC_KEYS.cursor) ?? '';
        const wait = this.options.pollWaitSeconds;
        const response = await this.client.call<UpstreamFeedPage>(
          'GET',
          `/events?after=${encodeURIComponent(cursor)}&limit=500&wait=${wait}`,
          { timeoutMs: (wait + 10) * 1000, signal: this.stopping.signal },
        );
        this.link.reached();
        if (response.status === 200) {
          failures = 0;
          this.lastError = null;
          const page = response.body;
          const result = await this.mutex.run(async () => await applyFeedPage(this.engine, this.identity.restaurantId, this.identity.world, page));
          if (result.lagMs !== null) this.lagMs = result.lagMs;
          // Held at an order of ours still on its way up: let the pusher rename it, then go on.
          if (result.held) await this.pullerWaker.sleep(100, this.stopping.signal);
          continue;
        }
        failures++;
        if (response.status === 401) this.lastError = 'the platform refused the API key';
        else this.lastError = `the platform's feed answered ${response.status}`;
        await this.pullerWaker.sleep(response.retryAfterMs ?? this.backoff(failures), this.stopping.signal);
      } catch (error) {
        if (!this.running) return;
        this.failed(error);
        if (!(error instanceof UpstreamUnreachable)) {
          failures++;
          await this.pullerWaker.sleep(this.backoff(failures), this.stopping.signal);
        }
      }
    }
  }

  /** The kitchen's item bumps made upstream (sync/kitchen-sync.ts); its failures show in the main feed's status. */
  private kitchenLoop(): Promise<void> {
    const waker = new Waker();
    this.stopping.signal.addEventListener('abort', () => waker.wake(), { once: true });
    return runKitchenPull({
      engine: this.engine,
      client: this.client,
      restaurantId: this.identity.restaurantId,
      waitSeconds: this.options.pollWaitSeconds,
      exclusive: (work) => this.mutex.run(work),
      // While the link is down its probe, not a grown backoff, says when to try again.
      sleep: (ms) => (this.link.online ? waker.sleep(ms, this.stopping.signal) : this.link.back()),
      backoff: (failures) => this.backoff(failures),
      running: () => this.running,
      signal: this.stopping.signal,
    });
  }

  private async pushLoop(): Promise<void> {
    let failures = 0;
    while (this.running) {
      await this.link.back();
      if (!this.running) return;
      // The upstream's state for changes it refused comes first (an intent, retried on its backoff).
      try {
        const round = await resolveDueConflicts(this.engine, this.client, this.identity, (attempts) => this.backoff(attempts), (work) => this.mutex.run(work));
        if (round.failed > 0) this.lastError = 'the platform state of a refused change could not be read yet; it is read again shortly';
      } catch (error) {
        if (!this.running) return;
        this.failed(error);
        continue;
      }
      if (!await hasChangesToPush(this.engine)) {
        await this.pusherWaker.sleep(1_000, this.stopping.signal);
        continue;
      }
      // Several changes on their way at once (never two of one order: push-window.ts), each with
      // its own Idempotency-Key and its own outcome recorded; the puller waits for the round, as it
      // waited for one change.
      const round = await this.mutex.run(async () =>
        await pushRound({
          engine: this.engine,
          client: this.client,
          identity: this.identity,
          window: PUSH_WINDOW,
          scan: PUSH_SCAN,
          roundLimit: PUSH_ROUND,
          group: PUSH_GROUP,
          groupWaitMs: PUSH_GROUP_WAIT_MS,
          running: () => this.running,
        }),
      );
      if (!this.running) return;
      if (round.lastError !== null) this.lastError = round.lastError;
      if (round.answered > 0) this.link.reached();
      // Unreachable: the loop waits for the link's probe. Anything else: retry on the backoff.
      if (round.unreachable) {
        this.link.lost();
        continue;
      }
      if (round.retry) {
        failures++;
        await this.pusherWaker.sleep(round.retryDelayMs ?? this.backoff(failures), this.stopping.signal);
        continue;
      }
      failures = 0;
      this.pullerWaker.wake();
    }
  }

  /** Locations' live status while online (schedules live upstream); the catalogue now and then. */
  private async refreshLoop(): Promise<void> {
    let sinceCatalogue = 0;
    while (this.running) {
      await this.refresherWaker.sleep(this.options.statusRefreshMs, this.stopping.signal);
      if (!this.running) return;
      if (!this.link.online) continue; // the link's probe looks for the upstream meanwhile
      try {
        sinceCatalogue += this.options.statusRefreshMs;
        if (sinceCatalogue >= this.options.catalogueRefreshMs) {
          sinceCatalogue = 0;
          await this.mutex.run(async () => await refreshCatalogue(this.engine, this.client, this.identity));
          continue;
        }
        const response = await this.client.call<UpstreamLocations>('GET', '/locations');
        if (response.status !== 200) continue;
        await this.mutex.run(async () => await applyLocationStatuses(this.engine, this.identity.restaurantId, response.body.data));
      } catch (error) {
        this.failed(error);
      }
    }
  }

  /**
   * Now and then, the active orders against the upstream's, under the mutex (nothing applied or
   * pushed meanwhile): a difference the feed and the outbox do not explain becomes a conflict.
   */
  private async divergenceLoop(): Promise<void> {
    while (this.running) {
      await this.checkerWaker.sleep(this.options.divergenceCheckMs, this.stopping.signal);
      if (!this.running) return;
      if (!this.link.online) continue;
      try {
        const report = await this.mutex.run(async () => await checkDivergence(this.engine, this.client, this.identity));
        if (!report.skipped) {
          this.lastCheckAt = this.engine.clock.now();
          this.lastCheck = { compared: report.compared, diverged: report.diverged, healed: report.healed };
          this.checks++;
        }
      } catch (error) {
        this.failed(error);
      }
    }
  }

  /**
   * An online-payment order needs the upstream's payment session: it is created there (with the
   * client's Idempotency-Key, or one of ours) and mirrored here. Unreachable: 503.
   */
  async forwardOnlineOrder(actor: Actor, body: unknown, idempotencyKey: string | undefined): Promise<{ status: number; body: unknown }> {
    this.assertSameWorld(actor);
    try {
      const response = await this.client.call<OrderView>('POST', '/orders', { body, idempotencyKey: idempotencyKey ?? randomUUID() });
      if (response.status === 201) {
        await this.mutex.run(async () => await mirrorForwardedOrder(this.engine, this.identity, response.body));
      }
      if (response.status >= 500 && response.status !== 503) {
        throw new ApiError('payment_unavailable', 'the platform could not open the payment; try again');
      }
      return { status: response.status, body: response.body };
    } catch (error) {
      if (error instanceof UpstreamUnreachable) {
        throw new ApiError('payment_unavailable', 'online payment needs the platform, which cannot be reached right now');
      }
      throw error;
    }
  }

  /** Quotes come from the upstream's delivery engine; offline, delivery is not available. */
  async quoteDelivery(actor: Actor, input: QuoteInput): Promise<{ status: number; body: unknown }> {
    this.assertSameWorld(actor);
    try {
      const response = await this.client.call('POST', '/delivery/quote', { body: input });
      if (response.status < 500 && response.status !== 429) return { status: response.status, body: response.body };
    } catch (error) {
      if (!(error instanceof UpstreamUnreachable)) throw error;
    }
    const zone = await restaurantTimeZone(this.engine, this.identity.restaurantId);
    return {
      status: 200,
      body: unavailableQuote(
        'No se puede contactar a la plataforma para cotizar el despacho; ofrezca retiro en la sucursal.',
        quoteExpiry(this.engine.clock.now(), zone),
      ),
    };
  }

  private assertSameWorld(actor: Actor): void {
    if (actor.restaurantId !== this.identity.restaurantId || actor.world !== this.identity.world) {
      throw new ApiError('forbidden', 'this replica serves only the world of its platform key');
    }
  }
}
