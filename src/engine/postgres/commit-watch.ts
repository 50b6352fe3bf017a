// Issue 35: a COMMIT on a connection that a dead network holds half-open. The client never abandons a
// COMMIT the database may still be committing (a cancelled wait for the synchronous standby can leave
// it visible on the leader and then lost on promotion), so COMMIT has no client-side timeout. But a
// COMMIT sent into a connection whose other end vanished without a FIN or RST (power loss, a
// partition) would wait for ever: TCP keepalive sends no probe while sent data is unacknowledged, and
// Node cannot set TCP_USER_TIMEOUT. So while a COMMIT waits, the database is asked, on a connection of
// its own, about the session that sent it. Only when the answer proves nothing can be committing there
// (the server at the write address is another one or was restarted, or the session is gone or not
// running a statement: the COMMIT never arrived, or its answer was lost on the way back) is the
// connection ended; the outcome is then unknown, which runTransaction already handles (a keyed write
// reruns, an unkeyed one is CommitOutcomeUnknown). A session still running its COMMIT (waiting for
// the standby) is left to finish however long it takes, and no answer at all proves nothing.
import pg from 'pg';

/** Who a pooled connection is on the server: read once per connection, before its first BEGIN. */
export interface Session {
  pid: number;
  /** The server's address and port as it sees them (through HAProxy: the node's own) and its start. */
  server: string;
  /** The session's backend_start: a pid reused later by another session is not it. */
  started: string;
}

export type CommitVerdict = 'committing' | 'gone' | 'unknown';

export interface CommitWatch {
  /** How long a COMMIT may wait before the first question (a normal one answers in milliseconds). */
  afterMs: number;
  /** Between questions while the COMMIT waits. */
  everyMs: number;
  /** Asks the database about the session; 'unknown' when it cannot be asked now. */
  probe(session: Session): Promise<CommitVerdict>;
}

export const SESSION_SQL = `SELECT pg_backend_pid() AS pid,
  coalesce(host(inet_server_addr()), 'local') || ':' || coalesce(inet_server_port()::text, '') || '@' || pg_postmaster_start_time()::text AS server,
  (SELECT backend_start::text FROM pg_stat_activity WHERE pid = pg_backend_pid()) AS started`;

const PROBE_SQL = `SELECT coalesce(host(inet_server_addr()), 'local') || ':' || coalesce(inet_server_port()::text, '') || '@' || pg_postmaster_start_time()::text AS server,
  (SELECT state FROM pg_stat_activity WHERE pid = $1 AND backend_start::text = $2) AS state`;

/** The verdict from what a probe read: only a session of the same server still running a statement is committing. */
export function verdictOf(session: Session, answer: { server: string; state: string | null }): CommitVerdict {
  if (answer.server !== session.server) return 'gone';
  return answer.state === 'active' ? 'committing' : 'gone';
}

/** Default: the first question after 5 s, then every 5 s; each on a new connection bounded by 3 s. */
export const DEFAULT_COMMIT_WATCH_TIMING = { afterMs: 5_000, everyMs: 5_000, probeTimeoutMs: 3_000 };

/** A watch that asks through a new connection made with the pool's own settings (so through HAProxy, to the leader). */
export function commitWatchFor(
  connection: pg.ClientConfig,
  timing: { afterMs: number; everyMs: number; probeTimeoutMs: number } = DEFAULT_COMMIT_WATCH_TIMING,
): CommitWatch {
  return {
    afterMs: timing.afterMs,
    everyMs: timing.everyMs,
    async probe(session) {
      const client = new pg.Client({
        ...connection,
        pipeline: false,
        keepAlive: false,
        connectionTimeoutMillis: timing.probeTimeoutMs,
        query_timeout: timing.probeTimeoutMs,
        application_name: 'comanda commit watch',
      } as pg.ClientConfig);
      client.on('error', () => {}); // a probe that fails proves nothing: 'unknown'
      try {
        await client.connect();
        const { rows } = await client.query<{ server: string; state: string | null }>(PROBE_SQL, [session.pid, session.started]);
        return rows[0] ? verdictOf(session, rows[0]) : 'unknown';
      } catch {
        return 'unknown';
      } finally {
        await client.end().catch(() => {});
      }
    },
  };
}

/**
 * Waits for `commit`; meanwhile, from `afterMs` on, asks the watch about the session, and calls `cut`
 * (which ends the connection, so `commit` rejects as a lost connection) once the answer is 'gone'.
 */
export async function whileCommitting<T>(commit: Promise<T>, session: Session, watch: CommitWatch, cut: () => void): Promise<T> {
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  const ask = () => {
    timer = undefined;
    void watch.probe(session).then((verdict) => {
      if (done) return;
      if (verdict === 'gone') cut();
      else timer = setTimeout(ask, watch.everyMs);
    });
  };
  timer = setTimeout(ask, watch.afterMs);
  try {
    return await commit;
  } finally {
    done = true;
    if (timer) clearTimeout(timer);
  }
}
