// Issue 34: one LISTEN connection per node. Every committed write sends NOTIFY after it commits
// (inside the transaction it would cost 1.7–4.3× in the lab: PostgreSQL serialises commits
// that notify); this connection hears every node's and wakes this node's waiters (a commit with
// events) and drops its caches (any commit). A notification can be lost (the connection drops, the
// node starts late, a node dies between its commit and its NOTIFY): the node also re-polls the clock
// rows (clock-watch.ts), so it only delays, and on reconnecting everyone is told once.
import type pg from 'pg';

export const FEED_CHANNEL = 'comanda_feed';
const RECONNECT_AFTER_MS = 1_000;

/** What a commit changed: its restaurant's feed (events, and so data too) or only data (a key revoked, a setting). */
export type CommitKind = 'feed' | 'data';

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
  if ((kind !== 'feed' && kind !== 'data') || !nodeId || !restaurantId || extra !== undefined) return null;
  return { kind, nodeId, restaurantId };
}

export class FeedListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly nodeId: string,
    private readonly connect: () => pg.Client,
    /** A commit of another node; null: which ones were missed is unknown (the connection came back). */
    private readonly heard: (restaurantId: string | null, kind: CommitKind) => void,
    private readonly onError: (error: Error) => void,
  ) {}

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
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (this.client !== client || this.stopped) return;
    if (error) this.onError(error);
    this.client = null;
    client.end().catch(() => {});
    this.retry = setTimeout(() => {
      this.retry = null;
      this.start()
        .then(() => this.heard(null, 'feed')) // what was committed meanwhile: every waiter looks again
        .catch((startError: Error) => this.lost(this.client ?? client, startError));
    }, RECONNECT_AFTER_MS);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
