// Issue 34: one LISTEN connection per node. Every committed write sends NOTIFY after it commits
// (inside the transaction it would cost 1.7–4.3× in the lab: PostgreSQL serialises commits
// that notify); this connection hears every node's and wakes this node's waiters (a commit with
// events) and drops its caches (any commit). A notification can be lost (the connection drops, the
// node starts late, a node dies between its commit and its NOTIFY): the node also re-polls the clock
// rows (clock-watch.ts), so it only delays, and on reconnecting everyone is told once.
import type pg from 'pg';

export const FEED_CHANNEL = 'comanda_feed';

/**
 * Issue 35: the pauses between attempts to get the LISTEN connection back (through HAProxy, which
 * refuses or cuts connections until Patroni's new leader is up: 15–30 s): the first soon, each next
 * doubled, at most maxMs, each with up to half of it added at random so the nodes do not all knock
 * at once. After LISTEN is in place again the pauses start over.
 */
export interface ReconnectPauses {
  firstMs: number;
  maxMs: number;
}

export const DEFAULT_RECONNECT_PAUSES: ReconnectPauses = { firstMs: 250, maxMs: 4_000 };

/**
 * Issue 35: the LISTEN connection only receives, so a database machine that vanished without a FIN
 * or RST (power loss, a partition) would leave it waiting for ever, hearing nothing. Every `everyMs`
 * it asks `SELECT 1`; no answer within `timeoutMs` (or an error) is a lost connection, got back as
 * any other.
 */
export interface Heartbeat {
  everyMs: number;
  timeoutMs: number;
}

export const DEFAULT_HEARTBEAT: Heartbeat = { everyMs: 5_000, timeoutMs: 3_000 };

/** The pause before the `attempt`-th reconnection (1-based). */
export function reconnectPause(pauses: ReconnectPauses, attempt: number, random = Math.random): number {
  const grown = Math.min(pauses.maxMs, pauses.firstMs * 2 ** (attempt - 1));
  return grown + random() * grown * 0.5;
}

/**
 * What a commit changed: its restaurant's feed (events, and so data too), only data, or a table every
 * node keeps in memory (config-tables.ts: a key revoked, a price, a setting; sent besides 'feed' when
 * the commit also appended events).
 */
export type CommitKind = 'feed' | 'data' | 'config';

/** What a notification carries: which node committed (its own are skipped), for which restaurant, what. */
export function feedPayload(nodeId: string, restaurantId: string, kind: CommitKind): string {
  return `${kind} ${nodeId} ${restaurantId}`;
}

/** PostgreSQL's bound on a payload is 8,000 bytes; ours are far shorter, anything longer is not ours. */
const MAX_PAYLOAD = 512;

/** A payload parsed strictly: three fields, a known kind; anything else is ignored. */
export function parseFeedPayload(payload: string): { kind: CommitKind; nodeId: string; restaurantId: string } | null {
  if (payload.length > MAX_PAYLOAD) return null;
  const [kind, nodeId, restaurantId, extra] = payload.split(' ');
  if ((kind !== 'feed' && kind !== 'data' && kind !== 'config') || !nodeId || !restaurantId || extra !== undefined) return null;
  return { kind, nodeId, restaurantId };
}

export class FeedListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  /** Failed attempts since LISTEN was last in place (the next pause grows with it). */
  private failures = 0;
  private listening = false;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  /** How many times LISTEN came back after a loss (for tests and the node's status). */
  reconnections = 0;

  constructor(
    private readonly nodeId: string,
    private readonly connect: () => pg.Client,
    /** A commit of another node; null: which ones were missed is unknown (the connection came back). */
    private readonly heard: (restaurantId: string | null, kind: CommitKind) => void,
    private readonly onError: (error: Error) => void,
    private readonly pauses: ReconnectPauses = DEFAULT_RECONNECT_PAUSES,
    private readonly heartbeat: Heartbeat = DEFAULT_HEARTBEAT,
  ) {}

  /** Whether LISTEN is in place now (false while the connection is being got back). */
  get isListening(): boolean {
    return this.listening;
  }

  /** Resolves once LISTEN is in place (a node's wake-ups work from then on). */
  async start(): Promise<void> {
    const client = this.connect();
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel !== FEED_CHANNEL || !message.payload) return;
      const commit = parseFeedPayload(message.payload);
      if (!commit || commit.nodeId === this.nodeId) return;
      this.heard(commit.restaurantId, commit.kind);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    await client.connect();
    await client.query(`LISTEN ${FEED_CHANNEL}`);
    if (this.client === client && !this.stopped) {
      this.listening = true;
      this.failures = 0;
      this.beat(client);
    }
  }

  /** The next heartbeat of this connection (none once it is lost or the listener stops). */
  private beat(client: pg.Client): void {
    this.heartbeatTimer = setTimeout(() => {
      this.heartbeatTimer = null;
      if (this.client !== client || this.stopped) return;
      const ping = { text: 'SELECT 1', query_timeout: this.heartbeat.timeoutMs } as pg.QueryConfig;
      client.query(ping).then(
        () => this.beat(client),
        (error: Error) => this.lost(client, new Error(`the LISTEN connection did not answer its heartbeat: ${error.message}`)),
      );
    }, this.heartbeat.everyMs);
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (this.client !== client || this.stopped) return;
    if (error) this.onError(error);
    this.client = null;
    this.listening = false;
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = null;
    client.end().catch(() => {});
    this.failures += 1;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.stopped) return;
      this.start()
        .then(() => {
          if (this.stopped) return;
          this.reconnections += 1;
          // What was committed meanwhile is unknown: every waiter looks again and every cache drops, once.
          this.heard(null, 'feed');
        })
        // A failed start's client is this.client (or already handled by its 'end'): lost() runs once for it.
        .catch((startError: Error) => this.lost(this.client ?? client, startError));
    }, reconnectPause(this.pauses, this.failures));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
