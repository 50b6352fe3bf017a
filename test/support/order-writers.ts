// A writer load for the platform's failover tests: several clients, each on its own connection
// through HAProxy's write port, inserting rows that stand for orders, one after another. Each row
// carries an idempotency key; a row counts as acknowledged only once its INSERT returned. An error
// that a failover brings (connection cut or refused, the server shutting down, a node that is
// read-only now) is retried with the same key on a new connection, since its outcome is unknown;
// any other error is a wrong answer, kept for the test to assert there is none. No client cancels a
// statement in flight (a cancelled wait for the synchronous standby can leave a commit visible on
// the primary that its promotion then loses).
import pg from 'pg';

export const ORDERS_TABLE_SQL = `
CREATE TABLE IF NOT EXISTS failover_orders (
  id bigserial PRIMARY KEY,
  idempotency_key text NOT NULL UNIQUE,
  client integer NOT NULL,
  sequence integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`;

export interface Acknowledged {
  key: string;
  /** The writers' clock when the INSERT returned. */
  at: number;
  /** The PostgreSQL port of the node that committed it (which node HAProxy sent it to). */
  serverPort: number;
}

export interface WriterReport {
  acknowledged: Acknowledged[];
  /** Errors retried (connection lost or refused, shutdown, read-only), by their code or message. */
  retried: Map<string, number>;
  /** Anything else: must be empty. */
  wrongAnswers: string[];
}

/** What one client is doing now: for a test that times out to say where its writers wait. */
export interface WriterState {
  client: number;
  phase: 'connecting' | 'writing' | 'backing off' | 'stopped';
  /** The writers' clock when the phase began. */
  since: number;
  /** The key being written (or retried). */
  key: string;
  acknowledged: number;
  lastError?: { at: number; message: string };
}

export interface OrderWriters {
  /** Acknowledged so far (grows while the writers run). */
  readonly acknowledged: readonly Acknowledged[];
  /** Statements sent and not answered yet. */
  inFlight(): number;
  /** Each client's phase, since when, and its last error. */
  states(): WriterState[];
  stop(): Promise<WriterReport>;
}

// SQLSTATEs a failover brings: admin/crash shutdown, cannot connect now, read-only transaction,
// and the connection exception class (08xxx).
const RETRIED_SQLSTATES = new Set(['57P01', '57P02', '57P03', '25006']);
const RETRIED_MESSAGES = [/Connection terminated/i, /not queryable/i, /ECONNRESET/, /ECONNREFUSED/, /EPIPE/, /timeout expired/i, /Connection ended/i, /the database system is (starting up|shutting down|in recovery)/i];

export function isRetried(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && (RETRIED_SQLSTATES.has(code) || code.startsWith('08'))) return code;
  if (typeof code === 'string' && ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(code)) return code;
  const message = error instanceof Error ? error.message : String(error);
  const match = RETRIED_MESSAGES.find((pattern) => pattern.test(message));
  return match ? message.slice(0, 60) : undefined;
}

export async function prepareOrdersTable(connection: pg.ClientConfig): Promise<void> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    await client.query(ORDERS_TABLE_SQL);
  } finally {
    await client.end();
  }
}

/**
 * `paceMs`: a pause after each acknowledged write (none by default). A probe beside another load
 * (engine-nodes-under-load.ts) writes one row every paceMs, so that it times the database's
 * availability without adding a load of its own.
 */
export function startOrderWriters(options: { connection: pg.ClientConfig; clients: number; clock: () => number; label: string; paceMs?: number }): OrderWriters {
  const acknowledged: Acknowledged[] = [];
  const retried = new Map<string, number>();
  const wrongAnswers: string[] = [];
  let stopping = false;
  let inFlight = 0;

  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({ ...options.connection, keepAlive: true });
    client.on('error', () => {}); // a cut connection surfaces as the next query's error
    await client.connect();
    return client;
  }

  async function runClient(clientNumber: number): Promise<void> {
    const state = states[clientNumber - 1]!;
    const enter = (phase: WriterState['phase']) => Object.assign(state, { phase, since: options.clock() });
    let client: pg.Client | undefined;
    let sequence = 0;
    while (!stopping) {
      const key = `${options.label}-${clientNumber}-${sequence}`;
      state.key = key;
      inFlight += 1;
      try {
        if (!client) {
          enter('connecting');
          client = await connect();
        }
        enter('writing');
        const result = await client.query<{ server_port: number }>('INSERT INTO failover_orders (idempotency_key, client, sequence) VALUES ($1, $2, $3) ON CONFLICT (idempotency_key) DO NOTHING RETURNING inet_server_port() AS server_port', [key, clientNumber, sequence]);
        // No row: the key was there already, which only a retry of an unknown outcome explains.
        if (result.rowCount === 0 && !(retriedKeys.has(key))) wrongAnswers.push(`${key}: already present on its first attempt`);
        // A retried key found present: its earlier attempt committed, on a node the answer cannot name (0).
        acknowledged.push({ key, at: options.clock(), serverPort: result.rows[0]?.server_port ?? 0 });
        state.acknowledged += 1;
        sequence += 1;
        if (options.paceMs) await new Promise((resolve) => setTimeout(resolve, options.paceMs));
      } catch (error) {
        const reason = isRetried(error);
        state.lastError = { at: options.clock(), message: error instanceof Error ? `${(error as { code?: string }).code ?? ''} ${error.message}`.trim().slice(0, 200) : String(error) };
        if (!reason) {
          wrongAnswers.push(`${key}: ${error instanceof Error ? `${(error as { code?: string }).code ?? ''} ${error.message}` : String(error)}`);
          sequence += 1;
        } else {
          retried.set(reason, (retried.get(reason) ?? 0) + 1);
          retriedKeys.add(key);
        }
        await client?.end().catch(() => {});
        client = undefined;
        // A client's back-off before it reconnects, as a store front's would be.
        if (reason) {
          enter('backing off');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        inFlight -= 1;
      }
    }
    await client?.end().catch(() => {});
    enter('stopped');
  }

  const retriedKeys = new Set<string>();
  const states: WriterState[] = Array.from({ length: options.clients }, (_, index) => ({ client: index + 1, phase: 'connecting', since: options.clock(), key: '', acknowledged: 0 }));
  const running = Array.from({ length: options.clients }, (_, index) => runClient(index + 1));
  return {
    acknowledged,
    inFlight: () => inFlight,
    states: () => states.map((state) => ({ ...state })),
    async stop() {
      stopping = true;
      await Promise.all(running);
      return { acknowledged: [...acknowledged], retried, wrongAnswers };
    },
  };
}

export interface CheckResult {
  acknowledged: number;
  present: number;
  /** Acknowledged keys missing from the database now. */
  lost: string[];
  /** Keys present more than once. */
  duplicated: string[];
}

/** Every acknowledged key against what the database (through HAProxy: the leader) holds now. */
export async function checkAcknowledged(connection: pg.ClientConfig, acknowledged: readonly Acknowledged[], label: string): Promise<CheckResult> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    const rows = await client.query<{ idempotency_key: string; copies: string }>(
      'SELECT idempotency_key, count(*) AS copies FROM failover_orders WHERE idempotency_key LIKE $1 GROUP BY idempotency_key',
      [`${label}-%`],
    );
    const present = new Map(rows.rows.map((row) => [row.idempotency_key, Number(row.copies)]));
    return {
      acknowledged: acknowledged.length,
      present: present.size,
      lost: acknowledged.filter((ack) => !present.has(ack.key)).map((ack) => ack.key),
      duplicated: [...present].filter(([, copies]) => copies > 1).map(([key]) => key),
    };
  } finally {
    await client.end();
  }
}

/**
 * From the last write acknowledged by the node that led when the fault came to the first one
 * acknowledged by another node: how long the switch itself kept writes away (undefined when the
 * leader did not change).
 */
export function switchGap(acknowledged: readonly Acknowledged[], since: number): number | undefined {
  const before = acknowledged.filter((ack) => ack.at < since && ack.serverPort !== 0).at(-1);
  if (!before) return undefined;
  const lastOnOld = acknowledged.filter((ack) => ack.serverPort === before.serverPort).at(-1)!;
  const firstOnNew = acknowledged.find((ack) => ack.at > since && ack.serverPort !== 0 && ack.serverPort !== before.serverPort);
  return firstOnNew ? firstOnNew.at - lastOnOld.at : undefined;
}

/** The longest time without an acknowledged write from `since` on (the writes' unavailable window). */
export function longestGap(acknowledged: readonly Acknowledged[], since: number): number {
  const times = acknowledged.map((ack) => ack.at).filter((at) => at >= since).sort((a, b) => a - b);
  let longest = times.length > 0 ? times[0]! - since : Number.POSITIVE_INFINITY;
  for (let index = 1; index < times.length; index += 1) longest = Math.max(longest, times[index]! - times[index - 1]!);
  return longest;
}
