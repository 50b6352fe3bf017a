// Issue 34: one LISTEN connection per node. Every commit with events sends NOTIFY after it commits
// (inside the transaction it would cost 1.7–4.3× in the lab: PostgreSQL serialises commits
// that notify); this connection hears every node's and wakes this node's waiters. A notification can
// be lost (the connection drops, the node starts late): waiters also re-poll, so it only delays, and
// on reconnecting every waiter is woken once.
import type pg from 'pg';

export const FEED_CHANNEL = 'comanda_feed';
const RECONNECT_AFTER_MS = 1_000;

/** What a notification carries: which node committed (its own are skipped) and for which restaurant. */
export function feedPayload(nodeId: string, restaurantId: string): string {
  return `${nodeId} ${restaurantId}`;
}

export class FeedListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly nodeId: string,
    private readonly connect: () => pg.Client,
    private readonly heard: (restaurantId: string | null) => void,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Resolves once LISTEN is in place (a node's wake-ups work from then on). */
  async start(): Promise<void> {
    const client = this.connect();
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel !== FEED_CHANNEL || !message.payload) return;
      const space = message.payload.indexOf(' ');
      if (space < 0 || message.payload.slice(0, space) === this.nodeId) return;
      this.heard(message.payload.slice(space + 1));
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
        .then(() => this.heard(null)) // what was committed meanwhile: every waiter looks again
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
