// Issue 35: whether this node can write on PostgreSQL: `SELECT pg_is_in_recovery()` on a connection of
// the probe's own (HAProxy's write port), bounded by a short deadline. Not through the node's pool: a
// pool busy answering orders would queue the probe behind them, and the node would say "cannot
// write" while it writes (docs/platform-failover.md). A standby answers true (HAProxy still sending
// to a demoted leader for a moment); a connection that cannot be made, or no answer in time, is
// "cannot write", and the connection is dropped and made again by the next probe. Cached and shared
// (node-health.ts), so health requests cost one probe a second at most.
//
// A node's first seconds (issue 35, round 11): each node said "cannot write" for its first 3–5 s
// while it already wrote. Three things made a probe fail there, and each failure cost two seconds
// (the deadline, then the cached answer): the probe's connection was made on the first request, not
// at start; a deadline dropped a connection still being made, so on a busy machine where one takes
// over a second every probe started over and none got through; and a deadline was judged when its
// timer ran, which on an event loop blocked past it (a node's first requests compile its
// validators) comes before the answer already waiting in the socket. Now the connection is opened as
// the node starts (`open`), one being made is kept for the next probe (its own connect timeout ends
// it), and a deadline counts only once the I/O that arrived meanwhile has been read.
import type pg from 'pg';
import { cachedWriteCheck, defaultNodeId, type NodeHealth, type WriteCheck } from '../node-health.ts';

/** How long the probe may take: a load balancer's check must not hang on a dead database. */
export const HEALTH_PROBE_TIMEOUT_MS = 1_000;

export interface PostgresNodeHealth extends NodeHealth {
  /**
   * Opens the probe's connection now (the node's start, before it listens), so the first health
   * request asks on it instead of making one. Never throws: a connection that cannot be made now is
   * made by the next probe.
   */
  open(): Promise<void>;
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
  /** Whether `client`'s connection is made (a deadline then means its query's answer is late). */
  private established = false;
  private closed = false;

  constructor(private readonly connect: () => pg.Client) {}

  /** The connection in use, made now if there is none; `connected` settles once it is made or failed. */
  private current(): pg.Client {
    if (this.client) return this.client;
    const client = this.connect();
    this.client = client;
    this.established = false;
    // An error or end no caller waits on (the server went away): the next probe connects anew.
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    this.connected = client.connect().then(() => {
      if (client === this.client) this.established = true;
    });
    // Failed while no probe waits (opened at start): forgotten, the next probe connects anew.
    this.connected.catch(() => this.drop(client));
    return client;
  }

  /** Starts making the connection and waits for it (bounded by the client's connect timeout); never throws. */
  async open(): Promise<void> {
    if (this.closed) return;
    this.current();
    await this.connected?.catch(() => {});
  }

  async ask(): Promise<boolean> {
    if (this.closed) throw new Error('the health probe is closed');
    const client = this.current();
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
    this.established = false;
    client.end().catch(() => {});
  }

  /**
   * A probe missed its deadline. A made connection's state is then unknown (an answer may still be
   * on its way): the next probe makes another. One still being made is kept: the next probe waits
   * for it, and its connect timeout ends it if it never comes; dropping it would make a machine
   * where connecting takes longer than the deadline never answer "writable" again.
   */
  missedDeadline(): void {
    if (this.established) this.drop(this.client);
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
  let settled = false;
  const late = new Promise<WriteCheck>((resolve) => {
    // Judged after the I/O that is already there has been read: timers run before the poll phase,
    // so on a loop blocked past the deadline the answer waiting in the socket would lose to the
    // timer. setImmediate runs after that poll phase.
    timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        connection.missedDeadline();
        resolve({ writable: false, reason: `the database did not answer within ${timeoutMs} ms` });
      });
    }, timeoutMs);
  });
  const asked = connection.ask().then(
    (writable): WriteCheck => (writable ? { writable: true, reason: null } : { writable: false, reason: 'the database is a standby (read-only)' }),
    (): WriteCheck => ({ writable: false, reason: 'the database cannot be reached' }),
  ).finally(() => (settled = true));
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
    open: () => connection.open(),
    close: () => connection.close(),
  };
}
