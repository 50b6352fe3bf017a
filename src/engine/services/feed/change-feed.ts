import type { EVENT_TYPES } from '../../../shared/schemas/events.ts';
import { invalidRequest } from '../../domain/errors.ts';

export type EventType = (typeof EVENT_TYPES)[number];
import { formatInstant } from '../../domain/time.ts';
import type { Engine } from '../../engine.ts';
import type { Actor } from '../../domain/actor.ts';
import { restaurantOf } from '../keys/restaurant-context.ts';

export interface FeedEvent {
  id: string;
  type: EventType;
  created_at: string;
  data: unknown;
}

export interface FeedPage {
  data: FeedEvent[];
  next_cursor: string;
  has_more: boolean;
}

export interface FeedQuery {
  after?: string;
  limit?: number;
  wait?: number;
}

const CURSOR_PREFIX = 'ev_';

function encodeFeedCursor(seq: number): string {
  return `${CURSOR_PREFIX}${seq}`;
}

function decodeFeedCursor(cursor: string): number {
  const match = /^ev_(0|[1-9][0-9]{0,15})$/.exec(cursor);
  const seq = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(seq)) throw invalidRequest('after is not a cursor this API gave out (use next_cursor as it came)');
  return seq;
}

/** One page of the change feed after the cursor, oldest first. No cursor means "from now". */
async function readFeed(engine: Engine, actor: Actor, afterSeq: number, limit: number): Promise<FeedPage> {
  const restaurant = await restaurantOf(engine, actor);
  const rows = await engine.stores.events.list(restaurant.id, actor.world, afterSeq, limit + 1);
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const lastSeq = page.length > 0 ? page[page.length - 1]!.seq : afterSeq;
  return {
    data: page.map((row) => ({
      id: encodeFeedCursor(row.seq),
      type: row.type as EventType,
      created_at: formatInstant(row.created_at, restaurant.time_zone),
      // Stored as the JSON text it was written as; parsed once here to nest it in the page.
      data: JSON.parse(row.data) as unknown,
    })),
    next_cursor: encodeFeedCursor(lastSeq),
    has_more: hasMore,
  };
}

/**
 * The feed with long-poll: when nothing follows the cursor, waits up to `wait` seconds for a commit
 * of this restaurant (or until `signal` aborts, e.g. the client went away).
 */
export async function pollFeed(engine: Engine, actor: Actor, query: FeedQuery, signal?: AbortSignal): Promise<FeedPage> {
  const afterSeq = query.after === undefined ? await engine.stores.events.lastSeq(actor.restaurantId) : decodeFeedCursor(query.after);
  const limit = query.limit ?? 100;
  const waitMs = (query.wait ?? 0) * 1000;
  const first = await readFeed(engine, actor, afterSeq, limit);
  if (first.data.length > 0 || waitMs === 0) return first;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0 || signal?.aborted) return await readFeed(engine, actor, afterSeq, limit);
    await engine.notifier.waitForChange(actor.restaurantId, remaining, signal);
    // A commit may carry only events of the other world: read, and keep waiting if still empty.
    const page = await readFeed(engine, actor, afterSeq, limit);
    if (page.data.length > 0) return page;
  }
}
