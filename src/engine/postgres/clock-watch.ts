// Issue 34: the re-poll that makes a lost notification only a delay. Every write of a restaurant
// takes its clock row first with an upsert, which writes a new version of the row even when nothing
// in it changes: the row's `xmin` (the id of the transaction that wrote the visible version) moves
// with every committed write of the restaurant, events or not. Every `everyMs` the node reads the
// clock rows (one row a restaurant: a few thousand rows, an index-free scan of a small table) and
// tells what changed since the last look: a commit whose NOTIFY was lost (a node that died between
// its commit and its NOTIFY, a LISTEN connection that dropped) reaches the caches and the waiters
// within one period. A commit heard by NOTIFY is told again here at most once: a cache dropped twice.
import type pg from 'pg';
import type { CommitKind } from './feed-listener.ts';

const READ_CLOCKS = 'SELECT restaurant_id, xmin::text AS version, last_event_seq FROM restaurant_clocks';
/** The kept tables' number (migration 0012): read with the clock rows, so a configuration commit whose NOTIFY was lost is found too. */
const READ_CONFIG_VERSION = 'SELECT version FROM config_version WHERE id = 1';

interface ClockState {
  version: string;
  lastEventSeq: number;
}

export class ClockWatch {
  private readonly seen = new Map<string, ClockState>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private looked = false;
  private looking: Promise<void> | null = null;
  private configVersion: number | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly everyMs: number,
    /** `null`: a configuration commit of a restaurant not known (the kept tables' number moved). */
    private readonly changed: (restaurantId: string | null, kind: CommitKind) => void,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Takes the first look (what is there now is not news) and then looks every period. */
  async start(): Promise<void> {
    await this.look();
    this.schedule();
  }

  /** Reads the clock rows once and tells every restaurant whose row moved since the last look. */
  async look(): Promise<void> {
    const [{ rows }, config] = await Promise.all([
      this.pool.query<{ restaurant_id: string; version: string; last_event_seq: number }>(READ_CLOCKS),
      this.pool.query<{ version: number }>(READ_CONFIG_VERSION),
    ]);
    const first = !this.looked;
    this.looked = true;
    const configVersion = config.rows[0]?.version ?? 0;
    if (!first && configVersion !== this.configVersion) this.changed(null, 'config');
    this.configVersion = configVersion;
    for (const row of rows) {
      const before = this.seen.get(row.restaurant_id);
      if (before && before.version === row.version) continue;
      this.seen.set(row.restaurant_id, { version: row.version, lastEventSeq: row.last_event_seq });
      if (first) continue;
      this.changed(row.restaurant_id, !before || before.lastEventSeq !== row.last_event_seq ? 'feed' : 'data');
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.looking = this.look()
        .catch((error: Error) => this.onError(error)) // the next look tries again
        .finally(() => {
          this.looking = null;
          this.schedule();
        });
    }, this.everyMs);
    this.timer.unref();
  }

  /** Stops looking; resolves once a look under way is over (the pool can then end). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.looking;
  }
}
