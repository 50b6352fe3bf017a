// Issue 34: EventsStore (store/events-store.ts) on PostgreSQL. An event's `seq` comes from its
// restaurant's clock row (clock-sql.ts, shared with the storage port): gapless and in commit order
// per restaurant, where SQLite's is one rowid for the whole file. Cursors keep their format.
//
// `lastSeq(restaurantId)` is the restaurant's last event, on both databases: the highest seq of all
// restaurants would be a cursor past events another restaurant has not written yet here.
import { KITCHEN_EVENT_PREFIX, type EventRow, type EventWorld, type EventsStore } from '../../store/events-store.ts';
import type { World } from '../../../shared/world.ts';
import type { AsyncStore } from '../../store/async-store.ts';
import { APPEND_EVENT_SQL, LAST_EVENT_SEQ_SQL } from '../clock-sql.ts';
import { firstRow, rowsOf, sendWrite, type PostgresQueryable } from './queryable.ts';

/** The feed after a cursor ($1 restaurant, $2 after, $3 world, $4 limit), the kitchen's own events left out. */
export const READ_FEED_SQL = `SELECT seq, type, created_at, data FROM events
  WHERE restaurant_id = $1 AND seq > $2 AND world IN ($3, 'both') AND type NOT LIKE '${KITCHEN_EVENT_PREFIX}%'
  ORDER BY seq LIMIT $4`;

export class PostgresEventsStore implements AsyncStore<EventsStore> {
  /** `appended`: told of each event's restaurant, as on SQLite (whom to wake once the write commits). */
  constructor(
    private readonly db: PostgresQueryable,
    private readonly appended: (restaurantId: string) => void,
  ) {}

  async append(restaurantId: string, world: EventWorld, type: string, createdAt: number, data: unknown): Promise<number> {
    const row = await firstRow<{ seq: number }>(this.db, APPEND_EVENT_SQL, [restaurantId, world, type, createdAt, JSON.stringify(data)]);
    if (!row) throw new Error(`no event appended for restaurant ${restaurantId}`);
    this.appended(restaurantId);
    return row.seq;
  }

  /** `append`, its seq not read: inside a transaction sent without waiting (queryable.ts, sendWrite). */
  async appendWithoutSeq(restaurantId: string, world: EventWorld, type: string, createdAt: number, data: unknown): Promise<void> {
    await sendWrite(this.db, APPEND_EVENT_SQL, [restaurantId, world, type, createdAt, JSON.stringify(data)]);
    this.appended(restaurantId);
  }

  list(restaurantId: string, world: World, afterSeq: number, limit: number): Promise<EventRow[]> {
    return rowsOf<EventRow>(this.db, READ_FEED_SQL, [restaurantId, afterSeq, world, limit]);
  }

  /** The restaurant's last event (0 before its first): a "from now" cursor for its feed. */
  async lastSeq(restaurantId: string): Promise<number> {
    return (await firstRow<{ last_event_seq: number }>(this.db, LAST_EVENT_SEQ_SQL, [restaurantId]))?.last_event_seq ?? 0;
  }
}
