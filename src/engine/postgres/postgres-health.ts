// Issue 35: whether this node can write on PostgreSQL: `SELECT pg_is_in_recovery()` on a connection of
// the probe's own (HAProxy's write port), bounded by a short deadline. Not through the node's pool: a
// pool busy answering orders would queue the probe behind them, and the node would say "cannot
// write" while it writes (docs/platform-failover.md). A standby answers true (HAProxy still sending
// to a demoted leader for a moment); a connection that cannot be made, or no answer in time, is
// "cannot write", and the connection is dropped and made again by the next probe. Cached and shared
// (node-health.ts), so health requests cost one probe a second at most.
import type pg from 'pg';
import { cachedWriteCheck, defaultNodeId, type NodeHealth, type WriteCheck } from '../node-health.ts';

/** How long the probe may take: a load balancer's check must not hang on a dead database. */
export const HEALTH_PROBE_TIMEOUT_MS = 1_000;

export interface PostgresNodeHealth extends NodeHealth {
  /** Closes the probe's connection (a probe after it answers "cannot write"). */
  close(): Promise<void>;
}

/**
 * The probe's one connection: made on first use, dropped when it errs, ends or misses a deadline
 * (its state is then unknown: an answer may still be on its way), made again by the next probe.
 */
class ProbeConnection {
  private client: pg.Client | null = null;
  private connected: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly connect: () => pg.Client) {}

  async ask(): Promise<boolean> {
    if (this.closed) throw new Error('the health probe is closed');
    if (!this.client) {
      const client = this.connect();
      this.client = client;
      // An error or end no caller waits on (the server went away): the next probe connects anew.
      client.on('error', () => this.drop(client));
      client.on('end', () => this.drop(client));
      this.connected = client.connect().then(() => {});
    }
    const client = this.client;
    try {
      await this.connected;
      const { rows } = await client.query<{ in_recovery: boolean }>('SELECT pg_is_in_recovery() AS in_recovery');
      return rows[0]?.in_recovery === false;
    } catch (error) {
      this.drop(client);
      throw error;
    }
  }

  /** Forgets `client` if still the one in use, and ends it (without waiting: a half-open one may never answer). */
  drop(client: pg.Client | null): void {
    if (!client || client !== this.client) return;
    this.client = null;
    this.connected = null;
    client.end().catch(() => {});
  }

  /** A probe missed its deadline: its connection's state is unknown, the next probe makes another. */
  dropCurrent(): void {
    this.drop(this.client);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    this.connected = null;
    await client?.end().catch(() => {});
  }
}

async function probeWrites(connection: ProbeConnection, timeoutMs: number): Promise<WriteCheck> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<WriteCheck>((resolve) => {
    timer = setTimeout(() => {
      connection.dropCurrent();
      resolve({ writable: false, reason: `the database did not answer within ${timeoutMs} ms` });
    }, timeoutMs);
  });
  const asked = connection.ask().then(
    (writable): WriteCheck => (writable ? { writable: true, reason: null } : { writable: false, reason: 'the database is a standby (read-only)' }),
    (): WriteCheck => ({ writable: false, reason: 'the database cannot be reached' }),
  );
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `connect` makes the probe's connection (postgres-pool.ts's createPostgresClient, on the node's
 * database): one at a time, never more.
 */
export function postgresNodeHealth(
  connect: () => pg.Client,
  options: { nodeId?: string; timeoutMs?: number; now?: () => number } = {},
): PostgresNodeHealth {
  const timeoutMs = options.timeoutMs ?? HEALTH_PROBE_TIMEOUT_MS;
  const connection = new ProbeConnection(connect);
  return {
    nodeId: options.nodeId ?? defaultNodeId(),
    database: 'postgres',
    canWrite: cachedWriteCheck(() => probeWrites(connection, timeoutMs), options.now ?? (() => performance.now())),
    close: () => connection.close(),
  };
}
